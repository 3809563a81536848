//===- PassManagerOptions.h - Pipelines from the command line ---*- C++ -*-===//
//-*-===//
//
// The command-line flags of a tool that runs passes (onyx-opt): one flag
// per registered pass (`--cse`, `--canonicalize=max-iterations=3`),
// `--pass-pipeline=`, IR printing around passes, `--timing` and
// `--pass-statistics`. Kept here, next to the pass manager, so that any
// tool gets the same flags with the same meaning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rewrite/PassManager.h"

#include <vector>

namespace llvm::cl {
class OptionCategory;
} // namespace llvm::cl

namespace onyx {

/// Creates the flags in llvm::cl. Call once, after registering passes (each
/// registered pass becomes a flag) and before parsing the command line.
void registerPassManagerCLOptions();

/// The categories of those flags, for llvm::cl::HideUnrelatedOptions.
std::vector<const llvm::cl::OptionCategory *> getPassManagerCLCategories();

/// Adds the passes the flags name to `pm`, in command-line order, and turns
/// on the instrumentation they ask for; IR dumps use `printingFlags`, and
/// dumps and reports go to stderr. Problems with the flags (pipeline syntax,
/// unknown passes, bad pass options) are printed to `errorStream`.
LogicalResult applyPassManagerCLOptions(PassManager &pm,
                                        const OpPrintingFlags &printingFlags,
                                        llvm::raw_ostream &errorStream);

} // namespace onyx

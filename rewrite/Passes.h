//===- Passes.h - The passes of the rewrite library -------------*- C++ -*-===//
//
// Constructors of the generic passes, and the call that registers them so
// that pipelines and onyx-opt flags can name them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rewrite/Pass.h"

namespace onyx {

/// `canonicalize`: canonicalization patterns of the loaded dialects,
/// folding and DCE, to a fixpoint.
std::unique_ptr<Pass> createCanonicalizerPass();
/// `cse`: merges equal pure ops, scoped across nested regions.
std::unique_ptr<Pass> createCSEPass();
/// `dce`: erases pure ops whose results are unused.
std::unique_ptr<Pass> createDCEPass();
/// `symbol-dce`: erases private functions that nothing refers to.
std::unique_ptr<Pass> createSymbolDCEPass();

/// Registers canonicalize, cse, dce and symbol-dce.
void registerRewritePasses();

} // namespace onyx

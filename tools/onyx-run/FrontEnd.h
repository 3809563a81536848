//===- FrontEnd.h - onyx-run's model and tensors, checked -------*- C++ -*-===//
//
// What every backend of onyx-run starts from: the tensors of the command
// line (@FILE.npy, @FILE.pb or literals) and the module: an ONNX model
// imported with its symbolic dimensions bound and canonicalized, or a .mlir
// module parsed and verified (and canonicalized too if it is in the onnx
// dialect and bound for Vulkan), with @main's signature checked against
// the inputs, expected outputs and output files. With --input-set, an ONNX
// model's symbolic dimensions stay symbolic (unless --bind-dims binds them),
// so that one lowered model serves every set.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/onyx-run/Options.h"

#include "dialect/onnx/Tensor.h"
#include "runtime/Executable.h"

#include "ir/BuiltinOps.h"
#include "ir/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace onyx::run {

/// What the front half hands to a backend: the module, @main and the
/// tensors of the command line, checked against @main's signature.
struct Prepared {
  OwningOpRef<ModuleOp> module;
  FuncOp main;
  SmallVector<onnx::Tensor> inputs;
  SmallVector<onnx::Tensor> expected;
  /// The tensors of each --input-set, in order (then `inputs` is empty).
  SmallVector<SmallVector<onnx::Tensor>> inputSets;
};

/// Reads the tensors and the module; errors are reported (through
/// `sourceMgr`'s handler for located ones) before failing.
FailureOr<Prepared> prepare(const Options &options, Context &ctx,
                            llvm::SourceMgr &sourceMgr);

/// The bounds --max-dims gives each symbolic dimension of `main`'s
/// arguments, found by name in the ONNX model's inputs: every dimension
/// left symbolic needs one, and every name must be one of them.
FailureOr<std::vector<runtime::DimBound>>
getDimBounds(const Options &options, FuncOp main, Context &ctx);

} // namespace onyx::run

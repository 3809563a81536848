//===- ReferenceBackend.h - onnx functions run on the CPU -------*- C++ -*-===//
//
// The reference backend executes a function of onnx ops op by op with the
// dialect's reference evaluator, the same code that folds constants. It is
// the oracle that the GPU backend and the conformance tests compare with,
// so it favours being obviously right over being fast.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include "ir/BuiltinOps.h"

namespace onyx::onnx {

struct ReferenceOptions {
  /// The most bytes the tensors that a run creates may hold at once; 0 for
  /// the machine's physical memory. An op whose results would pass it fails
  /// naming the result, before anything of it is allocated.
  uint64_t maxMemory = 0;
};

/// The physical memory of this machine in bytes (the default budget).
uint64_t getPhysicalMemory();

/// Runs `func` on `inputs`, one per argument, which must fit the argument
/// types (see checkInputs). Ops run in block order: onnx.Constant yields
/// its attribute's bytes without a copy, every other onnx op goes through
/// onnx::evaluate, and each intermediate tensor is released after its last
/// use. A result that does not fit the type the IR gives it is an error,
/// as is an op of another dialect. Errors are reported at the op.
FailureOr<SmallVector<Tensor>>
runReference(FuncOp func, ArrayRef<Tensor> inputs,
             const ReferenceOptions &options = {});

} // namespace onyx::onnx

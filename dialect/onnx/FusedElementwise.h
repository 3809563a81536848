//===- FusedElementwise.h - A group of elementwise ops as one op -*- C++ -*-===//
//
// onnx-fuse-elementwise (lowering/) wraps a tree of elementwise and
// broadcast ops that becomes one kernel in an op of its own:
//
//   %r = "onnx.FusedElementwise"(%x, %b) ({
//   ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>):
//     %0 = "onnx.Add"(%a0, %a1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
//     %1 = "onnx.Relu"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//     "onnx.Yield"(%1) : (tensor<4x8xf32>) -> ()
//   }) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
//
// The body is ordinary onnx IR on the block arguments (one per operand, of
// the operand's type), isolated from above, so it verifies, folds and reads
// like the ops it replaced; splat constants it uses are cloned into it.
// The first op after those constants may be a MatMul, Gemm or Conv of the
// result's shape that only the tree reads: the kernel then computes the
// product and applies the tree to each element as it stores it.
// The single result is what onnx.Yield yields. Not an ONNX operator: it
// exists between fusion and kernel generation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Operation.h"

namespace onyx::onnx {

inline constexpr StringRef kFusedElementwiseName = "onnx.FusedElementwise";
inline constexpr StringRef kYieldName = "onnx.Yield";

/// The verifiers the dialect registers for the two ops.
LogicalResult verifyFusedElementwise(Operation *op);
LogicalResult verifyYield(Operation *op);

} // namespace onyx::onnx

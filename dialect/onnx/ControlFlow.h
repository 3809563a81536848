//===- ControlFlow.h - onnx.If, onnx.Loop and onnx.Scan ---------*- C++ -*-===//
//
// ONNX's control flow as ops with regions, written as onnx-mlir writes
// them. A subgraph is a region of one block ending in onnx.Yield; it may
// read any value of the enclosing regions (ONNX's outer-scope capture), so
// the regions are not isolated from above:
//
//   %r = "onnx.If"(%cond) ({
//     "onnx.Yield"(%a) : (tensor<2xf32>) -> ()
//   }, {
//     "onnx.Yield"(%b) : (tensor<3xf32>) -> ()
//   }) : (tensor<i1>) -> tensor<?xf32>
//
//   %final, %scan = "onnx.Loop"(%M, %cond, %v0) ({
//   ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
//     ...
//     "onnx.Yield"(%c2, %v2, %s) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>)
//     -> ()
//   }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>,
//   tensor<?x2xf32>)
//
//   %state, %out = "onnx.Scan"(%init, %xs) ({
//   ^bb0(%s: tensor<2xf32>, %x: tensor<2xf32>):
//     "onnx.Yield"(%s2, %y) : (tensor<2xf32>, tensor<2xf32>) -> ()
//   }) {num_scan_inputs = 1 : si64}
//      : (tensor<2xf32>, tensor<5x2xf32>) -> (tensor<2xf32>, tensor<5x2xf32>)
//
// If's results are its branches' yields, `?` where their sizes differ.
// Loop's body takes the iteration number, the condition and the carried
// values and yields the next condition, the carried values and one element
// of each scan output; Loop's results are the final carried values and the
// scan outputs stacked along a new first axis. Scan's body takes the state
// and one slice of each scan input and yields the next state and one slice
// of each scan output. The verifiers check these signatures; the reference
// evaluator runs the regions; an If on a constant condition canonicalizes
// to its branch.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Types.h"

namespace onyx::onnx {

/// A Loop with neither a trip count nor a condition never ends (the
/// verifier refuses it); one with only a condition (a while loop) stops with
/// an error on the reference backend after this many iterations rather
/// than hang on a condition that never becomes false.
inline constexpr int64_t kMaxWhileIterations = int64_t(1) << 20;

/// The most general of two tensor types that agree in element type and
/// rank: `?` where their sizes differ. Null if they do not agree.
Type mergeTensorTypes(Type a, Type b);

/// The type of one slice of a scan input of `type` along `axis` (the axis
/// removed); null if `axis` is out of range.
Type getScanSliceType(Type type, int64_t axis);

} // namespace onyx::onnx

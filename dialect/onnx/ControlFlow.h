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

#include "ir/Operation.h"
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

/// Scan's axes and directions, defaults applied and axes normalized.
struct ScanLayout {
  int64_t numState = 0, numInputs = 0, numOutputs = 0;
  SmallVector<int64_t> inputAxes, inputDirections;
  SmallVector<int64_t> outputAxes, outputDirections;
};

/// The layout of `scan`, an onnx.Scan; fails with an error at the op when
/// its attributes do not fit its operands and results.
FailureOr<ScanLayout> getScanLayout(Operation *scan);

/// Replaces `op`, an onnx.If, onnx.Loop or onnx.Scan outside any other
/// control flow, by straight-line ops before it in its block (a GPU's
/// stream of dispatches has no control flow):
/// - a Loop whose trip count is a constant and whose condition is absent,
///   or a constant true the body passes on unchanged (or yields as a
///   constant; a constant false stops it after one iteration), is
///   unrolled: its body is cloned once per iteration
///   with the iteration number a constant, and its scan outputs are the
///   yielded slices unsqueezed and concatenated;
/// - a Scan whose inputs have a static length along their scan axes is
///   unrolled the same way, each input slice a Gather of a constant index
///   (taken from the end for a reverse direction);
/// - an If on a constant condition becomes its branch (canonicalization
///   keeps one whose branch is more static than a returned result);
/// - an If whose condition is known only at run time and whose branches
///   yield values of equal static types runs both branches and chooses
///   each result with a Where on the condition (both branches are pure,
///   so computing the one not taken changes nothing but the cost).
/// The cloned ops take result types inferred from their operands, which
/// are more static than the body's where an iteration fixes a size. An
/// unrolled body may hold at most `maxOps` ops in all. Fails with an
/// error at `op` saying why it cannot be flattened (then nothing changed).
LogicalResult flattenControlFlow(Operation *op, int64_t maxOps);

/// Whether `op` is an onnx.Loop with a trip count that is not a constant:
/// it is known only at run time, and is not unrolled.
bool hasRunTimeTripCount(Operation *op);
/// Checks that `op`, an onnx.Loop of a trip count known only at run time,
/// can run on the GPU with its body lowered once and recorded once per
/// iteration (gpu.loop): its condition is absent, passed on unchanged or
/// yielded as a constant (a body that computes it would need it read back
/// after every iteration), its carried values keep their element type,
/// rank and static sizes, its scan outputs' sizes are known before the
/// loop, and its body holds no control flow. With `report`, an error at
/// the op says why not.
LogicalResult checkDeviceLoop(Operation *op, bool report = true);
/// Makes the trip count of `op`, an onnx.Loop kept for gpu.loop, the number
/// of iterations it runs: max(M, 0), and 0 where its initial condition is
/// false (Where(cond, M, 0)), so that the count alone decides, whether the
/// host program computes it or kernels do and it is read back.
LogicalResult foldConditionIntoTripCount(Operation *op);
/// 1 where `op`'s body yields a constant false condition (at most one
/// iteration runs), nullopt otherwise.
std::optional<int64_t> getLoopIterationLimit(Operation *op);

/// Makes the result types of the onnx ops nested in `region` as static as
/// inference gives them from their operands (after flattening, values of
/// `?` size in a body have a known size in each iteration); returns
/// whether any type changed.
bool refineResultTypes(Region &region);

} // namespace onyx::onnx

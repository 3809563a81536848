//===- KernelSizes.h - Sizes known at compile time or at run time -*- C++
//-*-===//
//
// A tensor's dimension is either known when the model is compiled (a
// constant, or a symbolic dim bound with --bind-dims) or only when it runs
// (`?`). Generators spell every size through one helper, so that one
// generator serves both without a second copy of the kernel:
//
//   KernelSizes sizes(ctx);
//   std::string n = sizes.get(count);    // "6u", or "pc.s0" for a dim known
//                                        // at run time
//   ...
//   sizes.addTo(spec, push);             // the push-constant block and the
//                                        // index values that fill it
//
// A static size is a literal in the GLSL, exactly as before (the fast path);
// a dynamic one is a 32-bit push constant the runtime fills from an index
// value of the gpu dialect's host program (dialect/gpu/HostOps.h), computed
// with the host arithmetic of LoweringContext (mul, ceilDiv, ...) from the
// same dims that size the grid and the views.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"

#include "dialect/onnx/SlidingWindow.h"

namespace onyx::lowering {

class KernelSizes {
public:
  explicit KernelSizes(LoweringContext &ctx) : ctx(ctx) {}

  LoweringContext &getContext() const { return ctx; }

  /// The size as a GLSL uint expression.
  std::string get(Size size);
  /// A value that may be negative (Range's start and delta) as a GLSL int
  /// expression: a literal, or an `i32` push constant.
  std::string getInt(Size value);
  /// Whether any size given so far is dynamic.
  bool isDynamic() const { return !values.empty(); }
  /// The push-constant block declaration; empty if no size is dynamic.
  std::string declaration() const;
  /// Adds the push constants to the kernel's interface and their values to
  /// the dispatch's.
  void addTo(KernelSpec &spec, SmallVectorImpl<OpFoldResult> &push) const;
  /// addTo, then a dispatch of the kernel of `spec` at the op being lowered
  /// over `elements` along x, `perInvocation` of them per invocation:
  /// ceil(elements / (perInvocation * workgroup width)) workgroups, with
  /// `bindings` bound in order. Static sizes without push constants give a
  /// static grid, as LoweringContext::dispatch's counts.
  void dispatch(KernelSpec &spec, Size elements, ValueRange bindings,
                int64_t perInvocation = 1) const;

  /// Statements declaring `prefix0`, `prefix1`, ...: the coordinates of flat
  /// row-major index `flat` (a uint expression) in a tensor of `dims`.
  std::string unflatten(ArrayRef<Size> dims, StringRef flat, StringRef prefix);
  /// The flat index (a uint expression) of the element of a tensor of
  /// `inputDims` that numpy broadcasting reads at output coordinates
  /// `prefix0`, ... of an output of rank `outputRank`. A dimension known
  /// only at run time may be 1 then: its stride is multiplied by
  /// LoweringContext::broadcastFactor.
  std::string broadcastIndex(ArrayRef<Size> inputDims, unsigned outputRank,
                             StringRef prefix);
  /// The same for a tensor read in place through `read`: its offset plus
  /// each coordinate times its stride.
  std::string broadcastIndex(const StridedRead &read, unsigned outputRank,
                             StringRef prefix);

private:
  LoweringContext &ctx;
  SmallVector<Value> values;
  /// Whether each of `values` is an int (getInt) rather than a uint.
  SmallVector<bool> isSigned;
};

/// Row-major strides of `dims`, in elements.
SmallVector<Size> getStrides(LoweringContext &ctx, ArrayRef<Size> dims);
/// The number of elements of `dims`.
Size getNumElements(LoweringContext &ctx, ArrayRef<Size> dims);

/// The output sizes of a sliding window (Conv, MaxPool, AveragePool) over
/// spatial sizes `input`, of which `g` (computeWindowGeometry's, for the
/// static ones) holds the kernel, strides, dilations and explicit pads: a
/// size known only at run time gets its output size from host arithmetic,
/// with a check of the run that the window fits, as the dialect's
/// inference computes it for constants (`ceilMode` as a pool's). auto_pad
/// SAME_UPPER and SAME_LOWER over such a size are an error at the op: their
/// padding would depend on the run.
FailureOr<SmallVector<Size>> getWindowOutputSizes(LoweringContext &ctx,
                                                  const onnx::OpAttrs &attrs,
                                                  const onnx::WindowGeometry &g,
                                                  ArrayRef<Size> input,
                                                  bool ceilMode);

} // namespace onyx::lowering

//===- SlidingWindow.h - Geometry of convolution and pooling ----*- C++ -*-===//
//
// Conv and the pooling ops slide a window over the spatial dimensions with
// strides, dilations and padding (explicit or auto_pad). This resolves their
// attributes into one description used by both inference and evaluation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

namespace onyx::onnx {

struct WindowGeometry {
  SmallVector<int64_t> kernel;
  SmallVector<int64_t> strides;
  SmallVector<int64_t> dilations;
  /// Begin pads of every spatial dimension, then end pads.
  SmallVector<int64_t> pads;
  /// Output sizes of the spatial dimensions (kDynamic where the input's is).
  SmallVector<int64_t> output;
};

/// Resolves the window attributes (`auto_pad`, `strides`, `dilations`,
/// `pads`, and `ceil_mode` when `allowCeilMode`) for input spatial sizes
/// `input` and kernel sizes `kernel`. Reports through `emitError` and fails
/// on inconsistent attributes.
FailureOr<WindowGeometry>
computeWindowGeometry(const OpAttrs &attrs, ArrayRef<int64_t> input,
                      ArrayRef<int64_t> kernel, bool allowCeilMode,
                      llvm::function_ref<InFlightDiagnostic()> emitError);

/// ConvTranspose's geometry: each input position i of a spatial dimension
/// spreads into output positions i * stride + k * dilation - pads[begin] for
/// the kernel offsets k, and the output has `output` positions, where an
/// explicit `output_shape` (the spatial sizes, or all dims) or auto_pad
/// decides the padding. The spec's rules: the total padding is
/// stride * (in - 1) + output_padding + extent - output, at least 0 (a
/// larger output_shape leaves the rest to the bias alone, as ONNX Runtime
/// does), the odd unit going to the end with SAME_UPPER and to the begin
/// otherwise.
FailureOr<WindowGeometry>
computeTransposedGeometry(const OpAttrs &attrs, ArrayRef<int64_t> input,
                          ArrayRef<int64_t> kernel,
                          llvm::function_ref<InFlightDiagnostic()> emitError);

/// Checks what Conv and ConvTranspose ask alike of their data operand `x`
/// and weights `w`: `x` is N x C x spatial, `w` of the same rank, and the
/// attribute `group` positive, which it returns.
FailureOr<int64_t> checkConvOperands(InferState &s, unsigned x, unsigned w);

/// The kernel sizes of weights operand `w` (its dims after the first two):
/// static, and equal to attribute `kernel_shape` where it is given.
FailureOr<ArrayRef<int64_t>> inferConvKernel(InferState &s, unsigned w);

/// The f64 copies that the reference convolutions compute in: the input,
/// the weights, and a result of zeros of shape [batch, filters, output...].
struct F64Convolution {
  Tensor x, w, out;
};
F64Convolution makeF64Convolution(const Tensor &x, const Tensor &w,
                                  int64_t batch, int64_t filters,
                                  ArrayRef<int64_t> output);

/// The auto_pad values the spec allows.
extern const StringRef autoPadValues[4];

} // namespace onyx::onnx

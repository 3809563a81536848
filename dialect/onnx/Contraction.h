//===- Contraction.h - MatMul and Conv shared with their variants -*- C++
//-*-===//
//
// The integer and quantized contractions (MatMulInteger, QLinearMatMul,
// ConvInteger, QLinearConv; QuantizedContraction.cpp) are MatMul and Conv
// on zero-point-shifted operands: they infer their shapes and compute their
// products with MatMul's and Conv's own code (MatMulGemm.cpp, Conv.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

#include <string>

namespace onyx::onnx {

/// The result shape of numpy matmul of operands of shapes `a` and `b`;
/// nullopt, with the reason in `why`, when they do not fit.
std::optional<SmallVector<int64_t>>
getMatMulShape(ArrayRef<int64_t> a, ArrayRef<int64_t> b, std::string &why);

/// numpy matmul of `a` and `b` (shapes that getMatMulShape accepts),
/// computed and returned in f64 for floats and in wrapping 64-bit integers
/// (i64, or u64 for unsigned types) for integers.
Tensor multiplyMatrices(const Tensor &a, const Tensor &b);

/// Conv's attributes (auto_pad, dilations, group, kernel_shape, pads,
/// strides), which ConvInteger and QLinearConv share.
inline constexpr size_t kNumConvAttrs = 6;
extern const AttrSpec convAttrs[kNumConvAttrs];

/// Conv's result shape for its data operand `x` and weight operand `w` of
/// `s` with its attributes (group, kernel_shape, strides, dilations, pads,
/// auto_pad); fails with an error naming the operand or attribute.
FailureOr<SmallVector<int64_t>> inferConvShape(InferState &s, unsigned x,
                                               unsigned w);

/// Conv of `x` by `w` with the attributes of `s`'s op, plus `bias` (one
/// value per filter) when it is not null, computed in f64 (exact for
/// integer operands whose sums stay below 2^53); the result in f64.
FailureOr<Tensor> convolve(EvalState &s, const Tensor &x, const Tensor &w,
                           const Tensor &bias);

} // namespace onyx::onnx

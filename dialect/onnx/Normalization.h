//===- Normalization.h - Normalizations over rows ---------------*- C++ -*-===//
//
// LayerNormalization and RMSNormalization (Normalization.cpp) and ONNX
// Runtime's SimplifiedLayerNormalization and skip forms
// (ContribNormalization.cpp) normalize rows: the dimensions from an axis on
// (the last one for the skip forms), each row by its mean and deviation, or
// by its root mean square. Their checks, result types and reference
// arithmetic are defined here once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

namespace onyx::onnx {

/// Infers a normalization from attribute `axis` on of X (operand 0), whose
/// other operands (scale, optional bias) broadcast to the normalized
/// dimensions: the result Y of X's type, then `numStats` statistics results
/// (mean, inverse deviation) of the float type attribute `stash_type` names,
/// X's shape with the normalized dimensions 1.
LogicalResult inferNormalizationFromAxis(InferState &s, unsigned numStats);

/// Normalizes `rows` rows of `size` values `v`: y = (v - mean) * inv *
/// gamma (+ beta where not empty), inv = 1 / sqrt(mean of squared
/// deviations + epsilon); for `simplified` (RMSNorm) nothing is subtracted
/// and inv is 1 / RMS. Writes y and each row's mean and inv.
void normalizeRows(ArrayRef<double> v, int64_t rows, int64_t size,
                   ArrayRef<double> gamma, ArrayRef<double> beta,
                   double epsilon, bool simplified, MutableArrayRef<double> y,
                   MutableArrayRef<double> means, MutableArrayRef<double> invs);

/// The reference of a normalization from attribute `axis` on of input 0,
/// with input 1 the scale and input `biasInput` (if given and present) the
/// bias, both broadcast to the normalized dimensions, and attribute
/// `epsilon`: y (X's shape), means and inverse deviations (X's shape with the
/// normalized dimensions 1), all f64.
struct NormalizedRows {
  Tensor y, means, invs;
};
NormalizedRows normalizeFromAxis(EvalState &s, bool simplified,
                                 std::optional<unsigned> biasInput);

} // namespace onyx::onnx

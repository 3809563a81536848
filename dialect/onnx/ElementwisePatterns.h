//===- ElementwisePatterns.h - Elementwise folds, patterns ------*- C++ -*-===//
//
// The folds and canonicalization patterns that the rows of the elementwise
// table (Elementwise.cpp) name. Floating-point identities follow IEEE
// exactly, as MLIR's arith dialect does: x + -0.0, x - 0.0, x * 1, x / 1,
// -(-x), (-a) * (-b), (-a) / (-b), max(x, x) and min(x, x) simplify; x - x, x +
// 0.0, x * 0 and x * -1 do not (signed zeros, NaN and infinities make them
// wrong). Max and Min are IEEE 754-2019 maximum and minimum (commutative,
// -0.0 below +0.0), so max(x, +0.0) is relu(x) but max(x, -0.0) is not. A
// fold applies only where the result has its operand's type (no
// broadcasting).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OpDef.h"

#include <algorithm>

namespace onyx::onnx {

OpFoldResult foldAdd(Operation *op, ArrayRef<Attribute> constants);
OpFoldResult foldSub(Operation *op, ArrayRef<Attribute> constants);
OpFoldResult foldMul(Operation *op, ArrayRef<Attribute> constants);
OpFoldResult foldDiv(Operation *op, ArrayRef<Attribute> constants);
OpFoldResult foldNeg(Operation *op, ArrayRef<Attribute> constants);
/// Max and Min whose operands are all the same value.
OpFoldResult foldIdempotent(Operation *op, ArrayRef<Attribute> constants);
/// foldIdempotent, and max(x, -inf) / min(x, +inf) of floats.
OpFoldResult foldMax(Operation *op, ArrayRef<Attribute> constants);
OpFoldResult foldMin(Operation *op, ArrayRef<Attribute> constants);
OpFoldResult foldIdentity(Operation *op, ArrayRef<Attribute> constants);

/// Swaps the operands of a commutative binary op whose left one alone is
/// constant, so that folds and patterns look for constants on the right.
LogicalResult moveConstantRight(Operation *op, PatternRewriter &rewriter);

/// An op name as a template argument, so that one hook function exists per
/// op (canonicalization hooks receive no op name).
template <size_t N> struct OpNameLiteral {
  char value[N];
  constexpr OpNameLiteral(const char (&name)[N]) {
    std::copy_n(name, N, value);
  }
};

/// The patterns of a commutative op with no patterns of its own.
template <OpNameLiteral Name>
void addCommutativePatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, Name.value, moveConstantRight, "constant-to-right");
}
/// Constants to the right, and onnx.LayerNormalization and
/// onnx.RotaryEmbedding formed from the decomposed subgraphs ending in
/// this Add.
void addAddPatterns(PatternSet &patterns, Context *ctx);
/// Also forms onnx.Gelu, onnx.LayerNormalization and onnx.RMSNormalization
/// from the decomposed subgraphs PyTorch exports.
void addMulPatterns(PatternSet &patterns, Context *ctx);
/// Constants to the right, and max(x, +0.0) -> relu(x).
void addMaxPatterns(PatternSet &patterns, Context *ctx);
/// Also forms onnx.LayerNormalization without scale or bias, and
/// onnx.RMSNormalization (x / rms) without a scale.
void addDivPatterns(PatternSet &patterns, Context *ctx);

/// The Gelu patterns (GeluPattern.cpp), rooted on the final onnx.Mul.
void addGeluPatterns(PatternSet &patterns, Context *ctx);
/// The LayerNormalization pattern (LayerNormPattern.cpp) rooted on
/// `rootName`, the last op of the decomposed subgraph: onnx.Add (with a
/// bias), onnx.Mul (a scale only) or onnx.Div (neither).
void addLayerNormPattern(PatternSet &patterns, StringRef rootName);
/// The RMSNormalization pattern (RMSNormPattern.cpp) rooted on `rootName`:
/// onnx.Mul (x * rsqrt, or that times a scale) or onnx.Div (x / rms).
void addRMSNormPattern(PatternSet &patterns, StringRef rootName);

/// The RotaryEmbedding pattern (Rotary.cpp) rooted on `rootName`, the Add
/// of x * cos and rotate_half(x) * sin.
void addRotaryPattern(PatternSet &patterns, StringRef rootName);

/// Helpers of the normalization patterns.
/// The op defining `value` if it is `name` and `value` has no other use.
Operation *getSingleUseOp(Value value, StringRef name);
/// The first reduced axis, counted from the end, of a ReduceMean that keeps
/// its dimensions and reduces a nonempty run of trailing dimensions of its
/// rank-`rank` operand; nullopt for any other ReduceMean.
std::optional<int64_t> getTrailingReduceAxis(Operation *reduce, int64_t rank);
/// The ReduceMean of `sqrt` = Sqrt(ReduceMean(...) + epsilon) (the Add's
/// operands in either order, each used once), epsilon a splat that an f32
/// holds exactly (the attribute's type); fills `epsilon`.
Operation *matchMeanPlusEpsilon(Operation *sqrt, double &epsilon);
/// The first normalized axis, counted from the end, of a normalization of
/// `x` over the trailing dimensions that `mean` reduces: x must be an f16,
/// f32 or f64 tensor whose normalized dimensions are static (the scale and
/// bias are constants of that shape).
std::optional<int64_t> getNormalizedAxis(Value x, Operation *mean);

/// A LayerNorm or RMSNorm subgraph found ending at a root op.
struct NormalizationMatch {
  Value x;
  /// The first normalized axis, counted from the end (negative).
  int64_t axis = 0;
  double epsilon = 0;
  /// Scale and B as the normalization op takes them (leading unit
  /// dimensions beyond the normalized rank dropped); null when absent (B
  /// always for RMSNorm).
  DenseElementsAttr scale, bias;
  /// The constants the subgraph used, reused when their type is unchanged.
  Value gamma, beta;
};
/// `param` as the scale or bias of `m`: a constant of x's element type that
/// broadcasts to exactly the normalized dimensions, with leading unit
/// dimensions beyond their rank dropped; null otherwise.
DenseElementsAttr fitNormalizedParameter(Value param,
                                         const NormalizationMatch &m);
/// Replaces `op` by the op `name` (onnx.LayerNormalization or
/// onnx.RMSNormalization) of `m`, with a scale of ones where `m` has none.
LogicalResult replaceWithNormalization(PatternRewriter &rewriter, Operation *op,
                                       StringRef name,
                                       const NormalizationMatch &m);

} // namespace onyx::onnx

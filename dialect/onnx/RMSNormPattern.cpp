//===- RMSNormPattern.cpp - Forming onnx.RMSNormalization -----------------===//
//
// PyTorch exports RMSNorm (Llama, T5, Gemma, Qwen: `x * rsqrt(mean(x^2) +
// eps) * weight`) as
//   ms = ReduceMean(Pow(x, 2), axes)    r = 1 / Sqrt(ms + eps)
//   n = x * r    y = n * gamma
// with the axes the trailing dimensions, keepdims and gamma a constant; the
// square may be Mul(x, x), 1 / Sqrt a Reciprocal of the Sqrt, and x * r a
// Div of x by the Sqrt. The pattern is rooted on the last op (the Mul by
// gamma, else the Mul or Div forming n); an n whose one user would itself
// complete the RMSNorm with a scale is left to that user. Operands of Add
// and Mul are matched in either order. Every intermediate value must have
// no other use, so the subgraph disappears; x may have other uses (the
// residual connection). A centred x (x - mean(x)) makes it a LayerNorm,
// which LayerNormPattern.cpp forms instead.
//
// RMSNormalization (opset 23) is defined by this same computation, so the
// rewrite is exact up to rounding order. stash_type is set to x's type, the
// precision the decomposed statistics are computed in.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ElementwisePatterns.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

/// Whether `value` is x squared: Pow(x, 2) or Mul(x, x), used only once.
bool isSquareOf(Value value, Value x) {
  if (Operation *pow = getSingleUseOp(value, "onnx.Pow")) {
    std::optional<double> exponent = getSplatValue(pow->getOperand(1));
    return pow->getOperand(0) == x && exponent && *exponent == 2.0;
  }
  Operation *mul = getSingleUseOp(value, "onnx.Mul");
  return mul && mul->getOperand(0) == x && mul->getOperand(1) == x;
}

/// `sqrt` = Sqrt(ReduceMean(x^2) + eps) over trailing axes of x; fills the
/// axis and epsilon.
bool matchRms(Operation *sqrt, Value x, NormalizationMatch &m) {
  if (!sqrt || !isOp(sqrt, "onnx.Sqrt"))
    return false;
  double epsilon;
  Operation *mean = matchMeanPlusEpsilon(sqrt, epsilon);
  if (!mean || !haveSameType(sqrt->getResult(0), mean->getResult(0)) ||
      !isSquareOf(mean->getOperand(0), x) ||
      !haveSameType(mean->getOperand(0), x))
    return false;
  // x - mean(x) normalized this way is a LayerNorm: left to its pattern.
  if (Operation *sub = getDefiningOp(x, "onnx.Sub"))
    if (Operation *center =
            getDefiningOp(sub->getOperand(1), "onnx.ReduceMean"))
      if (center->getOperand(0) == sub->getOperand(0))
        return false;
  std::optional<int64_t> axis = getNormalizedAxis(x, mean);
  if (!axis)
    return false;
  m.x = x;
  m.axis = *axis;
  m.epsilon = epsilon;
  return true;
}

/// `n` = x * (1 / rms), (1 / rms) * x, x * Reciprocal(rms) or x / rms, of
/// x's type.
bool matchNormalized(Operation *n, NormalizationMatch &m) {
  if (isOp(n, "onnx.Div"))
    return haveSameType(n->getResult(0), n->getOperand(0)) &&
           matchRms(getSingleUseOp(n->getOperand(1), "onnx.Sqrt"),
                    n->getOperand(0), m);
  if (!isOp(n, "onnx.Mul"))
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    Value x = n->getOperand(i), r = n->getOperand(1 - i);
    if (!haveSameType(n->getResult(0), x))
      continue;
    Operation *sqrt = nullptr;
    if (Operation *recip = getSingleUseOp(r, "onnx.Reciprocal")) {
      sqrt = getSingleUseOp(recip->getOperand(0), "onnx.Sqrt");
    } else if (Operation *div = getSingleUseOp(r, "onnx.Div")) {
      std::optional<double> one = getSplatValue(div->getOperand(0));
      if (one && *one == 1.0)
        sqrt = getSingleUseOp(div->getOperand(1), "onnx.Sqrt");
    }
    if (sqrt && matchRms(sqrt, x, m))
      return true;
  }
  return false;
}

/// Matches the RMSNorm ending at `op`: n, or n * gamma (either order).
bool matchRMSNorm(Operation *op, NormalizationMatch &m) {
  if (!isOp(op, "onnx.Mul"))
    return matchNormalized(op, m);
  for (unsigned i = 0; i < 2; ++i) {
    Value inner = op->getOperand(i), param = op->getOperand(1 - i);
    Operation *n = getSingleUseOp(inner, "onnx.Mul");
    if (!n)
      n = getSingleUseOp(inner, "onnx.Div");
    NormalizationMatch candidate;
    if (!n || !matchNormalized(n, candidate))
      continue;
    DenseElementsAttr fitted = fitNormalizedParameter(param, candidate);
    if (!fitted || !haveSameType(op->getResult(0), candidate.x))
      continue;
    candidate.scale = fitted;
    candidate.gamma = param;
    m = candidate;
    return true;
  }
  return matchNormalized(op, m);
}

LogicalResult formRMSNorm(Operation *op, PatternRewriter &rewriter) {
  NormalizationMatch m;
  if (!matchRMSNorm(op, m))
    return failure();
  // Without a scale, an n whose one user completes the RMSNorm waits for it.
  Value result = op->getResult(0);
  if (!m.scale && result.hasOneUse()) {
    NormalizationMatch longer;
    if (matchRMSNorm(result.use_begin()->getOwner(), longer) && longer.scale)
      return failure();
  }

  return replaceWithNormalization(rewriter, op, "onnx.RMSNormalization", m);
}

} // namespace

void addRMSNormPattern(PatternSet &patterns, StringRef rootName) {
  // Above the generic patterns of the root: the whole subgraph is worth more
  // than a local rewrite inside it.
  addPattern(patterns, rootName, formRMSNorm, "form-rms-norm",
             /*benefit=*/2);
}

} // namespace onyx::onnx

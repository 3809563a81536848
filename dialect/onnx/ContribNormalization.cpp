//===- ContribNormalization.cpp - ONNX Runtime's LayerNorm variants -------===//
//
// The normalizations ONNX Runtime defines beside ONNX's (docs/CONTRIB-OPS.md
// has their tables):
//
// - SimplifiedLayerNormalization (ai.onnx domain, ONNX Runtime's): RMSNorm,
//   Y = X / sqrt(mean(X^2) + epsilon) * scale over the dimensions from
//   `axis` on; its optional second result is that 1 / sqrt(...), shaped as
//   X with the normalized dimensions set to 1, of the type `stash_type`
//   names.
// - com.microsoft.SkipLayerNormalization: s = input + skip (+ bias), then
//   LayerNorm of s over the last axis with gamma (and beta); optional results
//   mean and inv_std_var (f32, [..., 1]) and the sum s itself.
// - com.microsoft.SkipSimplifiedLayerNormalization: the same with RMSNorm
//   (no beta; `mean` is the mean of s, which ONNX Runtime does not define
//   for this form).
//
// The skip forms are what a decoder's residual connection plus the next
// norm become in ONNX Runtime GenAI's models: the sum is the residual stream
// carried to the next layer.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Normalization.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

namespace {

/// ONNX Runtime's default epsilon of the skip forms.
constexpr double kSkipEpsilon = 1e-12;

const ValueSpec simplifiedOperands[] = {{"X"}, {"scale"}};
const ValueSpec simplifiedResults[] = {{"Y"},
                                       {"inv_std_var", Presence::Optional}};
const AttrSpec simplifiedAttrs[] = {
    intAttr("axis", -1), floatAttr("epsilon", 1e-5), intAttr("stash_type", 1)};

const ValueSpec skipOperands[] = {{"input"},
                                  {"skip"},
                                  {"gamma"},
                                  {"beta", Presence::Optional},
                                  {"bias", Presence::Optional}};
const ValueSpec skipSimplifiedOperands[] = {
    {"input"}, {"skip"}, {"gamma"}, {"bias", Presence::Optional}};
const ValueSpec skipResults[] = {{"output"},
                                 {"mean", Presence::Optional},
                                 {"inv_std_var", Presence::Optional},
                                 {"input_skip_bias_sum", Presence::Optional}};
const AttrSpec skipAttrs[] = {floatAttr("epsilon", kSkipEpsilon)};

bool isSimplified(Operation *op) {
  return op->getName().getStringRef().contains("Simplified");
}

/// The operand indices of a skip op's beta and bias (-1 if the op has no
/// such operand).
std::pair<int, int> getBetaAndBias(bool simplified) {
  return simplified ? std::pair(-1, 3) : std::pair(3, 4);
}

LogicalResult inferSimplified(InferState &s) {
  return inferNormalizationFromAxis(s, 1);
}

bool sameOrDynamic(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

LogicalResult inferSkip(InferState &s, bool simplified) {
  if (failed(s.checkFloat(0)) ||
      failed(
          s.checkRankIn(0, {2, 3}, "[tokens, hidden] or [batch, seq, hidden]")))
    return failure();
  int64_t rank = s.getRank(0);
  ArrayRef<int64_t> shape = s.getShape(0);
  int64_t hidden = shape.back();
  // skip is input's shape, or broadcasts to it with the same hidden size
  // ([1, seq, hidden] or [seq, hidden]).
  if (failed(s.checkSameElementType(0, 1)))
    return failure();
  ArrayRef<int64_t> skip = s.getShape(1);
  std::optional<SmallVector<int64_t>> b = broadcastShapes(shape, skip);
  bool skipFits = s.getRank(1) >= 2 && s.getRank(1) <= rank && b &&
                  sameOrDynamic(skip.back(), hidden);
  for (size_t i = 0; skipFits && i < b->size(); ++i)
    skipFits = sameOrDynamic((*b)[i], shape[i]);
  if (!skipFits)
    return s.emitOperandError(1)
           << "of type " << s.getType(1) << " does not broadcast to the input "
           << s.getType(0);
  auto [beta, bias] = getBetaAndBias(simplified);
  for (int i : {2, beta, bias}) {
    if (i < 0 || !s.hasOperand(i))
      continue;
    if (failed(s.checkSameElementType(0, i)) || failed(s.checkRank(i, 1)))
      return failure();
    if (!sameOrDynamic(s.getShape(i)[0], hidden))
      return s.emitOperandError(i) << "must have the hidden size " << hidden
                                   << " of the input, got " << s.getType(i);
  }
  Type f32 = getIRType(s.getContext(), ElementType::F32);
  SmallVector<int64_t> statsShape(shape);
  statsShape.back() = 1;
  s.addResult(s.getType(0));
  s.addResult(statsShape, f32);
  s.addResult(statsShape, f32);
  s.addResult(s.getType(0));
  return success();
}

LogicalResult inferSkipLayerNorm(InferState &s) { return inferSkip(s, false); }
LogicalResult inferSkipSimplified(InferState &s) { return inferSkip(s, true); }

LogicalResult evalSimplified(EvalState &s) {
  NormalizedRows rows = normalizeFromAxis(s, /*simplified=*/true, std::nullopt);
  s.addOutput(convertTensor(rows.y, s.input(0).getElementType()));
  s.addOutput(convertTensor(
      rows.invs, *fromOnnxDataType(s.getAttrs().getInt("stash_type"))));
  return success();
}

LogicalResult evalSkip(EvalState &s) {
  bool simplified = isSimplified(s.getOp());
  const Tensor &inputT = s.input(0);
  ArrayRef<int64_t> shape = inputT.getShape();
  int64_t hidden = shape.back();
  int64_t rows = getNumElements(shape.drop_back());
  auto [beta, bias] = getBetaAndBias(simplified);
  // Sizes known only at run time are checked here.
  for (int i : {2, beta, bias})
    if (i >= 0 && s.hasInput(i) && s.input(i).getNumElements() != hidden)
      return s.emitError() << "operand " << i << " has "
                           << s.input(i).getNumElements()
                           << " elements, not the hidden size " << hidden;
  std::optional<SmallVector<int64_t>> b =
      broadcastShapes(shape, s.input(1).getShape());
  if (!b || ArrayRef<int64_t>(*b) != shape)
    return s.emitError() << "skip does not broadcast to the input";
  Tensor sum = convertTensor(inputT, ElementType::F64);
  Tensor skip = convertTensor(broadcastTo(s.input(1), shape), ElementType::F64);
  MutableArrayRef<double> sv = sum.getMutableValues<double>();
  ArrayRef<double> kv = skip.getValues<double>();
  Tensor biasT;
  if (s.hasInput(bias))
    biasT = convertTensor(s.input(bias), ElementType::F64);
  for (int64_t i = 0, e = sv.size(); i < e; ++i) {
    sv[i] += kv[i];
    if (biasT)
      sv[i] += biasT.getValues<double>()[i % hidden];
  }
  Tensor gamma = convertTensor(s.input(2), ElementType::F64);
  Tensor betaT;
  if (beta >= 0 && s.hasInput(beta))
    betaT = convertTensor(s.input(beta), ElementType::F64);
  SmallVector<int64_t> statsShape(shape);
  statsShape.back() = 1;
  Tensor y(ElementType::F64, shape), means(ElementType::F64, statsShape),
      invs(ElementType::F64, statsShape);
  normalizeRows(sv, rows, hidden, gamma.getValues<double>(),
                betaT ? betaT.getValues<double>() : ArrayRef<double>(),
                s.getAttrs().getFloat("epsilon"), simplified,
                y.getMutableValues<double>(), means.getMutableValues<double>(),
                invs.getMutableValues<double>());
  s.addOutput(convertTensor(y, inputT.getElementType()));
  s.addOutput(convertTensor(means, ElementType::F32));
  s.addOutput(convertTensor(invs, ElementType::F32));
  s.addOutput(convertTensor(sum, inputT.getElementType()));
  return success();
}

const OpDef contribNormalizationDefs[] = {
    {{"onnx.SimplifiedLayerNormalization", simplifiedOperands,
      simplifiedResults, simplifiedAttrs, OpTrait::Pure},
     inferSimplified,
     evalSimplified},
    {{"onnx.com.microsoft.SkipLayerNormalization", skipOperands, skipResults,
      skipAttrs, OpTrait::Pure},
     inferSkipLayerNorm,
     evalSkip},
    {{"onnx.com.microsoft.SkipSimplifiedLayerNormalization",
      skipSimplifiedOperands, skipResults, skipAttrs, OpTrait::Pure},
     inferSkipSimplified,
     evalSkip},
};

} // namespace

void appendContribNormalizationOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : contribNormalizationDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

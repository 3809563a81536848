//===- LayerNormPattern.cpp - Forming onnx.LayerNormalization -------------===//
//
// PyTorch exports LayerNorm (before opset 17) as
//   mean = ReduceMean(x, axes)    d = x - mean
//   var = ReduceMean(Pow(d, 2), axes)    n = d / Sqrt(var + eps)
//   y = n * gamma + beta
// with the axes the trailing dimensions, keepdims, gamma and beta constants
// and either of them possibly absent. The pattern is rooted on the last op
// (the Add, else the Mul, else the Div); a Div or Mul whose one user would
// itself form the whole LayerNorm is left to that user. Operands of Add and
// Mul are matched in either order. Every intermediate value must have no
// other use (d has exactly two, Pow and Div), so the subgraph disappears.
//
// LayerNormalization is defined by this same computation (mean, mean of
// the squared deviation, division by sqrt(var + eps), then scale and bias),
// so the rewrite is exact up to rounding order: the kernels divide by
// multiplying with 1 / sqrt(var + eps) and may accumulate in another order
// or a wider type. stash_type is set to x's type, since that is the
// precision the decomposed statistics are computed in.
//
// The helpers RMSNormPattern.cpp shares (ElementwisePatterns.h: the mean
// plus epsilon, the normalized axis, fitting a constant scale or bias,
// replacing the root with the normalization op) live here.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ElementwisePatterns.h"
#include "dialect/onnx/OpSchema.h"
#include "dialect/onnx/Tensor.h"

#include "ir/Operation.h"

#include "llvm/ADT/STLExtras.h"

namespace onyx::onnx {

/// The op defining `value` if it is `name` and `value` has no other use.
Operation *getSingleUseOp(Value value, StringRef name) {
  Operation *op = getDefiningOp(value, name);
  return op && value.hasOneUse() ? op : nullptr;
}

/// The first reduced axis, counted from the end, of a ReduceMean that keeps
/// its dimensions and reduces a nonempty run of trailing dimensions of its
/// rank-`rank` operand; nullopt for any other ReduceMean.
std::optional<int64_t> getTrailingReduceAxis(Operation *reduce, int64_t rank) {
  OpAttrs attrs(reduce);
  if (attrs.getInt("keepdims") != 1)
    return std::nullopt;
  SmallVector<int64_t> axes;
  if (reduce->getNumOperands() > 1 && !isNoValue(reduce->getOperand(1))) {
    std::optional<SmallVector<int64_t>> values =
        getConstantInts(reduce->getOperand(1));
    if (!values)
      return std::nullopt;
    axes = std::move(*values);
  }
  // No axes reduce every dimension, unless noop_with_empty_axes.
  if (axes.empty()) {
    if (attrs.getInt("noop_with_empty_axes") || rank == 0)
      return std::nullopt;
    return -rank;
  }
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank)
      return std::nullopt;
    normalized.push_back(axis < 0 ? axis + rank : axis);
  }
  llvm::sort(normalized);
  // Distinct, contiguous and ending at the last dimension.
  for (size_t i = 0; i < normalized.size(); ++i)
    if (normalized[i] != rank - int64_t(normalized.size() - i))
      return std::nullopt;
  return -int64_t(normalized.size());
}

Operation *matchMeanPlusEpsilon(Operation *sqrt, double &epsilon) {
  Operation *addEps = getSingleUseOp(sqrt->getOperand(0), "onnx.Add");
  if (!addEps)
    return nullptr;
  Operation *mean = nullptr;
  std::optional<double> value;
  for (unsigned i = 0; i < 2 && !mean; ++i) {
    value = getSplatValue(addEps->getOperand(1 - i));
    if (value)
      mean = getSingleUseOp(addEps->getOperand(i), "onnx.ReduceMean");
  }
  // The epsilon attribute is an f32: an f64 epsilon must fit it exactly.
  if (!mean || !haveSameType(addEps->getResult(0), mean->getResult(0)) ||
      double(float(*value)) != *value)
    return nullptr;
  epsilon = *value;
  return mean;
}

std::optional<int64_t> getNormalizedAxis(Value x, Operation *mean) {
  auto type = dyn_cast<RankedTensorType>(x.getType());
  std::optional<ElementType> et =
      type ? getElementType(type.getElementType()) : std::nullopt;
  if (!et || (*et != ElementType::F16 && *et != ElementType::F32 &&
              *et != ElementType::F64))
    return std::nullopt;
  std::optional<int64_t> axis = getTrailingReduceAxis(mean, type.getRank());
  if (!axis ||
      llvm::any_of(type.getShape().take_back(-*axis), ShapedType::isDynamic))
    return std::nullopt;
  return axis;
}

DenseElementsAttr fitNormalizedParameter(Value param,
                                         const NormalizationMatch &m) {
  DenseElementsAttr attr = getConstantValue(param);
  auto xType = cast<RankedTensorType>(m.x.getType());
  if (!attr || attr.getElementType() != xType.getElementType())
    return nullptr;
  ArrayRef<int64_t> normalized = xType.getShape().take_back(-m.axis);
  ArrayRef<int64_t> shape = attr.getType().getShape();
  while (shape.size() > normalized.size() && shape.front() == 1)
    shape = shape.drop_front();
  std::optional<SmallVector<int64_t>> b = broadcastShapes(normalized, shape);
  if (!b || ArrayRef<int64_t>(*b) != normalized)
    return nullptr;
  if (shape.size() == size_t(attr.getType().getRank()))
    return attr;
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get(shape, xType.getElementType()), attr.getRawData());
}

/// `attr` as a value: the constant `original` if it has that type already.
static Value materialize(PatternRewriter &rewriter, Location loc,
                         DenseElementsAttr attr, Value original) {
  if (original && original.getType() == attr.getType())
    return original;
  return createConstant(rewriter, loc, attr);
}

LogicalResult replaceWithNormalization(PatternRewriter &rewriter, Operation *op,
                                       StringRef name,
                                       const NormalizationMatch &m) {
  Context *ctx = rewriter.getContext();
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto xType = cast<RankedTensorType>(m.x.getType());
  Type et = xType.getElementType();
  // Without gamma the scale is one: n * 1 is n exactly.
  Value scale;
  if (m.scale) {
    scale = materialize(rewriter, loc, m.scale, m.gamma);
  } else {
    auto onesType =
        RankedTensorType::get(xType.getShape().take_back(-m.axis), et);
    llvm::APFloat one(1.0);
    bool losesInfo;
    one.convert(cast<FloatType>(et).getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    scale =
        createConstant(rewriter, loc, DenseElementsAttr::get(onesType, one));
  }
  SmallVector<Value, 3> operands = {m.x, scale};
  if (m.bias)
    operands.push_back(materialize(rewriter, loc, m.bias, m.beta));
  int64_t stashType = getOnnxDataType(*getElementType(et));
  NamedAttribute attrs[] = {
      {StringAttr::get(ctx, "axis"), getIntAttr(ctx, m.axis)},
      {StringAttr::get(ctx, "epsilon"), getFloatAttr(ctx, m.epsilon)},
      {StringAttr::get(ctx, "stash_type"), getIntAttr(ctx, stashType)}};
  Operation *normalization =
      createOpOrNull(rewriter, loc, name, operands, attrs, 1);
  assert(normalization &&
         haveSameType(normalization->getResult(0), op->getResult(0)) &&
         "the match checked every operand the normalization infers from");
  rewriter.replaceOp(op, normalization);
  return success();
}

namespace {

/// `div` = d / Sqrt(ReduceMean(Pow(d, 2)) + eps), d = x - ReduceMean(x),
/// both means over the same trailing axes; fills x, axis and epsilon.
bool matchNormalization(Operation *div, NormalizationMatch &m) {
  Value d = div->getOperand(0);
  Operation *sub = getDefiningOp(d, "onnx.Sub");
  Operation *sqrt = getSingleUseOp(div->getOperand(1), "onnx.Sqrt");
  if (!sub || !sqrt || !haveSameType(div->getResult(0), d))
    return false;
  double epsilon;
  Operation *varMean = matchMeanPlusEpsilon(sqrt, epsilon);
  if (!varMean)
    return false;
  Operation *pow = getSingleUseOp(varMean->getOperand(0), "onnx.Pow");
  std::optional<double> exponent =
      pow ? getSplatValue(pow->getOperand(1)) : std::nullopt;
  if (!exponent || *exponent != 2.0 || pow->getOperand(0) != d ||
      !haveSameType(pow->getResult(0), d))
    return false;
  // d's only uses are Pow's and Div's first operands, checked above.
  if (llvm::range_size(d.getUses()) != 2)
    return false;
  Value x = sub->getOperand(0);
  Operation *mean = getSingleUseOp(sub->getOperand(1), "onnx.ReduceMean");
  if (!mean || mean->getOperand(0) != x || !haveSameType(d, x))
    return false;
  std::optional<int64_t> axis = getNormalizedAxis(x, mean);
  if (!axis ||
      axis != getTrailingReduceAxis(
                  varMean, cast<RankedTensorType>(x.getType()).getRank()))
    return false;
  m.x = x;
  m.axis = *axis;
  m.epsilon = epsilon;
  return true;
}

/// Matches the normalization ending at `op`: n (a Div), n * gamma, n + beta
/// or n * gamma + beta, each of x's type.
bool matchLayerNorm(Operation *op, NormalizationMatch &m) {
  if (isOp(op, "onnx.Div"))
    return matchNormalization(op, m);
  bool isMul = isOp(op, "onnx.Mul");
  if (!isMul && !isOp(op, "onnx.Add"))
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    Value inner = op->getOperand(i), param = op->getOperand(1 - i);
    Operation *div = getSingleUseOp(inner, "onnx.Div");
    Operation *mul = isMul ? nullptr : getSingleUseOp(inner, "onnx.Mul");
    if (!div && !mul)
      continue;
    NormalizationMatch candidate;
    if (!matchLayerNorm(div ? div : mul, candidate))
      continue;
    // The parameter must not broadcast x to a larger shape.
    DenseElementsAttr fitted = fitNormalizedParameter(param, candidate);
    if (!fitted || !haveSameType(op->getResult(0), candidate.x))
      continue;
    (isMul ? candidate.scale : candidate.bias) = fitted;
    (isMul ? candidate.gamma : candidate.beta) = param;
    m = candidate;
    return true;
  }
  return false;
}

LogicalResult formLayerNorm(Operation *op, PatternRewriter &rewriter) {
  NormalizationMatch m;
  if (!matchLayerNorm(op, m))
    return failure();
  // A Div or Mul whose one user completes the LayerNorm waits for it.
  Value result = op->getResult(0);
  if (!isOp(op, "onnx.Add") && result.hasOneUse()) {
    NormalizationMatch longer;
    if (matchLayerNorm(result.use_begin()->getOwner(), longer))
      return failure();
  }

  return replaceWithNormalization(rewriter, op, "onnx.LayerNormalization", m);
}

} // namespace

void addLayerNormPattern(PatternSet &patterns, StringRef rootName) {
  // Above the generic patterns of the root: the whole subgraph is worth more
  // than a local rewrite inside it.
  addPattern(patterns, rootName, formLayerNorm, "form-layer-norm",
             /*benefit=*/2);
}

} // namespace onyx::onnx

//===- GeluPattern.cpp - Forming onnx.Gelu from its decomposed forms ------===//
//
// PyTorch exports GELU (before opset 20) as a subgraph ending in a product
// of three factors, x, 0.5 and (1 + inner), in some association order:
//   erf form:  inner = Erf(x / sqrt(2))            (or x * (1 / sqrt(2)))
//   tanh form: inner = Tanh(sqrt(2/pi) * (x + 0.044715 * x^3))
// with x^3 as Pow(x, 3) or x * (x * x). Operands of commutative ops are
// matched in either order, since canonicalization moves constants to the
// right. Every intermediate value must have no other use, so that the
// subgraph disappears once the final Mul is replaced.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/ElementwisePatterns.h"

#include "ir/Operation.h"

#include <cmath>
#include <numbers>

namespace onyx::onnx {

namespace {

bool isNear(Value value, double expected) {
  std::optional<double> v = getSplatValue(value);
  return v && std::fabs(*v - expected) <= 1e-3 * std::fabs(expected);
}

/// Matches a commutative binary op `name` defining `value` whose operands
/// satisfy `first` and `second` in some order.
template <typename F1, typename F2>
bool matchCommutative(Value value, StringRef name, F1 first, F2 second) {
  Operation *op = getSingleUseOp(value, name);
  if (!op)
    return false;
  Value a = op->getOperand(0), b = op->getOperand(1);
  return (first(a) && second(b)) || (first(b) && second(a));
}

/// x^3 as Pow(x, 3), x * (x * x) or (x * x) * x.
bool isCube(Value value, Value x) {
  if (Operation *pow = getSingleUseOp(value, "onnx.Pow"))
    return pow->getOperand(0) == x && isNear(pow->getOperand(1), 3.0);
  auto isX = [&](Value v) { return v == x; };
  auto isSquare = [&](Value v) {
    return matchCommutative(v, "onnx.Mul", isX, isX);
  };
  return matchCommutative(value, "onnx.Mul", isX, isSquare);
}

/// Erf(x / sqrt(2)) or Erf(x * (1 / sqrt(2))).
bool isErfInner(Value value, Value x) {
  Operation *erf = getSingleUseOp(value, "onnx.Erf");
  if (!erf)
    return false;
  Value arg = erf->getOperand(0);
  if (Operation *div = getSingleUseOp(arg, "onnx.Div"))
    return div->getOperand(0) == x &&
           isNear(div->getOperand(1), std::numbers::sqrt2);
  return matchCommutative(
      arg, "onnx.Mul", [&](Value v) { return v == x; },
      [](Value v) { return isNear(v, 1 / std::numbers::sqrt2); });
}

/// Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)).
bool isTanhInner(Value value, Value x) {
  Operation *tanh = getSingleUseOp(value, "onnx.Tanh");
  if (!tanh)
    return false;
  auto isScaledCube = [&](Value v) {
    return matchCommutative(
        v, "onnx.Mul", [&](Value c) { return isCube(c, x); },
        [](Value c) { return isNear(c, 0.044715); });
  };
  auto isPolynomial = [&](Value v) {
    return matchCommutative(
        v, "onnx.Add", [&](Value a) { return a == x; }, isScaledCube);
  };
  return matchCommutative(
      tanh->getOperand(0), "onnx.Mul", isPolynomial,
      [](Value c) { return isNear(c, std::sqrt(2 / std::numbers::pi)); });
}

enum class GeluForm { None, Erf, Tanh };

/// `value` = 1 + inner(x), with inner one of the two forms.
GeluForm matchOnePlusInner(Value value, Value x) {
  GeluForm form = GeluForm::None;
  auto isOne = [](Value v) {
    std::optional<double> c = getSplatValue(v);
    return c && *c == 1.0;
  };
  auto isInner = [&](Value v) {
    if (isErfInner(v, x))
      form = GeluForm::Erf;
    else if (isTanhInner(v, x))
      form = GeluForm::Tanh;
    return form != GeluForm::None;
  };
  if (!matchCommutative(value, "onnx.Add", isInner, isOne))
    return GeluForm::None;
  return form;
}

/// Matches factors {x, 0.5, 1 + inner(x)} in any order.
GeluForm matchFactors(Value (&factors)[3], Value &x) {
  for (unsigned half = 0; half < 3; ++half) {
    std::optional<double> c = getSplatValue(factors[half]);
    if (!c || *c != 0.5)
      continue;
    Value p = factors[(half + 1) % 3], q = factors[(half + 2) % 3];
    for (auto [candidate, rest] : {std::pair(p, q), std::pair(q, p)}) {
      GeluForm form = matchOnePlusInner(rest, candidate);
      if (form != GeluForm::None) {
        x = candidate;
        return form;
      }
    }
  }
  return GeluForm::None;
}

LogicalResult formGelu(Operation *op, PatternRewriter &rewriter) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !isa<FloatType>(type.getElementType()))
    return failure();
  for (unsigned nested = 0; nested < 2; ++nested) {
    Operation *inner = getSingleUseOp(op->getOperand(nested), "onnx.Mul");
    if (!inner)
      continue;
    Value factors[3] = {inner->getOperand(0), inner->getOperand(1),
                        op->getOperand(1 - nested)};
    Value x;
    GeluForm form = matchFactors(factors, x);
    // The Gelu must produce the root's type: x was not broadcast.
    if (form == GeluForm::None || !haveSameType(x, op->getResult(0)))
      continue;
    SmallVector<NamedAttribute, 1> attrs;
    if (form == GeluForm::Tanh)
      attrs.push_back({StringAttr::get(rewriter.getContext(), "approximate"),
                       StringAttr::get(rewriter.getContext(), "tanh")});
    return replaceWithNewOp(rewriter, op, "onnx.Gelu", {x}, attrs);
  }
  return failure();
}

} // namespace

void addGeluPatterns(PatternSet &patterns, Context *) {
  // Above the generic Mul patterns: the whole subgraph is worth more than a
  // local rewrite inside it.
  addPattern(patterns, "onnx.Mul", formGelu, "form-gelu", /*benefit=*/2);
}

} // namespace onyx::onnx

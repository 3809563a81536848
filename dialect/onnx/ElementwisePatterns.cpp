//===- ElementwisePatterns.cpp - Folds and patterns of elementwise ops ----===//

#include "dialect/onnx/ElementwisePatterns.h"

#include "ir/Operation.h"

#include <limits>

namespace onyx::onnx {

/// `op`'s operand `i` if the result has its type (the other operand did not
/// broadcast it to a larger shape).
static OpFoldResult forwardOperand(Operation *op, unsigned i) {
  Value operand = op->getOperand(i);
  if (!haveSameType(operand, op->getResult(0)))
    return {};
  return operand;
}

OpFoldResult foldAdd(Operation *op, ArrayRef<Attribute> constants) {
  // x + -0.0 is x for every x, including +0.0 and NaN; x + 0.0 is not
  // (-0.0 + 0.0 is +0.0). For integers -0.0 reads as 0.
  if (isSplatOf(constants[1], -0.0))
    return forwardOperand(op, 0);
  if (isSplatOf(constants[0], -0.0))
    return forwardOperand(op, 1);
  return {};
}

OpFoldResult foldSub(Operation *op, ArrayRef<Attribute> constants) {
  if (isSplatOf(constants[1], 0.0))
    return forwardOperand(op, 0);
  return {};
}

OpFoldResult foldMul(Operation *op, ArrayRef<Attribute> constants) {
  if (isSplatOf(constants[1], 1.0))
    return forwardOperand(op, 0);
  if (isSplatOf(constants[0], 1.0))
    return forwardOperand(op, 1);
  return {};
}

OpFoldResult foldDiv(Operation *op, ArrayRef<Attribute> constants) {
  if (isSplatOf(constants[1], 1.0))
    return forwardOperand(op, 0);
  return {};
}

OpFoldResult foldNeg(Operation *op, ArrayRef<Attribute>) {
  Operation *inner = getDefiningOp(op->getOperand(0), "onnx.Neg");
  if (!inner || !haveSameType(inner->getOperand(0), op->getResult(0)))
    return {};
  return inner->getOperand(0);
}

OpFoldResult foldIdempotent(Operation *op, ArrayRef<Attribute>) {
  // max(x, x) and min(x, x) are x for every x, NaN and signed zeros included.
  Value first = op->getOperand(0);
  for (unsigned i = 1, e = op->getNumOperands(); i < e; ++i)
    if (op->getOperand(i) != first)
      return {};
  return forwardOperand(op, 0);
}

/// max(x, -inf) and min(x, +inf) are x for every float x: NaN propagates
/// through both ops and signed zeros compare below infinity.
static OpFoldResult foldInfinity(Operation *op, ArrayRef<Attribute> constants,
                                 double infinity) {
  if (OpFoldResult same = foldIdempotent(op, constants); same.value)
    return same;
  auto type = dyn_cast<ShapedType>(op->getResult(0).getType());
  if (op->getNumOperands() != 2 || !type ||
      !isa<FloatType>(type.getElementType()))
    return {};
  if (isSplatOf(constants[1], infinity))
    return forwardOperand(op, 0);
  if (isSplatOf(constants[0], infinity))
    return forwardOperand(op, 1);
  return {};
}

OpFoldResult foldMax(Operation *op, ArrayRef<Attribute> constants) {
  return foldInfinity(op, constants, -std::numeric_limits<double>::infinity());
}

OpFoldResult foldMin(Operation *op, ArrayRef<Attribute> constants) {
  return foldInfinity(op, constants, std::numeric_limits<double>::infinity());
}

OpFoldResult foldIdentity(Operation *op, ArrayRef<Attribute>) {
  return forwardOperand(op, 0);
}

LogicalResult moveConstantRight(Operation *op, PatternRewriter &rewriter) {
  if (op->getNumOperands() != 2 || !getConstantValue(op->getOperand(0)) ||
      getConstantValue(op->getOperand(1)))
    return failure();
  rewriter.modifyOpInPlace(op, [&] {
    Value lhs = op->getOperand(0);
    op->setOperand(0, op->getOperand(1));
    op->setOperand(1, lhs);
  });
  return success();
}

/// (-a) * (-b) -> a * b and (-a) / (-b) -> a / b: exact in IEEE arithmetic
/// (the two sign flips cancel) and in wrapping integer arithmetic.
static LogicalResult cancelNegations(Operation *op, PatternRewriter &rewriter) {
  Operation *lhs = getDefiningOp(op->getOperand(0), "onnx.Neg");
  Operation *rhs = getDefiningOp(op->getOperand(1), "onnx.Neg");
  if (!lhs || !rhs)
    return failure();
  return replaceWithNewOp(rewriter, op, op->getName().getStringRef(),
                          {lhs->getOperand(0), rhs->getOperand(0)});
}

void addAddPatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Add", moveConstantRight, "constant-to-right");
  addLayerNormPattern(patterns, "onnx.Add");
  addRotaryPattern(patterns, "onnx.Add");
}

void addMulPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, "onnx.Mul", moveConstantRight, "constant-to-right");
  addPattern(patterns, "onnx.Mul", cancelNegations, "cancel-negations");
  addGeluPatterns(patterns, ctx);
  addLayerNormPattern(patterns, "onnx.Mul");
  addRMSNormPattern(patterns, "onnx.Mul");
}

/// max(x, +0.0) -> relu(x), for floats and signed integers: Relu is Max
/// with +0.0 (IEEE maximum: NaN stays NaN, -0.0 becomes +0.0). Not with
/// -0.0 (max(-0.0, -0.0) is -0.0, relu(-0.0) +0.0), nor where the constant
/// broadcasts x (replaceWithNewOp then refuses the type).
static LogicalResult maxOfZeroToRelu(Operation *op, PatternRewriter &rewriter) {
  if (op->getNumOperands() != 2)
    return failure();
  for (unsigned i = 0; i < 2; ++i)
    if (isSplatOf(getConstantValue(op->getOperand(1 - i)), 0.0) &&
        succeeded(
            replaceWithNewOp(rewriter, op, "onnx.Relu", {op->getOperand(i)})))
      return success();
  return failure();
}

void addMaxPatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Max", moveConstantRight, "constant-to-right");
  addPattern(patterns, "onnx.Max", maxOfZeroToRelu, "max-zero-to-relu");
}

void addDivPatterns(PatternSet &patterns, Context *) {
  addPattern(patterns, "onnx.Div", cancelNegations, "cancel-negations");
  addLayerNormPattern(patterns, "onnx.Div");
  addRMSNormPattern(patterns, "onnx.Div");
}

} // namespace onyx::onnx

//===- Cast.cpp - onnx.Cast: element type conversion ----------------------===//
//
// `to` is a TypeAttr holding the target element type, as onnx-mlir writes
// it (`to = f32`). Conversions follow convertElement (Tensor.h): floats to
// integers truncate and saturate, narrowing floats round to nearest even.
// `saturate` only concerns float8 types, which onyx does not support; it is
// accepted so that imported attributes verify.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec castOperands[] = {{"input"}};
const ValueSpec castResults[] = {{"output"}};
const AttrSpec castAttrs[] = {requiredAttr("to", AttrType::Type),
                              intAttr("saturate", 1)};

LogicalResult inferCast(InferState &s) {
  Type to = s.getAttrs().getType("to");
  if (!getElementType(to))
    return s.emitAttrError("to")
           << "must be a supported element type, got " << to;
  s.addResult(s.getShape(0), to);
  return success();
}

LogicalResult evalCast(EvalState &s) {
  std::optional<ElementType> to = s.getResultElementType(0);
  if (!to)
    return s.emitError() << "has an unsupported result type";
  s.addOutput(convertTensor(s.input(0), *to));
  return success();
}

/// A cast to the operand's own type does nothing.
OpFoldResult foldCast(Operation *op, ArrayRef<Attribute>) {
  Value input = op->getOperand(0);
  if (!haveSameType(input, op->getResult(0)))
    return {};
  return input;
}

/// A Cast between integer types of a partially known shape computation
/// keeps the values that the target type holds.
std::optional<KnownInts> knownIntsOfCast(Operation *op, unsigned depth) {
  std::optional<KnownInts> known = getKnownInts(op->getOperand(0), depth);
  auto type = cast<ShapedType>(op->getResult(0).getType());
  std::optional<ElementType> to = getElementType(type.getElementType());
  if (!known || !to || !(isSignedInteger(*to) || isUnsignedInteger(*to)))
    return std::nullopt;
  for (std::optional<int64_t> &v : *known) {
    if (!v)
      continue;
    Tensor t = Tensor::fromInts(*to, {}, {*v});
    if (t.getInt(0) != *v)
      v.reset();
  }
  return known;
}

const OpDef castDef = {
    .schema = {"onnx.Cast", castOperands, castResults, castAttrs,
               OpTrait::Pure},
    .infer = inferCast,
    .evaluate = evalCast,
    .fold = foldCast,
    .knownInts = knownIntsOfCast,
};

} // namespace

void appendCastOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&castDef);
}

} // namespace onyx::onnx

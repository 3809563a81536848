//===- Where.cpp - onnx.Where: elementwise selection ----------------------===//
//
// Selects from X where the condition holds and from Y elsewhere, with
// numpy broadcasting of all three operands.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec whereOperands[] = {{"condition"}, {"X"}, {"Y"}};
const ValueSpec whereResults[] = {{"output"}};

LogicalResult inferWhere(InferState &s) {
  if (s.getElementKind(0) != ElementType::Bool)
    return s.emitOperandError(0)
           << "must have element type i1, got " << s.getElementType(0);
  if (failed(s.checkSameElementType(1, 2)))
    return failure();
  SmallVector<int64_t> shape(s.getShape(0));
  for (unsigned i = 1; i < 3; ++i) {
    std::optional<SmallVector<int64_t>> b =
        broadcastShapes(shape, s.getShape(i));
    if (!b)
      return s.emitError() << "operands are not broadcast-compatible: "
                           << s.getType(0) << ", " << s.getType(1) << " and "
                           << s.getType(2);
    shape = *b;
  }
  s.addResult(shape, s.getElementType(1));
  return success();
}

LogicalResult evalWhere(EvalState &s) {
  const Tensor &cond = s.input(0), &x = s.input(1), &y = s.input(2);
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes(cond.getShape(), x.getShape());
  if (shape)
    shape = broadcastShapes(*shape, y.getShape());
  if (!shape)
    return s.emitError() << "operands are not broadcast-compatible";
  Tensor out(x.getElementType(), *shape);
  size_t size = getByteSize(x.getElementType());
  ArrayRef<bool> c = cond.getValues<bool>();
  const char *xs = x.getBytes().data(), *ys = y.getBytes().data();
  char *o = out.getMutableBytes().data();
  BroadcastIterator it(*shape, {cond.getShape(), x.getShape(), y.getShape()});
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i, it.next()) {
    const char *src =
        c[it.offset(0)] ? xs + it.offset(1) * size : ys + it.offset(2) * size;
    std::memcpy(o + i * size, src, size);
  }
  s.addOutput(std::move(out));
  return success();
}

const OpDef whereDef = {
    {"onnx.Where", whereOperands, whereResults, {}, OpTrait::Pure},
    inferWhere,
    evalWhere,
};

} // namespace

void appendWhereOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&whereDef);
}

} // namespace onyx::onnx

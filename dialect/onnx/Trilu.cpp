//===- Trilu.cpp - onnx.Trilu: triangular part of matrices ----------------===//
//
// Keeps the upper (upper = 1) or lower triangle of the last two dimensions,
// shifted by the diagonal offset k (an optional scalar operand), and zeroes
// the rest: upper keeps column - row >= k, lower keeps column - row <= k.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec triluOperands[] = {{"input"}, {"k", Presence::Optional}};
const ValueSpec triluResults[] = {{"output"}};
const AttrSpec triluAttrs[] = {intAttr("upper", 1)};

LogicalResult inferTrilu(InferState &s) {
  if (failed(s.checkMinRank(0, 2)))
    return failure();
  if (s.hasOperand(1) && (s.getElementKind(1) != ElementType::I64 ||
                          s.getType(1).getNumElements() != 1))
    return s.emitOperandError(1)
           << "must be an i64 scalar, got " << s.getType(1);
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalTrilu(EvalState &s) {
  const Tensor &in = s.input(0);
  int64_t k = s.hasInput(1) ? s.input(1).getInt(0) : 0;
  bool upper = s.getAttrs().getInt("upper");
  ArrayRef<int64_t> shape = in.getShape();
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  size_t size = getByteSize(in.getElementType());
  Tensor out(in.getElementType(), shape);
  const char *src = in.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t i = 0, e = in.getNumElements(); i < e; ++i) {
    int64_t col = i % cols, row = (i / cols) % rows;
    bool keep = upper ? col - row >= k : col - row <= k;
    if (keep)
      std::memcpy(dst + i * size, src + i * size, size);
  }
  s.addOutput(std::move(out));
  return success();
}

const OpDef triluDef = {
    {"onnx.Trilu", triluOperands, triluResults, triluAttrs, OpTrait::Pure},
    inferTrilu,
    evalTrilu,
};

} // namespace

void appendTriluOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&triluDef);
}

} // namespace onyx::onnx

//===- OneHot.cpp - onnx.OneHot -------------------------------------------===//
//
// OneHot(indices, depth, values) inserts an axis of `depth` positions at
// `axis` (default -1: last): position i is values[1] where the index is i
// and values[0] elsewhere. Negative indices count from depth (-1 is the
// last position); indices outside [-depth, depth) give no on value. depth
// is a one-element tensor of any numeric type (floats are truncated, as
// ONNX Runtime does) that may be known only at run time: the new axis is
// then `?`.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

namespace {

const ValueSpec oneHotOperands[] = {{"indices"}, {"depth"}, {"values"}};
const ValueSpec oneHotResults[] = {{"output"}};
const AttrSpec oneHotAttrs[] = {intAttr("axis", -1)};

/// The depth of a one-element tensor.
std::optional<int64_t> getDepth(const Tensor &t) {
  if (t.getNumElements() != 1)
    return std::nullopt;
  Tensor d = convertTensor(t, ElementType::F64);
  return int64_t(std::trunc(d.getValues<double>()[0]));
}

LogicalResult inferOneHot(InferState &s) {
  if (failed(s.checkNumeric(0)) || failed(s.checkNumeric(1)))
    return failure();
  if (s.getRank(1) > 1 || getNumElements(s.getShape(1)) > 1)
    return s.emitOperandError(1)
           << "must be a scalar (or one element), got " << s.getType(1);
  if (failed(s.checkRank(2, 1)))
    return failure();
  int64_t n = s.getShape(2)[0];
  if (!ShapedType::isDynamic(n) && n != 2)
    return s.emitOperandError(2)
           << "must have 2 elements (off and on values), got " << n;
  int64_t rank = s.getRank(0) + 1, axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, rank, "axis")))
    return failure();
  int64_t depth = ShapedType::kDynamic;
  if (DenseElementsAttr c = s.getConstant(1)) {
    std::optional<int64_t> d = getDepth(*Tensor::fromAttr(c));
    if (d && *d < 1)
      return s.emitOperandError(1) << "must be positive, got " << *d;
    if (d)
      depth = *d;
  }
  SmallVector<int64_t> shape(s.getShape(0));
  shape.insert(shape.begin() + axis, depth);
  s.addResult(shape, s.getElementType(2));
  return success();
}

LogicalResult evalOneHot(EvalState &s) {
  const Tensor &indices = s.input(0), &values = s.input(2);
  std::optional<int64_t> depth = getDepth(s.input(1));
  if (!depth || *depth < 1)
    return s.emitError() << "operand 'depth' must be one positive value";
  ArrayRef<int64_t> is = indices.getShape();
  int64_t rank = is.size() + 1, axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(is);
  shape.insert(shape.begin() + axis, *depth);
  if (failed(s.checkResultSize(0, shape, values.getElementType())))
    return failure();
  int64_t outer = getNumElements(is.take_front(axis));
  int64_t inner = getNumElements(is.drop_front(axis));
  Tensor idx = convertTensor(indices, ElementType::F64);
  ArrayRef<double> iv = idx.getValues<double>();
  Tensor out(values.getElementType(), shape);
  size_t bytes = getByteSize(values.getElementType());
  const char *off = values.getBytes().data(), *on = off + bytes;
  char *o = out.getMutableBytes().data();
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t k = 0; k < *depth; ++k)
      for (int64_t b = 0; b < inner; ++b, o += bytes) {
        int64_t index = int64_t(std::trunc(iv[a * inner + b]));
        if (index < 0)
          index += *depth;
        std::copy_n(index == k ? on : off, bytes, o);
      }
  s.addOutput(std::move(out));
  return success();
}

const OpDef oneHotDef = {
    {"onnx.OneHot", oneHotOperands, oneHotResults, oneHotAttrs, OpTrait::Pure},
    inferOneHot,
    evalOneHot,
};

} // namespace

void appendOneHotOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&oneHotDef);
}

} // namespace onyx::onnx

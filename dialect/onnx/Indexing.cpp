//===- Indexing.cpp - onnx.Gather and onnx.ScatterND ----------------------===//
//
// Gather picks entries of `data` along `axis` by (possibly negative)
// indices; ScatterND writes slices of `updates` into a copy of `data` at the
// index tuples in the last dimension of `indices`, replacing or combining
// (add, mul, max, min) as `reduction` says. Indices out of range are
// reported by the evaluator, never read.
//
// Gather of the Shape of a tensor whose picked dimensions are static folds
// to a constant even when other dimensions are dynamic.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

const ValueSpec gatherOperands[] = {{"data"}, {"indices"}};
const ValueSpec gatherResults[] = {{"output"}};
const AttrSpec gatherAttrs[] = {intAttr("axis", 0)};

SmallVector<int64_t> getGatherShape(ArrayRef<int64_t> data,
                                    ArrayRef<int64_t> indices, int64_t axis) {
  SmallVector<int64_t> shape(data.take_front(axis));
  shape.append(indices.begin(), indices.end());
  shape.append(data.begin() + axis + 1, data.end());
  return shape;
}

LogicalResult checkIndices(InferState &s, unsigned i) {
  ElementType t = s.getElementKind(i);
  if (t != ElementType::I64 && t != ElementType::I32)
    return s.emitOperandError(i)
           << "must have element type i32 or i64, got " << s.getElementType(i);
  return success();
}

LogicalResult inferGather(InferState &s) {
  if (failed(checkIndices(s, 1)))
    return failure();
  int64_t axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
    return failure();
  s.addResult(getGatherShape(s.getShape(0), s.getShape(1), axis),
              s.getElementType(0));
  return success();
}

LogicalResult evalGather(EvalState &s) {
  const Tensor &data = s.input(0);
  SmallVector<int64_t> indices = s.input(1).toInts();
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += data.getRank();
  int64_t dim = data.getShape()[axis];
  Tensor out(data.getElementType(),
             getGatherShape(data.getShape(), s.input(1).getShape(), axis));
  size_t size = getByteSize(data.getElementType());
  int64_t outer = getNumElements(data.getShape().take_front(axis));
  int64_t inner = getNumElements(data.getShape().drop_front(axis + 1)) * size;
  const char *src = data.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : indices) {
      if (index < -dim || index >= dim)
        return s.emitError()
               << "index " << index
               << " is out of range for a dimension of size " << dim;
      if (index < 0)
        index += dim;
      std::memcpy(dst, src + (o * dim + index) * inner, inner);
      dst += inner;
    }
  }
  s.addOutput(std::move(out));
  return success();
}

/// Gather(Shape(x), constant indices) where the picked sizes are static.
OpFoldResult foldGather(Operation *op, ArrayRef<Attribute> constants) {
  Operation *shapeOp = getDefiningOp(op->getOperand(0), "onnx.Shape");
  auto indices = dyn_cast_or_null<DenseElementsAttr>(constants[1]);
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!shapeOp || !indices || !resultType || !resultType.hasStaticShape())
    return {};
  auto type = dyn_cast<RankedTensorType>(shapeOp->getOperand(0).getType());
  if (!type)
    return {};
  OpAttrs shapeAttrs(shapeOp);
  int64_t rank = type.getRank();
  int64_t start = shapeAttrs.getInt("start");
  if (start < 0)
    start = std::max<int64_t>(0, start + rank);
  start = std::min(start, rank);
  int64_t count =
      cast<ShapedType>(shapeOp->getResult(0).getType()).getShape()[0];
  SmallVector<int64_t> dims;
  // Kept in a local: a range-for over `*temporary` would read a destroyed
  // optional.
  auto indexValues = getConstantInts(op->getOperand(1));
  for (int64_t index : *indexValues) {
    if (index < -count || index >= count)
      return {};
    int64_t d = type.getShape()[start + (index < 0 ? index + count : index)];
    if (ShapedType::isDynamic(d))
      return {};
    dims.push_back(d);
  }
  return Attribute(
      Tensor::fromInts(ElementType::I64, resultType.getShape(), dims)
          .toAttr(op->getContext()));
}

//===----------------------------------------------------------------------===//
// ScatterND
//===----------------------------------------------------------------------===//

const ValueSpec scatterOperands[] = {{"data"}, {"indices"}, {"updates"}};
const ValueSpec scatterResults[] = {{"output"}};
const StringRef reductions[] = {"none", "add", "mul", "max", "min"};
const AttrSpec scatterAttrs[] = {stringAttr("reduction", "none", reductions)};

LogicalResult inferScatterND(InferState &s) {
  if (s.getElementKind(1) != ElementType::I64)
    return s.emitOperandError(1)
           << "must have element type i64, got " << s.getElementType(1);
  if (failed(s.checkSameElementType(0, 2)))
    return failure();
  ArrayRef<int64_t> data = s.getShape(0), indices = s.getShape(1);
  if (indices.empty())
    return s.emitOperandError(1) << "must have rank 1 or more";
  int64_t k = indices.back();
  if (ShapedType::isDynamic(k))
    return s.emitOperandError(1) << "must have a static last dimension";
  if (k < 1 || k > int64_t(data.size()))
    return s.emitOperandError(1)
           << "index tuples have " << k << " entries, but 'data' has rank "
           << uint64_t(data.size());
  SmallVector<int64_t> expected(indices.drop_back());
  expected.append(data.begin() + k, data.end());
  ArrayRef<int64_t> updates = s.getShape(2);
  bool matches = updates.size() == expected.size();
  for (size_t i = 0; matches && i < expected.size(); ++i)
    matches = updates[i] == expected[i] || ShapedType::isDynamic(updates[i]) ||
              ShapedType::isDynamic(expected[i]);
  if (!matches)
    return s.emitOperandError(2) << "of type " << s.getType(2)
                                 << " does not have the shape the indices "
                                    "select";
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalScatterND(EvalState &s) {
  const Tensor &data = s.input(0);
  ArrayRef<int64_t> shape = data.getShape();
  ArrayRef<int64_t> indexShape = s.input(1).getShape();
  SmallVector<int64_t> indices = s.input(1).toInts();
  int64_t k = indexShape.back();
  int64_t tuples = getNumElements(indexShape.drop_back());
  int64_t slice = getNumElements(shape.drop_front(k));
  SmallVector<int64_t> strides = getStrides(shape);
  StringRef reduction = s.getAttrs().getString("reduction");
  Tensor out = data;
  Tensor updates = s.input(2);
  return dispatchType(data.getElementType(), [&](auto tag) -> LogicalResult {
    using T = decltype(tag);
    using C = ComputeType<T>;
    MutableArrayRef<T> o = out.getMutableValues<T>();
    ArrayRef<T> u = updates.getValues<T>();
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t offset = 0;
      for (int64_t j = 0; j < k; ++j) {
        int64_t index = indices[t * k + j];
        if (index < -shape[j] || index >= shape[j])
          return s.emitError()
                 << "index " << index
                 << " is out of range for a dimension of size " << shape[j];
        offset += (index < 0 ? index + shape[j] : index) * strides[j];
      }
      for (int64_t i = 0; i < slice; ++i) {
        C old = C(o[offset + i]), update = C(u[t * slice + i]);
        C v = update;
        if (reduction == "add")
          v = C(old + update);
        else if (reduction == "mul")
          v = C(old * update);
        else if (reduction == "max")
          v = old < update ? update : old;
        else if (reduction == "min")
          v = update < old ? update : old;
        o[offset + i] = fromCompute<T>(v);
      }
    }
    s.addOutput(std::move(out));
    return success();
  });
}

const OpDef indexingDefs[] = {
    {{"onnx.Gather", gatherOperands, gatherResults, gatherAttrs, OpTrait::Pure},
     inferGather,
     evalGather,
     foldGather},
    {{"onnx.ScatterND", scatterOperands, scatterResults, scatterAttrs,
      OpTrait::Pure},
     inferScatterND,
     evalScatterND},
};

} // namespace

void appendIndexingOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : indexingDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

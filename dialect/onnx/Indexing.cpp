//===- Indexing.cpp - Gather(ND), ScatterND and the Elements forms --------===//
//
// Gather picks entries of `data` along `axis` by (possibly negative)
// indices; GatherND picks slices of `data` at the index tuples in the last
// dimension of `indices` (after `batch_dims` leading dimensions they share);
// ScatterND writes slices of `updates` into a copy of `data` at such tuples,
// replacing or combining (add, mul, max, min) as `reduction` says.
// GatherElements and ScatterElements do the same per element, with indices of
// data's rank. Indices out of range are reported by the evaluator, never read.
//
// Gather of the Shape of a tensor whose picked dimensions are static folds
// to a constant even when other dimensions are dynamic (knownInts).
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

/// Gather of a partially known vector (Shape(x)) at constant indices is
/// known where the picked entries are: it folds to a constant when every
/// picked size is static, even if other dimensions are dynamic.
std::optional<KnownInts> knownIntsOfGather(Operation *op, unsigned depth) {
  std::optional<KnownInts> data = getKnownInts(op->getOperand(0), depth);
  std::optional<SmallVector<int64_t>> indices =
      getConstantInts(op->getOperand(1));
  if (!data || !indices ||
      cast<ShapedType>(op->getOperand(0).getType()).getRank() != 1)
    return std::nullopt;
  int64_t count = data->size();
  KnownInts result;
  for (int64_t index : *indices) {
    if (index < -count || index >= count)
      return std::nullopt;
    result.push_back((*data)[index < 0 ? index + count : index]);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// GatherND
//===----------------------------------------------------------------------===//

// data [B..., D...] and indices [B..., T..., k] share their first
// `batch_dims` dimensions B; each tuple of k indices picks the slice
// data[b, i0, ..., ik-1, ...], so the result is [B..., T..., D[k:]...].

const AttrSpec gatherNDAttrs[] = {intAttr("batch_dims", 0)};

/// The result shape of a GatherND, or an error on `s` (batch dims that
/// differ are checked where both are static; the evaluator checks the rest).
LogicalResult inferGatherND(InferState &s) {
  if (s.getElementKind(1) != ElementType::I64)
    return s.emitOperandError(1)
           << "must have element type i64, got " << s.getElementType(1);
  ArrayRef<int64_t> data = s.getShape(0), indices = s.getShape(1);
  int64_t batchDims = s.getAttrs().getInt("batch_dims");
  int64_t r = data.size(), q = indices.size();
  if (r < 1 || q < 1)
    return s.emitError() << "needs operands of rank 1 or more";
  if (batchDims < 0 || batchDims >= std::min(r, q))
    return s.emitAttrError("batch_dims")
           << "is " << batchDims << ", expected 0 to " << std::min(r, q) - 1;
  int64_t k = indices.back();
  if (ShapedType::isDynamic(k))
    return s.emitOperandError(1) << "must have a static last dimension";
  if (k < 1 || k > r - batchDims)
    return s.emitOperandError(1)
           << "index tuples have " << k << " entries, but 'data' has "
           << r - batchDims << " dimensions after the batch dimensions";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < batchDims; ++d) {
    if (!ShapedType::isDynamic(data[d]) && !ShapedType::isDynamic(indices[d]) &&
        data[d] != indices[d])
      return s.emitError() << "batch dimension " << d << " is " << data[d]
                           << " in 'data' but " << indices[d]
                           << " in 'indices'";
    shape.push_back(ShapedType::isDynamic(data[d]) ? indices[d] : data[d]);
  }
  shape.append(indices.begin() + batchDims, indices.end() - 1);
  shape.append(data.begin() + batchDims + k, data.end());
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalGatherND(EvalState &s) {
  const Tensor &data = s.input(0);
  ArrayRef<int64_t> shape = data.getShape();
  ArrayRef<int64_t> indexShape = s.input(1).getShape();
  SmallVector<int64_t> indices = s.input(1).toInts();
  int64_t b = s.getAttrs().getInt("batch_dims");
  int64_t k = indexShape.back();
  for (int64_t d = 0; d < b; ++d)
    if (shape[d] != indexShape[d])
      return s.emitError() << "batch dimension " << d << " is " << shape[d]
                           << " in 'data' but " << indexShape[d]
                           << " in 'indices'";
  int64_t batches = getNumElements(shape.take_front(b));
  int64_t tuples = getNumElements(indexShape.drop_front(b).drop_back());
  ArrayRef<int64_t> inner = shape.drop_front(b);
  int64_t batchSize = getNumElements(inner);
  SmallVector<int64_t> strides = getStrides(inner);
  size_t size = getByteSize(data.getElementType());
  int64_t slice = getNumElements(inner.drop_front(k)) * size;
  SmallVector<int64_t> outShape(indexShape.drop_back());
  outShape.append(inner.begin() + k, inner.end());
  Tensor out(data.getElementType(), outShape);
  const char *src = data.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t n = 0; n < batches; ++n) {
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t offset = n * batchSize;
      for (int64_t j = 0; j < k; ++j) {
        int64_t index = indices[(n * tuples + t) * k + j];
        if (index < -inner[j] || index >= inner[j])
          return s.emitError()
                 << "index " << index
                 << " is out of range for a dimension of size " << inner[j];
        offset += (index < 0 ? index + inner[j] : index) * strides[j];
      }
      std::memcpy(dst, src + offset * size, slice);
      dst += slice;
    }
  }
  s.addOutput(std::move(out));
  return success();
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

/// What a scatter writes where `old` is and `update` comes, as `reduction`
/// says; C is the computation type.
template <typename C> C combine(StringRef reduction, C old, C update) {
  if (reduction == "add")
    return C(old + update);
  if (reduction == "mul")
    return C(old * update);
  if (reduction == "max")
    return old < update ? update : old;
  if (reduction == "min")
    return update < old ? update : old;
  return update;
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
      for (int64_t i = 0; i < slice; ++i)
        o[offset + i] = fromCompute<T>(
            combine(reduction, C(o[offset + i]), C(u[t * slice + i])));
    }
    s.addOutput(std::move(out));
    return success();
  });
}

//===----------------------------------------------------------------------===//
// GatherElements and ScatterElements
//===----------------------------------------------------------------------===//

// Both index `data` along `axis` with a tensor of indices of data's rank:
// element c of `indices` names the position along `axis` of the element
// at c with that coordinate replaced. Indices may be smaller than data in
// every dimension (ONNX Runtime's rule; the spec leaves it open).

const ValueSpec gatherElementsOperands[] = {{"data"}, {"indices"}};
const AttrSpec elementsAxisAttrs[] = {intAttr("axis", 0)};
const ValueSpec scatterElementsOperands[] = {
    {"data"}, {"indices"}, {"updates"}};
const AttrSpec scatterElementsAttrs[] = {
    intAttr("axis", 0), stringAttr("reduction", "none", reductions)};

/// Checks `indices` (operand 1) against `data` (operand 0) and normalizes
/// `axis`.
LogicalResult checkElementIndices(InferState &s, int64_t &axis) {
  if (failed(checkIndices(s, 1)))
    return failure();
  int64_t rank = s.getRank(0);
  if (rank == 0)
    return s.emitOperandError(0) << "must have rank 1 or more";
  if (s.getRank(1) != rank)
    return s.emitOperandError(1) << "of type " << s.getType(1)
                                 << " must have the rank of " << s.getType(0);
  axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, rank, "axis")))
    return failure();
  ArrayRef<int64_t> data = s.getShape(0), indices = s.getShape(1);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && !ShapedType::isDynamic(data[d]) &&
        !ShapedType::isDynamic(indices[d]) && indices[d] > data[d])
      return s.emitOperandError(1)
             << "of type " << s.getType(1) << " is larger than " << s.getType(0)
             << " in dimension " << d;
  return success();
}

LogicalResult inferGatherElements(InferState &s) {
  int64_t axis;
  if (failed(checkElementIndices(s, axis)))
    return failure();
  s.addResult(s.getShape(1), s.getElementType(0));
  return success();
}

/// Calls f(i, offset) for every element i of `indices` (row-major), with
/// the offset in `data` of the element it selects; fails on an index out of
/// range.
template <typename F>
LogicalResult forEachElementIndex(EvalState &s, const Tensor &data,
                                  const Tensor &indices, int64_t axis, F f) {
  ArrayRef<int64_t> shape = data.getShape();
  ArrayRef<int64_t> indexShape = indices.getShape();
  SmallVector<int64_t> strides = getStrides(shape);
  SmallVector<int64_t> values = indices.toInts();
  SmallVector<int64_t> c(indexShape.size(), 0);
  int64_t dim = shape[axis];
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t index = values[i];
    if (index < -dim || index >= dim)
      return s.emitError() << "index " << index
                           << " is out of range for a dimension of size "
                           << dim;
    if (index < 0)
      index += dim;
    int64_t offset = 0;
    for (size_t d = 0; d < c.size(); ++d)
      offset += (int64_t(d) == axis ? index : c[d]) * strides[d];
    f(i, offset);
    for (int64_t d = int64_t(c.size()) - 1; d >= 0; --d) {
      if (++c[d] < indexShape[d])
        break;
      c[d] = 0;
    }
  }
  return success();
}

int64_t getElementsAxis(EvalState &s, const Tensor &data) {
  int64_t axis = s.getAttrs().getInt("axis");
  return axis < 0 ? axis + data.getRank() : axis;
}

LogicalResult evalGatherElements(EvalState &s) {
  const Tensor &data = s.input(0);
  const Tensor &indices = s.input(1);
  Tensor out(data.getElementType(), indices.getShape());
  size_t size = getByteSize(data.getElementType());
  const char *src = data.getBytes().data();
  char *dst = out.getMutableBytes().data();
  if (failed(forEachElementIndex(s, data, indices, getElementsAxis(s, data),
                                 [&](int64_t i, int64_t offset) {
                                   std::memcpy(dst + i * size,
                                               src + offset * size, size);
                                 })))
    return failure();
  s.addOutput(std::move(out));
  return success();
}

LogicalResult inferScatterElements(InferState &s) {
  int64_t axis;
  if (failed(checkElementIndices(s, axis)) ||
      failed(s.checkSameElementType(0, 2)))
    return failure();
  ArrayRef<int64_t> indices = s.getShape(1), updates = s.getShape(2);
  bool matches = indices.size() == updates.size();
  for (size_t d = 0; matches && d < indices.size(); ++d)
    matches = indices[d] == updates[d] || ShapedType::isDynamic(indices[d]) ||
              ShapedType::isDynamic(updates[d]);
  if (!matches)
    return s.emitOperandError(2) << "of type " << s.getType(2)
                                 << " must have the shape of " << s.getType(1);
  s.addResult(s.getType(0));
  return success();
}

/// Updates apply in the order of `indices`, so that with repeated indices
/// the last one wins (no reduction) or all combine in that order.
LogicalResult evalScatterElements(EvalState &s) {
  const Tensor &data = s.input(0);
  Tensor out = data;
  Tensor updates = s.input(2);
  StringRef reduction = s.getAttrs().getString("reduction");
  return dispatchType(data.getElementType(), [&](auto tag) -> LogicalResult {
    using T = decltype(tag);
    using C = ComputeType<T>;
    MutableArrayRef<T> o = out.getMutableValues<T>();
    ArrayRef<T> u = updates.getValues<T>();
    if (failed(forEachElementIndex(
            s, data, s.input(1), getElementsAxis(s, data),
            [&](int64_t i, int64_t offset) {
              o[offset] =
                  fromCompute<T>(combine(reduction, C(o[offset]), C(u[i])));
            })))
      return failure();
    s.addOutput(std::move(out));
    return success();
  });
}

const OpDef indexingDefs[] = {
    {.schema = {"onnx.Gather", gatherOperands, gatherResults, gatherAttrs,
                OpTrait::Pure},
     .infer = inferGather,
     .evaluate = evalGather,
     .knownInts = knownIntsOfGather},
    {{"onnx.GatherND", gatherOperands, gatherResults, gatherNDAttrs,
      OpTrait::Pure},
     inferGatherND,
     evalGatherND},
    {{"onnx.ScatterND", scatterOperands, scatterResults, scatterAttrs,
      OpTrait::Pure},
     inferScatterND,
     evalScatterND},
    {{"onnx.GatherElements", gatherElementsOperands, gatherResults,
      elementsAxisAttrs, OpTrait::Pure},
     inferGatherElements,
     evalGatherElements},
    {{"onnx.ScatterElements", scatterElementsOperands, scatterResults,
      scatterElementsAttrs, OpTrait::Pure},
     inferScatterElements,
     evalScatterElements},
};

} // namespace

void appendIndexingOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : indexingDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

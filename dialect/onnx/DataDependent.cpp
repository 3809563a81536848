//===- DataDependent.cpp - NonZero, TopK, Unique, Compress ----------------===//
//
// Ops whose result sizes the input values decide: NonZero (how many
// elements are non-zero), TopK (k, an operand that may be known only at
// run time), Unique (how many distinct elements or slices) and Compress
// (how many entries of the condition are true). Inference gives those
// dimensions as `?` (TopK's is known where k is); the evaluator computes
// them, checking the result against the memory budget before allocating.
//
// All four work on "items": the elements of the flattened input, or its
// slices along an axis. A tensor seen along `axis` is [outer, n, inner]:
// item j of outer block o is the `inner` contiguous elements at
// (o * n + j) * inner.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include <algorithm>
#include <numeric>

namespace onyx::onnx {

namespace {

/// A tensor of `shape` seen as [outer, n, inner] along `axis`.
struct AxisView {
  int64_t outer, n, inner;
  AxisView(ArrayRef<int64_t> shape, int64_t axis)
      : outer(getNumElements(shape.take_front(axis))), n(shape[axis]),
        inner(getNumElements(shape.drop_front(axis + 1))) {}
};

/// Copies the items `picks` of `in` (along `view`) into `out`, in order.
void copyItems(const Tensor &in, const AxisView &view, ArrayRef<int64_t> picks,
               Tensor &out) {
  size_t bytes = view.inner * getByteSize(in.getElementType());
  const char *src = in.getBytes().data();
  char *dst = out.getMutableBytes().data();
  for (int64_t o = 0; o < view.outer; ++o) {
    for (int64_t j : picks) {
      std::memcpy(dst, src + (o * view.n + j) * bytes, bytes);
      dst += bytes;
    }
  }
}

/// A strict weak order on values in which NaN is greater than every number
/// and equal to itself, so that sorting never sees an inconsistent order.
template <typename C> bool lessWithNaN(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (a != a)
      return false;
    if (b != b)
      return true;
  }
  return a < b;
}

/// The normalized axis attribute of an op whose `axis` is optional: nullopt
/// when it is absent (the op works on the flattened input).
std::optional<int64_t> getOptionalAxis(const OpAttrs &attrs, int64_t rank) {
  if (!attrs.has("axis"))
    return std::nullopt;
  int64_t axis = attrs.getInt("axis");
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// NonZero
//===----------------------------------------------------------------------===//

const ValueSpec nonZeroOperands[] = {{"X"}};
const ValueSpec nonZeroResults[] = {{"Y"}};

/// [rank, count]: one column of indices per non-zero element, in row-major
/// order. A 0-D input counts as rank 1 (as numpy's nonzero does).
LogicalResult inferNonZero(InferState &s) {
  s.addResult({std::max<int64_t>(s.getRank(0), 1), ShapedType::kDynamic},
              IntegerType::get(s.getContext(), 64));
  return success();
}

LogicalResult evalNonZero(EvalState &s) {
  const Tensor &x = s.input(0);
  SmallVector<int64_t> shape(x.getShape());
  if (shape.empty())
    shape.push_back(1);
  int64_t rank = shape.size();
  SmallVector<int64_t> found;
  dispatchType(x.getElementType(), [&](auto tag) {
    using T = decltype(tag);
    using C = ComputeType<T>;
    ArrayRef<T> v = x.getValues<T>();
    for (int64_t i = 0, e = v.size(); i < e; ++i)
      if (C(v[i]) != C(0))
        found.push_back(i);
  });
  int64_t count = found.size();
  if (failed(s.checkResultSize(0, {rank, count}, ElementType::I64)))
    return failure();
  Tensor out(ElementType::I64, {rank, count});
  MutableArrayRef<int64_t> o = out.getMutableValues<int64_t>();
  SmallVector<int64_t> strides = getStrides(shape);
  for (int64_t j = 0; j < count; ++j)
    for (int64_t d = 0; d < rank; ++d)
      o[d * count + j] = found[j] / strides[d] % shape[d];
  s.addOutput(std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

const ValueSpec topKOperands[] = {{"X"}, {"K"}};
const ValueSpec topKResults[] = {{"Values"}, {"Indices"}};
const AttrSpec topKAttrs[] = {intAttr("axis", -1), intAttr("largest", 1),
                              intAttr("sorted", 1)};

/// Checks k against the size of the dimension it selects from (when that
/// is static).
LogicalResult checkK(int64_t k, int64_t dim,
                     llvm::function_ref<InFlightDiagnostic()> emitError) {
  if (k < 0)
    return emitError() << "is " << k << ", a negative count";
  if (!ShapedType::isDynamic(dim) && k > dim)
    return emitError() << "is " << k
                       << ", larger than the dimension it selects from (" << dim
                       << ")";
  return success();
}

LogicalResult inferTopK(InferState &s) {
  if (failed(s.checkNumeric(0)))
    return failure();
  if (s.getElementKind(1) != ElementType::I64 || s.getRank(1) > 1 ||
      (s.getType(1).hasStaticShape() && s.getType(1).getNumElements() != 1))
    return s.emitOperandError(1)
           << "must be a tensor of one i64, got " << s.getType(1);
  int64_t axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
    return failure();
  SmallVector<int64_t> shape(s.getShape(0));
  std::optional<KnownInts> k = s.getKnownInts(1);
  if (k && k->size() == 1 && (*k)[0]) {
    if (failed(checkK(*(*k)[0], shape[axis],
                      [&] { return s.emitOperandError(1); })))
      return failure();
    shape[axis] = *(*k)[0];
  } else {
    shape[axis] = ShapedType::kDynamic;
  }
  s.addResult(shape, s.getElementType(0));
  s.addResult(shape, IntegerType::get(s.getContext(), 64));
  return success();
}

LogicalResult evalTopK(EvalState &s) {
  const Tensor &x = s.input(0);
  if (s.input(1).getNumElements() != 1)
    return s.emitError() << "operand 'K' must hold one value, got "
                         << s.input(1).getNumElements();
  int64_t k = s.input(1).getInt(0);
  int64_t axis = s.getAttrs().getInt("axis");
  if (axis < 0)
    axis += x.getRank();
  AxisView view(x.getShape(), axis);
  if (failed(
          checkK(k, view.n, [&] { return s.emitError() << "operand 'K' "; })))
    return failure();
  SmallVector<int64_t> shape(x.getShape());
  shape[axis] = k;
  if (failed(s.checkResultSize(0, shape, x.getElementType())) ||
      failed(s.checkResultSize(1, shape, ElementType::I64)))
    return failure();
  bool largest = s.getAttrs().getInt("largest");
  Tensor values(x.getElementType(), shape), indices(ElementType::I64, shape);
  dispatchType(x.getElementType(), [&](auto tag) {
    using T = decltype(tag);
    using C = ComputeType<T>;
    if constexpr (!std::is_same_v<T, bool>) {
      ArrayRef<T> in = x.getValues<T>();
      MutableArrayRef<T> v = values.getMutableValues<T>();
      MutableArrayRef<int64_t> idx = indices.getMutableValues<int64_t>();
      SmallVector<int64_t> order(view.n);
      for (int64_t o = 0; o < view.outer; ++o) {
        for (int64_t i = 0; i < view.inner; ++i) {
          auto at = [&](int64_t j) {
            return C(in[(o * view.n + j) * view.inner + i]);
          };
          std::iota(order.begin(), order.end(), 0);
          // Stable: of equal values, the lower index comes first, as the
          // ONNX specification asks.
          std::stable_sort(order.begin(), order.end(),
                           [&](int64_t a, int64_t b) {
                             return largest ? lessWithNaN(at(b), at(a))
                                            : lessWithNaN(at(a), at(b));
                           });
          for (int64_t j = 0; j < k; ++j) {
            int64_t pos = (o * k + j) * view.inner + i;
            v[pos] = in[(o * view.n + order[j]) * view.inner + i];
            idx[pos] = order[j];
          }
        }
      }
    }
  });
  s.addOutput(std::move(values));
  s.addOutput(std::move(indices));
  return success();
}

//===----------------------------------------------------------------------===//
// Unique
//===----------------------------------------------------------------------===//

const ValueSpec uniqueOperands[] = {{"X"}};
const ValueSpec uniqueResults[] = {{"Y"},
                                   {"indices", Presence::Optional},
                                   {"inverse_indices", Presence::Optional},
                                   {"counts", Presence::Optional}};
const AttrSpec uniqueAttrs[] = {optionalAttr("axis", AttrType::Int),
                                intAttr("sorted", 1)};

/// Y is X with the unique dimension (the flattened input's, or `axis`'s)
/// dynamic; indices and counts have one entry per unique item, and
/// inverse_indices one per item of X.
LogicalResult inferUnique(InferState &s) {
  Type i64 = IntegerType::get(s.getContext(), 64);
  SmallVector<int64_t> shape = {ShapedType::kDynamic};
  int64_t items;
  if (s.getAttrs().has("axis")) {
    int64_t axis = s.getAttrs().getInt("axis");
    if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
      return failure();
    shape.assign(s.getShape(0).begin(), s.getShape(0).end());
    items = shape[axis];
    shape[axis] = ShapedType::kDynamic;
  } else {
    items = s.getType(0).hasStaticShape() ? s.getType(0).getNumElements()
                                          : ShapedType::kDynamic;
  }
  s.addResult(shape, s.getElementType(0));
  s.addResult({ShapedType::kDynamic}, i64);
  s.addResult({items}, i64);
  s.addResult({ShapedType::kDynamic}, i64);
  return success();
}

LogicalResult evalUnique(EvalState &s) {
  const Tensor &x = s.input(0);
  std::optional<int64_t> axis = getOptionalAxis(s.getAttrs(), x.getRank());
  Tensor flat = axis ? x : x.reshape({x.getNumElements()});
  AxisView view(flat.getShape(), axis ? *axis : 0);
  // Item j compares as the sequence of its elements in every outer block
  // (numpy's unique with an axis compares whole slices).
  auto compareItems = [&](int64_t a, int64_t b) -> int {
    int result = 0;
    dispatchType(x.getElementType(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      ArrayRef<T> v = flat.getValues<T>();
      for (int64_t o = 0; o < view.outer && !result; ++o) {
        for (int64_t i = 0; i < view.inner; ++i) {
          C va = v[(o * view.n + a) * view.inner + i];
          C vb = v[(o * view.n + b) * view.inner + i];
          if (lessWithNaN(va, vb)) {
            result = -1;
            break;
          }
          if (lessWithNaN(vb, va)) {
            result = 1;
            break;
          }
        }
      }
    });
    return result;
  };
  SmallVector<int64_t> order(view.n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return compareItems(a, b) < 0;
  });
  // Groups of equal items in sorted order; the first of each (stable) is
  // its first occurrence.
  SmallVector<int64_t> firsts, counts, groupOf(view.n);
  for (int64_t j = 0; j < view.n; ++j) {
    if (j == 0 || compareItems(order[j - 1], order[j]) != 0) {
      firsts.push_back(order[j]);
      counts.push_back(0);
    }
    groupOf[order[j]] = firsts.size() - 1;
    ++counts.back();
  }
  // The unique items in output order: sorted, or by first occurrence.
  int64_t numUnique = firsts.size();
  SmallVector<int64_t> groups(numUnique);
  std::iota(groups.begin(), groups.end(), 0);
  if (!s.getAttrs().getInt("sorted"))
    llvm::sort(groups,
               [&](int64_t a, int64_t b) { return firsts[a] < firsts[b]; });
  SmallVector<int64_t> position(numUnique);
  for (int64_t p = 0; p < numUnique; ++p)
    position[groups[p]] = p;

  SmallVector<int64_t> shape(flat.getShape());
  shape[axis ? *axis : 0] = numUnique;
  if (failed(s.checkResultSize(0, shape, x.getElementType())))
    return failure();
  Tensor y(x.getElementType(), shape);
  SmallVector<int64_t> picks, uniqueCounts;
  for (int64_t g : groups) {
    picks.push_back(firsts[g]);
    uniqueCounts.push_back(counts[g]);
  }
  copyItems(flat, view, picks, y);
  SmallVector<int64_t> inverse;
  for (int64_t j = 0; j < view.n; ++j)
    inverse.push_back(position[groupOf[j]]);
  s.addOutput(std::move(y));
  s.addOutput(Tensor::fromInts(ElementType::I64, {numUnique}, picks));
  s.addOutput(Tensor::fromInts(ElementType::I64, {view.n}, inverse));
  s.addOutput(Tensor::fromInts(ElementType::I64, {numUnique}, uniqueCounts));
  return success();
}

//===----------------------------------------------------------------------===//
// Compress
//===----------------------------------------------------------------------===//

const ValueSpec compressOperands[] = {{"input"}, {"condition"}};
const ValueSpec compressResults[] = {{"output"}};
const AttrSpec compressAttrs[] = {optionalAttr("axis", AttrType::Int)};

/// The condition may be shorter than the dimension it selects from (the
/// items past its end are dropped), not longer.
LogicalResult
checkConditionLength(int64_t length, int64_t dim,
                     llvm::function_ref<InFlightDiagnostic()> emitError) {
  if (ShapedType::isDynamic(length) || ShapedType::isDynamic(dim) ||
      length <= dim)
    return success();
  return emitError() << "has " << length
                     << " entries, more than the dimension it selects from ("
                     << dim << ")";
}

LogicalResult inferCompress(InferState &s) {
  if (s.getElementKind(1) != ElementType::Bool || s.getRank(1) != 1)
    return s.emitOperandError(1)
           << "must be a 1-D tensor of i1, got " << s.getType(1);
  SmallVector<int64_t> shape = {s.getType(0).hasStaticShape()
                                    ? s.getType(0).getNumElements()
                                    : ShapedType::kDynamic};
  int64_t axis = 0;
  if (s.getAttrs().has("axis")) {
    axis = s.getAttrs().getInt("axis");
    if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
      return failure();
    shape.assign(s.getShape(0).begin(), s.getShape(0).end());
  }
  if (failed(checkConditionLength(s.getShape(1)[0], shape[axis],
                                  [&] { return s.emitOperandError(1); })))
    return failure();
  // The count is known only where the condition is.
  std::optional<SmallVector<int64_t>> cond = s.getConstantInts(1);
  shape[axis] = cond ? llvm::count_if(*cond, [](int64_t c) { return c != 0; })
                     : ShapedType::kDynamic;
  s.addResult(shape, s.getElementType(0));
  return success();
}

LogicalResult evalCompress(EvalState &s) {
  const Tensor &x = s.input(0);
  std::optional<int64_t> axis = getOptionalAxis(s.getAttrs(), x.getRank());
  Tensor flat = axis ? x : x.reshape({x.getNumElements()});
  AxisView view(flat.getShape(), axis ? *axis : 0);
  SmallVector<int64_t> cond = s.input(1).toInts();
  if (failed(checkConditionLength(cond.size(), view.n, [&] {
        return s.emitError() << "operand 'condition' ";
      })))
    return failure();
  SmallVector<int64_t> picks;
  for (auto [j, c] : llvm::enumerate(cond))
    if (c)
      picks.push_back(j);
  SmallVector<int64_t> shape(flat.getShape());
  shape[axis ? *axis : 0] = picks.size();
  if (failed(s.checkResultSize(0, shape, x.getElementType())))
    return failure();
  Tensor out(x.getElementType(), shape);
  copyItems(flat, view, picks, out);
  s.addOutput(std::move(out));
  return success();
}

const OpDef dataDependentDefs[] = {
    {{"onnx.NonZero", nonZeroOperands, nonZeroResults, {}, OpTrait::Pure},
     inferNonZero,
     evalNonZero},
    {{"onnx.TopK", topKOperands, topKResults, topKAttrs, OpTrait::Pure},
     inferTopK,
     evalTopK},
    {{"onnx.Unique", uniqueOperands, uniqueResults, uniqueAttrs, OpTrait::Pure},
     inferUnique,
     evalUnique},
    {{"onnx.Compress", compressOperands, compressResults, compressAttrs,
      OpTrait::Pure},
     inferCompress,
     evalCompress},
};

} // namespace

void appendDataDependentOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : dataDependentDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

//===- Reduction.cpp - ReduceSum/Mean/Max/Min, ArgMax and ArgMin ----------===//
//
// The Reduce ops take their axes as an optional operand (opset 18 form):
// absent or empty means every axis, unless noop_with_empty_axes makes it
// the identity. keepdims keeps reduced dimensions as 1. Reducing an empty
// set gives the identity element: 0 for sums, -inf / +inf (or the integer
// extremes) for max / min, NaN for a float mean.
//
// ArgMax and ArgMin take their axis as an attribute and give int64 indices
// of the first maximum / minimum (the last with select_last_index). NaN
// never wins (every comparison with it is false), as in ONNX Runtime.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <limits>

namespace onyx::onnx {

namespace {

enum class ReduceKind { Sum, Mean, Max, Min };

ReduceKind getKind(const OpSchema &schema) {
  return llvm::StringSwitch<ReduceKind>(schema.name)
      .Case("onnx.ReduceSum", ReduceKind::Sum)
      .Case("onnx.ReduceMean", ReduceKind::Mean)
      .Case("onnx.ReduceMax", ReduceKind::Max)
      .Default(ReduceKind::Min);
}

const ValueSpec reduceOperands[] = {{"data"}, {"axes", Presence::Optional}};
const ValueSpec reduceResults[] = {{"reduced"}};
const AttrSpec reduceAttrs[] = {intAttr("keepdims", 1),
                                intAttr("noop_with_empty_axes", 0)};

/// Which dimensions of a tensor of rank `rank` are reduced, given the axes
/// operand's values; reports bad axes through `emitError`.
FailureOr<llvm::SmallBitVector>
getReducedDims(ArrayRef<int64_t> axes, int64_t rank, bool noopWhenEmpty,
               llvm::function_ref<InFlightDiagnostic()> emitError) {
  llvm::SmallBitVector reduced(rank, axes.empty() && !noopWhenEmpty);
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank)
      return emitError() << "axis " << axis << " is out of range for rank "
                         << rank;
    int64_t a = axis < 0 ? axis + rank : axis;
    if (reduced[a])
      return emitError() << "axis " << axis << " appears twice";
    reduced.set(a);
  }
  return reduced;
}

SmallVector<int64_t> getReducedShape(ArrayRef<int64_t> shape,
                                     const llvm::SmallBitVector &reduced,
                                     bool keepDims) {
  SmallVector<int64_t> result;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d])
      result.push_back(shape[d]);
    else if (keepDims)
      result.push_back(1);
  }
  return result;
}

LogicalResult inferReduce(InferState &s) {
  // Max and Min of bools are Or and And (opset 20).
  ReduceKind kind = getKind(s.getDef().schema);
  if ((kind == ReduceKind::Sum || kind == ReduceKind::Mean) &&
      failed(s.checkNumeric(0)))
    return failure();
  const OpAttrs &attrs = s.getAttrs();
  bool keepDims = attrs.getInt("keepdims");
  int64_t rank = s.getRank(0);
  SmallVector<int64_t> axes;
  if (s.hasOperand(1)) {
    if (failed(s.checkRank(1, 1)) || s.getElementKind(1) != ElementType::I64)
      return s.emitOperandError(1)
             << "must be a 1-D tensor of i64, got " << s.getType(1);
    std::optional<SmallVector<int64_t>> values = s.getConstantInts(1);
    if (!values) {
      FailureOr<int64_t> n = s.getStaticLength(1, "the result's rank");
      if (failed(n))
        return failure();
      if (*n > rank)
        return s.emitOperandError(1)
               << "has " << *n << " axes, more than the rank " << rank;
      // Which axes are reduced is known at run time (a list that is not
      // empty, without repeats): a dimension of size 1 stays 1, the axes
      // known now become 1 with keepdims; the rest is dynamic.
      if (!keepDims) {
        s.addResult(SmallVector<int64_t>(rank - *n, ShapedType::kDynamic),
                    s.getElementType(0));
        return success();
      }
      SmallVector<int64_t> shape(s.getShape(0));
      for (int64_t &d : shape)
        if (d != 1)
          d = ShapedType::kDynamic;
      // Kept in a local: a range-for over `*temporary` would read a
      // destroyed optional.
      std::optional<KnownInts> known = s.getKnownInts(1);
      for (std::optional<int64_t> axis : *known) {
        if (!axis)
          continue;
        int64_t a = *axis;
        if (failed(s.normalizeAxis(a, rank, "axis")))
          return failure();
        shape[a] = 1;
      }
      s.addResult(shape, s.getElementType(0));
      return success();
    }
    axes = *values;
  }
  FailureOr<llvm::SmallBitVector> reduced =
      getReducedDims(axes, rank, attrs.getInt("noop_with_empty_axes"),
                     [&] { return s.emitOperandError(1); });
  if (failed(reduced))
    return failure();
  s.addResult(getReducedShape(s.getShape(0), *reduced, keepDims),
              s.getElementType(0));
  return success();
}

/// Reduces `in` (of compute type C) over the dimensions in `reduced`.
template <typename C>
Tensor reduce(const Tensor &in, const llvm::SmallBitVector &reduced,
              ReduceKind kind, ArrayRef<int64_t> outShape) {
  ArrayRef<int64_t> shape = in.getShape();
  // Output strides per input dimension: 0 for the reduced ones.
  SmallVector<int64_t> outStrides(shape.size(), 0);
  int64_t stride = 1, count = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (reduced[d]) {
      count *= shape[d];
      continue;
    }
    outStrides[d] = stride;
    stride *= shape[d];
  }
  C init = 0;
  if (kind == ReduceKind::Max)
    init = std::numeric_limits<C>::has_infinity
               ? -std::numeric_limits<C>::infinity()
               : std::numeric_limits<C>::lowest();
  else if (kind == ReduceKind::Min)
    init = std::numeric_limits<C>::has_infinity
               ? std::numeric_limits<C>::infinity()
               : std::numeric_limits<C>::max();
  Tensor out(elementTypeOf<C>(), outShape);
  MutableArrayRef<C> o = out.getMutableValues<C>();
  std::fill(o.begin(), o.end(), init);
  ArrayRef<C> v = in.getValues<C>();
  SmallVector<int64_t> index(shape.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    int64_t target = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      target += index[d] * outStrides[d];
    C &acc = o[target];
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      if constexpr (std::is_integral_v<C>)
        acc = C(uint64_t(acc) + uint64_t(v[i]));
      else
        acc += v[i];
      break;
    case ReduceKind::Max:
      if (v[i] > acc || v[i] != v[i])
        acc = v[i];
      break;
    case ReduceKind::Min:
      if (v[i] < acc || v[i] != v[i])
        acc = v[i];
      break;
    }
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  if (kind == ReduceKind::Mean) {
    for (C &acc : o) {
      if constexpr (std::is_integral_v<C>)
        acc = count ? C(acc / C(count)) : C(0);
      else
        acc /= C(count);
    }
  }
  return out;
}

LogicalResult evalReduce(EvalState &s) {
  const Tensor &data = s.input(0);
  const OpAttrs &attrs = s.getAttrs();
  SmallVector<int64_t> axes;
  if (s.hasInput(1))
    axes = s.input(1).toInts();
  FailureOr<llvm::SmallBitVector> reduced =
      getReducedDims(axes, data.getRank(), attrs.getInt("noop_with_empty_axes"),
                     [&] { return s.emitError(); });
  if (failed(reduced))
    return failure();
  SmallVector<int64_t> outShape =
      getReducedShape(data.getShape(), *reduced, attrs.getInt("keepdims"));
  ElementType type = data.getElementType();
  ElementType computeType = isFloat(type)             ? ElementType::F64
                            : isUnsignedInteger(type) ? ElementType::U64
                                                      : ElementType::I64;
  Tensor in = convertTensor(data, computeType);
  ReduceKind kind = getKind(attrs.getSchema());
  Tensor out;
  if (computeType == ElementType::F64)
    out = reduce<double>(in, *reduced, kind, outShape);
  else if (computeType == ElementType::U64)
    out = reduce<uint64_t>(in, *reduced, kind, outShape);
  else
    out = reduce<int64_t>(in, *reduced, kind, outShape);
  s.addOutput(convertTensor(out, type));
  return success();
}

//===----------------------------------------------------------------------===//
// ArgMax and ArgMin
//===----------------------------------------------------------------------===//

const ValueSpec argMaxResults[] = {{"reduced"}};
const ValueSpec argMaxOperands[] = {{"data"}};
const AttrSpec argMaxAttrs[] = {intAttr("axis", 0), intAttr("keepdims", 1),
                                intAttr("select_last_index", 0)};

LogicalResult inferArgMax(InferState &s) {
  if (failed(s.checkNumeric(0)))
    return failure();
  int64_t axis = s.getAttrs().getInt("axis");
  if (failed(s.normalizeAxis(axis, s.getRank(0), "axis")))
    return failure();
  llvm::SmallBitVector reduced(s.getRank(0));
  reduced.set(axis);
  s.addResult(
      getReducedShape(s.getShape(0), reduced, s.getAttrs().getInt("keepdims")),
      IntegerType::get(s.getContext(), 64));
  return success();
}

LogicalResult evalArgMax(EvalState &s) {
  const Tensor &data = s.input(0);
  ArrayRef<int64_t> shape = data.getShape();
  const OpAttrs &attrs = s.getAttrs();
  int64_t axis = attrs.getInt("axis");
  if (axis < 0)
    axis += shape.size();
  bool last = attrs.getInt("select_last_index");
  bool isMin = isOp(s.getOp(), "onnx.ArgMin");
  llvm::SmallBitVector reduced(shape.size());
  reduced.set(axis);
  Tensor out(ElementType::I64,
             getReducedShape(shape, reduced, attrs.getInt("keepdims")));
  MutableArrayRef<int64_t> o = out.getMutableValues<int64_t>();
  int64_t outer = getNumElements(shape.take_front(axis));
  int64_t n = shape[axis];
  int64_t inner = getNumElements(shape.drop_front(axis + 1));
  Tensor values = convertTensor(data, ElementType::F64);
  ArrayRef<double> v = values.getValues<double>();
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      for (int64_t j = 1; j < n; ++j) {
        double x = v[(a * n + j) * inner + i];
        double b = v[(a * n + best) * inner + i];
        if ((isMin ? x < b : x > b) || (last && x == b))
          best = j;
      }
      o[a * inner + i] = best;
    }
  }
  s.addOutput(std::move(out));
  return success();
}

const OpDef reductionDefs[] = {
    {{"onnx.ReduceSum", reduceOperands, reduceResults, reduceAttrs,
      OpTrait::Pure},
     inferReduce,
     evalReduce},
    {{"onnx.ReduceMean", reduceOperands, reduceResults, reduceAttrs,
      OpTrait::Pure},
     inferReduce,
     evalReduce},
    {{"onnx.ReduceMax", reduceOperands, reduceResults, reduceAttrs,
      OpTrait::Pure},
     inferReduce,
     evalReduce},
    {{"onnx.ReduceMin", reduceOperands, reduceResults, reduceAttrs,
      OpTrait::Pure},
     inferReduce,
     evalReduce},
    {{"onnx.ArgMax", argMaxOperands, argMaxResults, argMaxAttrs, OpTrait::Pure},
     inferArgMax,
     evalArgMax},
    {{"onnx.ArgMin", argMaxOperands, argMaxResults, argMaxAttrs, OpTrait::Pure},
     inferArgMax,
     evalArgMax},
};

} // namespace

void appendReductionOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : reductionDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

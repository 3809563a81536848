//===- CumSum.cpp - onnx.CumSum -------------------------------------------===//
//
// The running sum along one axis, given as a 0-D (or one-element 1-D)
// integer tensor that may be known only at run time: the result has the
// input's shape either way. `exclusive` leaves each element out of its own
// sum (the first is 0); `reverse` sums from the end.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec cumSumOperands[] = {{"x"}, {"axis"}};
const ValueSpec cumSumResults[] = {{"y"}};
const AttrSpec cumSumAttrs[] = {intAttr("exclusive", 0), intAttr("reverse", 0)};

LogicalResult inferCumSum(InferState &s) {
  if (failed(s.checkNumeric(0)) || failed(s.checkInteger(1)))
    return failure();
  if (s.getRank(1) > 1 ||
      (s.getRank(1) == 1 && !ShapedType::isDynamic(s.getShape(1)[0]) &&
       s.getShape(1)[0] != 1))
    return s.emitOperandError(1)
           << "must be a scalar (or one element), got " << s.getType(1);
  if (s.getElementKind(0) == ElementType::Bool)
    return s.emitOperandError(0) << "must be numeric, got " << s.getType(0);
  if (std::optional<SmallVector<int64_t>> axis = s.getConstantInts(1)) {
    int64_t a = (*axis)[0];
    if (failed(s.normalizeAxis(a, s.getRank(0), "axis")))
      return failure();
  }
  s.addResult(s.getType(0));
  return success();
}

template <typename T>
void cumulate(ArrayRef<T> in, MutableArrayRef<T> out, int64_t outer, int64_t n,
              int64_t inner, bool exclusive, bool reverse) {
  for (int64_t a = 0; a < outer; ++a) {
    for (int64_t b = 0; b < inner; ++b) {
      T sum = T(0);
      for (int64_t k = 0; k < n; ++k) {
        int64_t j = reverse ? n - 1 - k : k;
        int64_t at = (a * n + j) * inner + b;
        if (exclusive) {
          out[at] = sum;
          sum += in[at];
        } else {
          sum += in[at];
          out[at] = sum;
        }
      }
    }
  }
}

LogicalResult evalCumSum(EvalState &s) {
  const Tensor &x = s.input(0);
  ArrayRef<int64_t> shape = x.getShape();
  Tensor axisT = convertTensor(s.input(1), ElementType::I64);
  if (axisT.getNumElements() != 1)
    return s.emitError() << "operand 'axis' must have one element, got "
                         << axisT.getNumElements();
  int64_t rank = shape.size(), axis = axisT.getValues<int64_t>()[0];
  if (axis < -rank || axis >= rank)
    return s.emitError() << "operand 'axis' is " << axis
                         << ", out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  int64_t outer = getNumElements(shape.take_front(axis));
  int64_t inner = getNumElements(shape.drop_front(axis + 1));
  bool exclusive = s.getAttrs().getInt("exclusive");
  bool reverse = s.getAttrs().getInt("reverse");
  // Integers sum exactly in 64 bits (wrapping as the narrow type would on
  // conversion), floats in double.
  bool isInt = !isFloat(x.getElementType());
  ElementType wide = isInt ? ElementType::I64 : ElementType::F64;
  Tensor in = convertTensor(x, wide), out(wide, shape);
  if (isInt)
    cumulate(in.getValues<int64_t>(), out.getMutableValues<int64_t>(), outer,
             shape[axis], inner, exclusive, reverse);
  else
    cumulate(in.getValues<double>(), out.getMutableValues<double>(), outer,
             shape[axis], inner, exclusive, reverse);
  s.addOutput(convertTensor(out, x.getElementType()));
  return success();
}

const OpDef cumSumDef = {
    {"onnx.CumSum", cumSumOperands, cumSumResults, cumSumAttrs, OpTrait::Pure},
    inferCumSum,
    evalCumSum,
};

} // namespace

void appendCumSumOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&cumSumDef);
}

} // namespace onyx::onnx

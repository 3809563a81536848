//===- Clip.cpp - onnx.Clip: clamping between optional scalar bounds ------===//
//
// The bounds are operands (opset 11 onward), each a scalar or a
// one-element tensor, absent meaning unbounded. When min > max every
// element becomes max, as the spec says; NaN stays NaN.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

namespace onyx::onnx {

namespace {

const ValueSpec clipOperands[] = {
    {"input"}, {"min", Presence::Optional}, {"max", Presence::Optional}};
const ValueSpec clipResults[] = {{"output"}};

LogicalResult inferClip(InferState &s) {
  if (failed(s.checkNumeric(0)))
    return failure();
  for (unsigned i = 1; i < s.getNumOperands(); ++i) {
    if (!s.hasOperand(i))
      continue;
    if (failed(s.checkSameElementType(0, i)))
      return failure();
    RankedTensorType type = s.getType(i);
    if (type.getRank() > 1 || (type.getRank() == 1 && type.getShape()[0] != 1))
      return s.emitOperandError(i) << "must be a scalar, got " << type;
  }
  s.addResult(s.getType(0));
  return success();
}

LogicalResult evalClip(EvalState &s) {
  const Tensor &x = s.input(0);
  return dispatchType(x.getElementType(), [&](auto tag) -> LogicalResult {
    using T = decltype(tag);
    using C = ComputeType<T>;
    if constexpr (std::is_same_v<T, bool>) {
      return s.unsupportedType(0);
    } else {
      bool hasMin = s.hasInput(1), hasMax = s.hasInput(2);
      C lo = hasMin ? C(s.input(1).getValues<T>()[0]) : C(0);
      C hi = hasMax ? C(s.input(2).getValues<T>()[0]) : C(0);
      Tensor out(x.getElementType(), x.getShape());
      ArrayRef<T> in = x.getValues<T>();
      MutableArrayRef<T> o = out.getMutableValues<T>();
      for (size_t i = 0; i < in.size(); ++i) {
        C v = C(in[i]);
        if (hasMin && v < lo)
          v = lo;
        if (hasMax && v > hi)
          v = hi;
        o[i] = fromCompute<T>(v);
      }
      s.addOutput(std::move(out));
      return success();
    }
  });
}

/// Without bounds, Clip is the identity.
OpFoldResult foldClip(Operation *op, ArrayRef<Attribute>) {
  for (unsigned i = 1; i < op->getNumOperands(); ++i)
    if (!isNoValue(op->getOperand(i)))
      return {};
  Value input = op->getOperand(0);
  if (!haveSameType(input, op->getResult(0)))
    return {};
  return input;
}

const OpDef clipDef = {
    {"onnx.Clip", clipOperands, clipResults, {}, OpTrait::Pure},
    inferClip,
    evalClip,
    foldClip,
};

} // namespace

void appendClipOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&clipDef);
}

} // namespace onyx::onnx

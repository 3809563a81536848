//===- QuantizedContraction.cpp - Integer and QLinear MatMul and Conv -----===//
//
// The contractions of 8-bit quantized models (opset 10; QLinearMatMul's
// opset 21 is the same computation):
//
//   MatMulInteger: Y = (A - a_zp) x (B - b_zp)                      (i32)
//   ConvInteger:   Y = conv(X - x_zp, W - w_zp)                     (i32)
//   QLinearMatMul: y = saturate(round((a - a_zp) x (b - b_zp)
//                                     * a_scale * b_scale / y_scale) + y_zp)
//   QLinearConv:   y = saturate(round((conv(x - x_zp, w - w_zp) + B)
//                                     * x_scale * w_scale / y_scale) + y_zp)
//
// with ui8 or i8 operands, products accumulated in 32 bits (wrapping), the
// rescaling multiplier a_scale * b_scale / y_scale computed in f32 and
// applied in double, and rounding half to even, as ONNX's reference
// implementation and ONNX Runtime do. A zero point or scale is one value,
// one per row of A (M values, or A's shape with K as 1) and per column of B
// (N values, or B's shape with K as 1), or for a weight one per output
// channel. Padding of a convolution pads the shifted input with zeros (the
// input's zero point).
//
// On Vulkan these are expanded into Cast, Sub, MatMul or Conv in f32 and the
// requantization (expandQuantizeOp, Quantize.cpp): exact while every partial
// sum stays below 2^24.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Contraction.h"

#include "ir/Operation.h"

#include <algorithm>
#include <cmath>

namespace onyx::onnx {

namespace {

bool is8Bit(ElementType t) {
  return t == ElementType::U8 || t == ElementType::I8;
}

LogicalResult check8Bit(InferState &s, unsigned i) {
  if (is8Bit(s.getElementKind(i)))
    return success();
  return s.emitOperandError(i)
         << "must have element type ui8 or i8, got " << s.getElementType(i);
}

/// Checks that zero point `zp`, when given, has the element type of the
/// operand `x` it shifts.
LogicalResult checkZeroPointType(InferState &s, unsigned zp, unsigned x) {
  if (!s.hasOperand(zp) || s.getElementKind(zp) == s.getElementKind(x))
    return success();
  return s.emitOperandError(zp)
         << "must have the element type of '" << s.getOperandName(x) << "' ("
         << s.getElementType(x) << "), got " << s.getElementType(zp);
}

bool isOneValue(ArrayRef<int64_t> shape) {
  return shape.size() <= 1 &&
         llvm::all_of(shape, [](int64_t d) { return d == 1; });
}

bool fits(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

/// How a matrix operand's zero point or scale varies.
enum class Along { Row, Column };

/// Checks operand `p`, a zero point or scale of matrix operand `m` (A's
/// along its rows, B's along its columns): one value, one per row (column)
/// as a 1-D tensor, or of `m`'s rank with 1 for K and each other dimension
/// 1 or `m`'s.
LogicalResult checkMatrixParam(InferState &s, unsigned p, unsigned m,
                               Along along) {
  if (!s.hasOperand(p))
    return success();
  ArrayRef<int64_t> shape = s.getShape(p), ms = s.getShape(m);
  if (isOneValue(shape))
    return success();
  int64_t rank = ms.size();
  bool ok = rank >= 2;
  if (ok && shape.size() == 1) {
    ok = fits(shape[0], along == Along::Row ? ms[rank - 2] : ms[rank - 1]);
  } else if (ok) {
    int64_t k = along == Along::Row ? rank - 1 : rank - 2;
    ok = int64_t(shape.size()) == rank;
    for (int64_t d = 0; ok && d < rank; ++d)
      ok = d == k ? shape[d] == 1 : shape[d] == 1 || fits(shape[d], ms[d]);
  }
  if (ok)
    return success();
  return s.emitOperandError(p)
         << "must be one value, or one per "
         << (along == Along::Row ? "row" : "column") << " of '"
         << s.getOperandName(m) << "' (" << s.getType(m)
         << ") as a 1-D tensor or of its rank with "
         << (along == Along::Row ? "[..., M, 1]" : "[..., 1, N]") << ", got "
         << s.getType(p);
}

/// Checks operand `p`, a weight's zero point or scale: one value or one per
/// output channel (`filters`).
LogicalResult checkChannelParam(InferState &s, unsigned p, int64_t filters) {
  if (!s.hasOperand(p))
    return success();
  ArrayRef<int64_t> shape = s.getShape(p);
  if (isOneValue(shape) || (shape.size() == 1 && fits(shape[0], filters)))
    return success();
  return s.emitOperandError(p)
         << "must be one value or one per output channel (" << filters
         << "), got " << s.getType(p);
}

/// Checks that operand `p` is one value.
LogicalResult checkOneValue(InferState &s, unsigned p) {
  if (!s.hasOperand(p) || isOneValue(s.getShape(p)))
    return success();
  return s.emitOperandError(p)
         << "must be one value (per tensor), got " << s.getType(p);
}

/// Checks that scale `scale` is a float and has the shape of its zero point
/// `zp`.
LogicalResult checkScale(InferState &s, unsigned scale, unsigned zp) {
  if (failed(s.checkFloat(scale)))
    return failure();
  if (s.getShape(scale) == s.getShape(zp) ||
      (isOneValue(s.getShape(scale)) && isOneValue(s.getShape(zp))))
    return success();
  return s.emitOperandError(scale)
         << "must have the shape of '" << s.getOperandName(zp) << "' ("
         << s.getType(zp) << "), got " << s.getType(scale);
}

//===----------------------------------------------------------------------===//
// Evaluation helpers
//===----------------------------------------------------------------------===//

/// `param` (of a matrix operand of rank `rank`) shaped to broadcast against
/// the operand and the product: one value as a scalar, a row's 1-D values
/// as [M, 1].
Tensor shapeMatrixParam(const Tensor &param, Along along) {
  if (param.getNumElements() == 1)
    return param.reshape({});
  if (param.getRank() == 1 && along == Along::Row)
    return param.reshape({param.getShape()[0], 1});
  return param;
}

/// A weight's `param` shaped to broadcast along the output channels of a
/// tensor of rank `rank` whose channel axis is `axis`.
Tensor shapeChannelParam(const Tensor &param, int64_t rank, int64_t axis) {
  if (param.getNumElements() == 1)
    return param.reshape({});
  SmallVector<int64_t> shape(rank - axis, 1);
  shape[0] = param.getNumElements();
  return param.reshape(shape);
}

/// `x` minus `zp` (already shaped to broadcast; absent: 0) in i64.
Tensor shift(const Tensor &x, const Tensor &zp) {
  Tensor out = convertTensor(x, ElementType::I64);
  if (!zp)
    return out;
  Tensor z = broadcastTo(convertTensor(zp, ElementType::I64), x.getShape());
  MutableArrayRef<int64_t> o = out.getMutableValues<int64_t>();
  ArrayRef<int64_t> zv = z.getValues<int64_t>();
  for (auto [v, zpv] : llvm::zip(o, zv))
    v -= zpv;
  return out;
}

/// An accumulated sum wrapped to 32 bits, as an i32 accumulator holds it.
int64_t wrap32(int64_t v) { return int64_t(int32_t(uint32_t(uint64_t(v)))); }

/// The rescaling multipliers, per element of a result of `shape`:
/// `a * b / y` in f32, each operand broadcast to `shape`.
SmallVector<float> getMultipliers(const Tensor &a, const Tensor &b,
                                  const Tensor &y, ArrayRef<int64_t> shape) {
  Tensor af = broadcastTo(convertTensor(a, ElementType::F32), shape);
  Tensor bf = broadcastTo(convertTensor(b, ElementType::F32), shape);
  float yv = float(y.getDouble(0));
  SmallVector<float> m(getNumElements(shape));
  for (auto [i, v] : llvm::enumerate(m))
    v = af.getValues<float>()[i] * bf.getValues<float>()[i] / yv;
  return m;
}

/// saturate(round_half_even(acc * multiplier) + zp) for each element, into
/// a tensor of `type` (ui8 or i8).
Tensor requantize(ArrayRef<int64_t> acc, ArrayRef<float> multipliers,
                  const Tensor &zp, ElementType type, ArrayRef<int64_t> shape) {
  double lo = type == ElementType::U8 ? 0 : -128;
  double hi = type == ElementType::U8 ? 255 : 127;
  double z = zp ? zp.getDouble(0) : 0.0;
  SmallVector<int64_t> values(acc.size());
  for (auto [i, v] : llvm::enumerate(values)) {
    double q = std::nearbyint(double(acc[i]) * double(multipliers[i])) + z;
    // NaN (from a NaN scale) gives the minimum, as in quantize.
    v = int64_t(std::isnan(q) ? lo : std::clamp(q, lo, hi));
  }
  return Tensor::fromInts(type, shape, values);
}

const Tensor &inputOrNone(EvalState &s, unsigned i) {
  static const Tensor none;
  return s.hasInput(i) ? s.input(i) : none;
}

/// The i64 product (wrapped to 32 bits) of the shifted matrices.
Tensor multiplyShifted(EvalState &s, unsigned a, unsigned aZp, unsigned b,
                       unsigned bZp) {
  Tensor as = shift(s.input(a), s.hasInput(aZp)
                                    ? shapeMatrixParam(s.input(aZp), Along::Row)
                                    : Tensor());
  Tensor bs =
      shift(s.input(b), s.hasInput(bZp)
                            ? shapeMatrixParam(s.input(bZp), Along::Column)
                            : Tensor());
  Tensor c = multiplyMatrices(as, bs);
  for (int64_t &v : c.getMutableValues<int64_t>())
    v = wrap32(v);
  return c;
}

/// The i64 result (wrapped to 32 bits) of the shifted convolution.
FailureOr<Tensor> convolveShifted(EvalState &s, unsigned x, unsigned xZp,
                                  unsigned w, unsigned wZp,
                                  const Tensor &bias) {
  Tensor xs = shift(s.input(x), inputOrNone(s, xZp));
  Tensor wzp;
  if (s.hasInput(wZp))
    wzp = shapeChannelParam(s.input(wZp), s.input(w).getRank(), 0);
  Tensor ws = shift(s.input(w), wzp);
  FailureOr<Tensor> out = convolve(s, xs, ws, bias);
  if (failed(out))
    return failure();
  Tensor result = convertTensor(*out, ElementType::I64);
  for (int64_t &v : result.getMutableValues<int64_t>())
    v = wrap32(v);
  return result;
}

//===----------------------------------------------------------------------===//
// MatMulInteger
//===----------------------------------------------------------------------===//

const ValueSpec matMulIntegerOperands[] = {
    {"A"},
    {"B"},
    {"a_zero_point", Presence::Optional},
    {"b_zero_point", Presence::Optional}};
const ValueSpec integerResults[] = {{"Y"}};

LogicalResult inferMatMulShape(InferState &s, unsigned a, unsigned b,
                               SmallVector<int64_t> &shape) {
  std::string why;
  std::optional<SmallVector<int64_t>> result =
      getMatMulShape(s.getShape(a), s.getShape(b), why);
  if (!result)
    return s.emitError() << "cannot multiply " << s.getType(a) << " by "
                         << s.getType(b) << ": " << why;
  shape = *result;
  return success();
}

LogicalResult inferMatMulInteger(InferState &s) {
  SmallVector<int64_t> shape;
  if (failed(check8Bit(s, 0)) || failed(check8Bit(s, 1)) ||
      failed(checkZeroPointType(s, 2, 0)) ||
      failed(checkZeroPointType(s, 3, 1)) ||
      failed(checkMatrixParam(s, 2, 0, Along::Row)) ||
      failed(checkMatrixParam(s, 3, 1, Along::Column)) ||
      failed(inferMatMulShape(s, 0, 1, shape)))
    return failure();
  s.addResult(shape, getIRType(s.getContext(), ElementType::I32));
  return success();
}

LogicalResult evalMatMulInteger(EvalState &s) {
  Tensor c = multiplyShifted(s, 0, 2, 1, 3);
  s.addOutput(convertTensor(c, ElementType::I32));
  return success();
}

//===----------------------------------------------------------------------===//
// QLinearMatMul
//===----------------------------------------------------------------------===//

const ValueSpec qlinearMatMulOperands[] = {
    {"a"},       {"a_scale"},      {"a_zero_point"}, {"b"},
    {"b_scale"}, {"b_zero_point"}, {"y_scale"},      {"y_zero_point"}};
const ValueSpec qlinearResults[] = {{"y"}};

LogicalResult inferQLinearMatMul(InferState &s) {
  SmallVector<int64_t> shape;
  if (failed(check8Bit(s, 0)) || failed(check8Bit(s, 3)) ||
      failed(check8Bit(s, 7)) || failed(checkZeroPointType(s, 2, 0)) ||
      failed(checkZeroPointType(s, 5, 3)) || failed(checkScale(s, 1, 2)) ||
      failed(checkScale(s, 4, 5)) || failed(checkScale(s, 6, 7)) ||
      failed(checkMatrixParam(s, 2, 0, Along::Row)) ||
      failed(checkMatrixParam(s, 5, 3, Along::Column)) ||
      failed(checkOneValue(s, 7)) || failed(inferMatMulShape(s, 0, 3, shape)))
    return failure();
  s.addResult(shape, s.getElementType(7));
  return success();
}

LogicalResult evalQLinearMatMul(EvalState &s) {
  Tensor c = multiplyShifted(s, 0, 2, 3, 5);
  SmallVector<float> m = getMultipliers(
      shapeMatrixParam(s.input(1), Along::Row),
      shapeMatrixParam(s.input(4), Along::Column), s.input(6), c.getShape());
  s.addOutput(requantize(c.getValues<int64_t>(), m, s.input(7),
                         s.input(7).getElementType(), c.getShape()));
  return success();
}

//===----------------------------------------------------------------------===//
// ConvInteger
//===----------------------------------------------------------------------===//

const ValueSpec convIntegerOperands[] = {{"x"},
                                         {"w"},
                                         {"x_zero_point", Presence::Optional},
                                         {"w_zero_point", Presence::Optional}};

LogicalResult inferConvInteger(InferState &s) {
  if (failed(check8Bit(s, 0)) || failed(check8Bit(s, 1)) ||
      failed(checkZeroPointType(s, 2, 0)) ||
      failed(checkZeroPointType(s, 3, 1)) || failed(checkOneValue(s, 2)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = inferConvShape(s, 0, 1);
  if (failed(shape) || failed(checkChannelParam(s, 3, (*shape)[1])))
    return failure();
  s.addResult(*shape, getIRType(s.getContext(), ElementType::I32));
  return success();
}

LogicalResult evalConvInteger(EvalState &s) {
  FailureOr<Tensor> out = convolveShifted(s, 0, 2, 1, 3, Tensor());
  if (failed(out))
    return failure();
  s.addOutput(convertTensor(*out, ElementType::I32));
  return success();
}

//===----------------------------------------------------------------------===//
// QLinearConv
//===----------------------------------------------------------------------===//

const ValueSpec qlinearConvOperands[] = {
    {"x"},       {"x_scale"},      {"x_zero_point"},
    {"w"},       {"w_scale"},      {"w_zero_point"},
    {"y_scale"}, {"y_zero_point"}, {"B", Presence::Optional}};

LogicalResult inferQLinearConv(InferState &s) {
  if (failed(check8Bit(s, 0)) || failed(check8Bit(s, 3)) ||
      failed(check8Bit(s, 7)) || failed(checkZeroPointType(s, 2, 0)) ||
      failed(checkZeroPointType(s, 5, 3)) || failed(checkScale(s, 1, 2)) ||
      failed(checkScale(s, 4, 5)) || failed(checkScale(s, 6, 7)) ||
      failed(checkOneValue(s, 2)) || failed(checkOneValue(s, 7)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = inferConvShape(s, 0, 3);
  if (failed(shape))
    return failure();
  int64_t filters = (*shape)[1];
  if (failed(checkChannelParam(s, 5, filters)))
    return failure();
  if (s.hasOperand(8)) {
    if (s.getElementKind(8) != ElementType::I32 || s.getRank(8) != 1 ||
        !fits(s.getShape(8)[0], filters))
      return s.emitOperandError(8)
             << "must be an i32 tensor of one value per output channel ("
             << filters << "), got " << s.getType(8);
  }
  s.addResult(*shape, s.getElementType(7));
  return success();
}

LogicalResult evalQLinearConv(EvalState &s) {
  FailureOr<Tensor> acc = convolveShifted(s, 0, 2, 3, 5, inputOrNone(s, 8));
  if (failed(acc))
    return failure();
  ArrayRef<int64_t> shape = acc->getShape();
  SmallVector<float> m =
      getMultipliers(s.input(1), shapeChannelParam(s.input(4), shape.size(), 1),
                     s.input(6), shape);
  s.addOutput(requantize(acc->getValues<int64_t>(), m, s.input(7),
                         s.input(7).getElementType(), shape));
  return success();
}

const OpDef matMulIntegerDef = {{"onnx.MatMulInteger",
                                 matMulIntegerOperands,
                                 integerResults,
                                 {},
                                 OpTrait::Pure},
                                inferMatMulInteger,
                                evalMatMulInteger};
const OpDef qlinearMatMulDef = {{"onnx.QLinearMatMul",
                                 qlinearMatMulOperands,
                                 qlinearResults,
                                 {},
                                 OpTrait::Pure},
                                inferQLinearMatMul,
                                evalQLinearMatMul};
const OpDef convIntegerDef = {{"onnx.ConvInteger", convIntegerOperands,
                               integerResults, convAttrs, OpTrait::Pure},
                              inferConvInteger,
                              evalConvInteger};
const OpDef qlinearConvDef = {{"onnx.QLinearConv", qlinearConvOperands,
                               qlinearResults, convAttrs, OpTrait::Pure},
                              inferQLinearConv,
                              evalQLinearConv};

} // namespace

void appendQuantizedContractionOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&matMulIntegerDef);
  defs.push_back(&qlinearMatMulDef);
  defs.push_back(&convIntegerDef);
  defs.push_back(&qlinearConvDef);
}

} // namespace onyx::onnx

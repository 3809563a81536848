//===- Quantize.cpp - QuantizeLinear, DequantizeLinear, dynamic -----------===//
//
// Linear quantization as ONNX defines it (opsets 10 to 21):
//
//   DequantizeLinear: y = (x - zero_point) * scale
//   QuantizeLinear:   y = saturate(round(x / scale) + zero_point)
//
// rounding half to even, saturating to the integer type's range. The scale
// (and the zero point, of the same shape) is one value for the tensor, one
// per index of `axis` (a 1-D scale), or, with `block_size`, one per block of
// `block_size` consecutive indices of `axis` (a scale of x's rank whose axis
// is the number of blocks). DynamicQuantizeLinear computes a uint8 scale
// and zero point from the tensor's range (which always includes 0) and
// quantizes with them. The arithmetic is in f32, as ONNX Runtime's.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/Quantize.h"

#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/OpDef.h"

#include "ir/Builder.h"
#include "ir/Operation.h"

#include <algorithm>
#include <cmath>

namespace onyx::onnx {

namespace {

bool isQuantizedType(ElementType t) {
  return t == ElementType::U8 || t == ElementType::I8 ||
         t == ElementType::U16 || t == ElementType::I16;
}

/// The range of a quantized type.
std::pair<double, double> getRange(ElementType t) {
  switch (t) {
  case ElementType::U8:
    return {0, 255};
  case ElementType::I8:
    return {-128, 127};
  case ElementType::U16:
    return {0, 65535};
  case ElementType::I16:
    return {-32768, 32767};
  default:
    return {-2147483648.0, 2147483647.0};
  }
}

/// Checks the shapes of the scale (operand 1) and zero point (operand 2)
/// against x (operand 0): one value, one per index of `axis`, or one per
/// block along `axis`.
LogicalResult checkScaleShape(InferState &s) {
  int64_t rank = s.getRank(0), axis = s.getAttrs().getInt("axis");
  int64_t blockSize = s.getAttrs().getInt("block_size");
  ArrayRef<int64_t> x = s.getShape(0), scale = s.getShape(1);
  if (failed(s.checkFloat(1)))
    return failure();
  if (s.hasOperand(2) && s.getShape(2) != scale)
    return s.emitOperandError(2)
           << "must have the scale's shape " << Type(s.getType(1)) << ", got "
           << Type(s.getType(2));
  if (blockSize < 0)
    return s.emitAttrError("block_size")
           << "must not be negative, got " << blockSize;
  if (blockSize == 0 && getNumElements(scale) == 1 && scale.size() <= 1)
    return success();
  // Blocks run along an axis of x, which a scalar does not have.
  if (blockSize > 0 && rank == 0)
    return s.emitAttrError("block_size")
           << "needs an operand 'x' of rank 1 or more, got "
           << Type(s.getType(0));
  if (failed(s.normalizeAxis(axis, std::max<int64_t>(rank, 1), "axis")))
    return failure();
  auto fits = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  if (blockSize == 0) {
    if (scale.size() != 1 || rank == 0 || !fits(scale[0], x[axis]))
      return s.emitOperandError(1)
             << "must be one value or one per index of axis " << axis << " of "
             << Type(s.getType(0)) << ", got " << Type(s.getType(1));
    return success();
  }
  bool ok = int64_t(scale.size()) == rank;
  for (int64_t i = 0; ok && i < rank; ++i)
    ok = i == axis ? ShapedType::isDynamic(x[i]) ||
                         fits(scale[i], (x[i] + blockSize - 1) / blockSize)
                   : fits(scale[i], x[i]);
  if (!ok)
    return s.emitOperandError(1)
           << "must have one value per block of " << blockSize << " along axis "
           << axis << " of " << Type(s.getType(0)) << ", got "
           << Type(s.getType(1));
  return success();
}

/// For each element of x (shape `x`), the index of its scale.
SmallVector<int64_t> getScaleIndices(ArrayRef<int64_t> x,
                                     ArrayRef<int64_t> scale, int64_t axis,
                                     int64_t blockSize) {
  int64_t n = getNumElements(x);
  SmallVector<int64_t> indices(n, 0);
  if (blockSize == 0 && getNumElements(scale) == 1 && scale.size() <= 1)
    return indices;
  int64_t rank = x.size();
  if (axis < 0)
    axis += rank;
  int64_t inner = getNumElements(x.drop_front(axis + 1));
  int64_t d = x[axis];
  int64_t blocks = blockSize ? scale[axis] : d;
  for (int64_t i = 0; i < n; ++i) {
    int64_t outer = i / (inner * d), a = (i / inner) % d, in = i % inner;
    int64_t b = blockSize ? a / blockSize : a;
    indices[i] = blockSize ? (outer * blocks + b) * inner + in : b;
  }
  return indices;
}

/// The zero point of `s`'s operand 2 as f32 values (zeros where absent).
SmallVector<float> getZeroPoints(EvalState &s, int64_t count) {
  SmallVector<float> zp(count, 0.0f);
  if (s.hasInput(2)) {
    Tensor t = convertTensor(s.input(2), ElementType::F32);
    ArrayRef<float> v = t.getValues<float>();
    zp.assign(v.begin(), v.end());
  }
  return zp;
}

/// Calls fn(i, x, scale, zeroPoint) for each element i of operand 0 of a
/// QuantizeLinear or DequantizeLinear, with x and the scale and zero point
/// that apply to it (by `axis` and `block_size`) as f32.
template <typename Fn> void forEachScaledElement(EvalState &s, Fn fn) {
  const Tensor &x = s.input(0), &scale = s.input(1);
  Tensor xf = convertTensor(x, ElementType::F32);
  Tensor sf = convertTensor(scale, ElementType::F32);
  ArrayRef<float> xv = xf.getValues<float>(), sv = sf.getValues<float>();
  SmallVector<float> zp = getZeroPoints(s, sf.getNumElements());
  SmallVector<int64_t> index = getScaleIndices(
      x.getShape(), scale.getShape(), s.getAttrs().getInt("axis"),
      s.getAttrs().getInt("block_size"));
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    fn(i, xv[i], sv[index[i]], zp[index[i]]);
}

//===----------------------------------------------------------------------===//
// DequantizeLinear
//===----------------------------------------------------------------------===//

const ValueSpec dequantizeOperands[] = {
    {"x"}, {"x_scale"}, {"x_zero_point", Presence::Optional}};
const ValueSpec dequantizeResults[] = {{"y"}};
const AttrSpec dequantizeAttrs[] = {intAttr("axis", 1),
                                    intAttr("block_size", 0)};

LogicalResult inferDequantize(InferState &s) {
  ElementType x = s.getElementKind(0);
  if (!isQuantizedType(x) && x != ElementType::I32)
    return s.emitOperandError(0)
           << "must have element type ui8, i8, ui16, i16 or i32, got "
           << s.getElementType(0);
  if (s.hasOperand(2) && s.getElementKind(2) != x)
    return s.emitOperandError(2)
           << "must have x's element type " << s.getElementType(0) << ", got "
           << s.getElementType(2);
  if (failed(checkScaleShape(s)))
    return failure();
  s.addResult(s.getShape(0), s.getElementType(1));
  return success();
}

LogicalResult evalDequantize(EvalState &s) {
  Tensor out(ElementType::F32, s.input(0).getShape());
  MutableArrayRef<float> o = out.getMutableValues<float>();
  forEachScaledElement(s, [&](int64_t i, float v, float scale, float zp) {
    o[i] = (v - zp) * scale;
  });
  s.addOutput(convertTensor(out, s.input(1).getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeLinear
//===----------------------------------------------------------------------===//

const ValueSpec quantizeOperands[] = {
    {"x"}, {"y_scale"}, {"y_zero_point", Presence::Optional}};
const ValueSpec quantizeResults[] = {{"y"}};
const AttrSpec quantizeAttrs[] = {intAttr("axis", 1), intAttr("block_size", 0),
                                  intAttr("output_dtype", 0),
                                  intAttr("saturate", 1)};

/// The quantized type: the zero point's, else `output_dtype`'s, else ui8.
FailureOr<ElementType> getQuantizedType(InferState &s) {
  int64_t code = s.getAttrs().getInt("output_dtype");
  std::optional<ElementType> attr;
  if (code != 0) {
    attr = fromOnnxDataType(code);
    if (!attr || !isQuantizedType(*attr))
      return s.emitAttrError("output_dtype")
             << "must name uint8, int8, uint16 or int16, got " << code;
  }
  if (!s.hasOperand(2))
    return attr.value_or(ElementType::U8);
  ElementType zp = s.getElementKind(2);
  if (!isQuantizedType(zp))
    return s.emitOperandError(2)
           << "must have element type ui8, i8, ui16 or i16, got "
           << s.getElementType(2);
  if (attr && *attr != zp)
    return s.emitAttrError("output_dtype")
           << "names " << getTypeName(*attr)
           << ", but the zero point has element type " << s.getElementType(2);
  return zp;
}

LogicalResult inferQuantize(InferState &s) {
  if (failed(s.checkFloat(0)) || failed(checkScaleShape(s)))
    return failure();
  FailureOr<ElementType> type = getQuantizedType(s);
  if (failed(type))
    return failure();
  s.addResult(s.getShape(0), getIRType(s.getContext(), *type));
  return success();
}

/// round(v) half to even, plus the zero point, saturated to `type`. NaN,
/// which no integer holds, gives the type's minimum (the Vulkan expansion's
/// result on lavapipe, and what converting through a saturated int32 gives).
int64_t quantize(float v, float zp, std::pair<double, double> range) {
  double q = double(std::nearbyint(v)) + zp;
  if (std::isnan(q))
    return int64_t(range.first);
  return int64_t(std::clamp(q, range.first, range.second));
}

LogicalResult evalQuantize(EvalState &s) {
  const Tensor &x = s.input(0);
  ElementType type = *s.getResultElementType(0);
  std::pair<double, double> range = getRange(type);
  SmallVector<int64_t> values(x.getNumElements());
  forEachScaledElement(s, [&](int64_t i, float v, float scale, float zp) {
    values[i] = quantize(v / scale, zp, range);
  });
  s.addOutput(Tensor::fromInts(type, x.getShape(), values));
  return success();
}

//===----------------------------------------------------------------------===//
// DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

const ValueSpec dynamicQuantizeOperands[] = {{"x"}};
const ValueSpec dynamicQuantizeResults[] = {
    {"y"}, {"y_scale"}, {"y_zero_point"}};

LogicalResult inferDynamicQuantize(InferState &s) {
  if (s.getElementKind(0) != ElementType::F32)
    return s.emitOperandError(0)
           << "must have element type f32, got " << s.getElementType(0);
  Context *ctx = s.getContext();
  s.addResult(s.getShape(0), getIRType(ctx, ElementType::U8));
  s.addResult({}, getIRType(ctx, ElementType::F32));
  s.addResult({}, getIRType(ctx, ElementType::U8));
  return success();
}

LogicalResult evalDynamicQuantize(EvalState &s) {
  const Tensor &x = s.input(0);
  ArrayRef<float> xv = x.getValues<float>();
  // The range always holds 0, so that 0 is exact.
  float lo = 0.0f, hi = 0.0f;
  for (float v : xv) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  float scale = (hi - lo) / 255.0f;
  std::pair<double, double> range = getRange(ElementType::U8);
  // All zeros: any scale quantizes them to 0 (ONNX divides by 0 here).
  float zp = scale == 0.0f ? 0.0f : float(quantize(-lo / scale, 0.0f, range));
  SmallVector<int64_t> values(xv.size());
  for (auto [i, v] : llvm::enumerate(xv))
    values[i] = scale == 0.0f ? 0 : quantize(v / scale, zp, range);
  s.addOutput(Tensor::fromInts(ElementType::U8, x.getShape(), values));
  s.addOutput(Tensor::fromDoubles(ElementType::F32, {}, {double(scale)}));
  s.addOutput(Tensor::fromInts(ElementType::U8, {}, {int64_t(zp)}));
  return success();
}

const OpDef dequantizeDef = {{"onnx.DequantizeLinear", dequantizeOperands,
                              dequantizeResults, dequantizeAttrs,
                              OpTrait::Pure},
                             inferDequantize,
                             evalDequantize};
const OpDef quantizeDef = {{"onnx.QuantizeLinear", quantizeOperands,
                            quantizeResults, quantizeAttrs, OpTrait::Pure},
                           inferQuantize,
                           evalQuantize};
const OpDef dynamicQuantizeDef = {{"onnx.DynamicQuantizeLinear",
                                   dynamicQuantizeOperands,
                                   dynamicQuantizeResults,
                                   {},
                                   OpTrait::Pure},
                                  inferDynamicQuantize,
                                  evalDynamicQuantize};

//===----------------------------------------------------------------------===//
// Expansion into float elementwise ops
//===----------------------------------------------------------------------===//

class Expander {
public:
  Expander(Operation *op) : op(op), b(op->getContext()), loc(op->getLoc()) {
    b.setInsertionPoint(op);
  }

  /// Null if an operand is (an earlier op failed, having reported why).
  Value create(StringRef name, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return createChained(b, loc, name, operands, attrs);
  }
  Value cast(Value v, ElementType type) {
    if (!v)
      return v;
    if (getElementType(cast_(v).getElementType()) == type)
      return v;
    return create("onnx.Cast", {v},
                  {{b.getStringAttr("to"),
                    TypeAttr::get(getIRType(b.getContext(), type))}});
  }
  Value constant(double value) {
    return createConstant(b, loc,
                          Tensor::fromDoubles(ElementType::F32, {}, {value})
                              .toAttr(b.getContext()));
  }
  /// A scale or zero point, as f32, shaped to broadcast against x along
  /// `axis` where it has one value per index.
  Value broadcastable(Value param, int64_t rank, int64_t axis) {
    Value f = cast(param, ElementType::F32);
    auto type = cast_(param);
    if (!f || getNumElements(type.getShape()) == 1 || type.getRank() != 1)
      return f;
    SmallVector<int64_t> shape(rank, 1);
    shape[axis] = type.getShape()[0];
    return reshape(f, shape);
  }
  /// A scale or zero point of one value per block of `blockSize` indices
  /// along `axis` (x's rank, the number of blocks along `axis`) as f32 of
  /// x's shape for `size` indices along `axis`: each block's value
  /// repeated over its indices, a Gather of index a / blockSize at each a.
  Value perBlock(Value param, int64_t axis, int64_t blockSize, int64_t size) {
    // The scale and the zero point share the block numbers.
    if (!blockNumbers) {
      SmallVector<int64_t> numbers(size);
      for (int64_t a = 0; a < size; ++a)
        numbers[a] = a / blockSize;
      blockNumbers =
          createConstant(b, loc,
                         Tensor::fromInts(ElementType::I64, {size}, numbers)
                             .toAttr(b.getContext()));
    }
    return cast(create("onnx.Gather", {param, blockNumbers},
                       {{b.getStringAttr("axis"), b.getI64IntegerAttr(axis)}}),
                ElementType::F32);
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    if (!v)
      return v;
    Value dims = createConstant(
        b, loc,
        Tensor::fromInts(ElementType::I64, {int64_t(shape.size())}, shape)
            .toAttr(b.getContext()));
    return create("onnx.Reshape", {v, dims});
  }
  /// A zero point or scale of a contraction as f32: one value as a scalar,
  /// one per row of A (1-D) as [M, 1], one per output channel as [M, 1,
  /// ...] for a tensor of rank `rank` whose channel axis is `channelAxis`
  /// (-1: not a channel parameter); anything else as it is (it broadcasts).
  Value contractionParam(Value param, bool perRow, int64_t rank = 0,
                         int64_t channelAxis = -1) {
    Value f = cast(param, ElementType::F32);
    auto type = cast_(param);
    if (getNumElements(type.getShape()) == 1)
      return type.getRank() == 0 ? f : reshape(f, {});
    if (type.getRank() != 1)
      return f;
    if (channelAxis >= 0) {
      SmallVector<int64_t> shape(rank - channelAxis, 1);
      shape[0] = type.getShape()[0];
      return reshape(f, shape);
    }
    return perRow ? reshape(f, {type.getShape()[0], 1}) : f;
  }

  Operation *op;
  OpBuilder b;
  Location loc;

private:
  Value blockNumbers;
  static RankedTensorType cast_(Value v) {
    return llvm::cast<RankedTensorType>(v.getType());
  }
};

/// MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv as f32:
/// the operands shifted by their zero points, the MatMul or Conv (whose
/// zero padding pads the shifted input with its zero point), and a Cast to
/// i32 or the requantization. Exact while every partial sum stays below
/// 2^24; the multiplier is applied in f32 where the reference evaluator
/// applies it in double, which moves a result by one only where the exact
/// product lies within f32's rounding of a half.
LogicalResult expandContraction(Operation *op, StringRef name) {
  bool qlinear = name.starts_with("onnx.QLinear");
  bool conv = name.contains("Conv");
  unsigned x = 0, xZp = 2, w = qlinear ? 3 : 1, wZp = qlinear ? 5 : 3;
  auto has = [&](unsigned i) {
    return i < op->getNumOperands() && !isNoValue(op->getOperand(i));
  };
  Expander e(op);
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t wRank = cast<RankedTensorType>(op->getOperand(w).getType()).getRank();
  Value xf = e.cast(op->getOperand(x), ElementType::F32);
  if (has(xZp))
    xf = e.create("onnx.Sub",
                  {xf, e.contractionParam(op->getOperand(xZp), true)});
  Value wf = e.cast(op->getOperand(w), ElementType::F32);
  if (has(wZp))
    wf = e.create(
        "onnx.Sub",
        {wf, conv ? e.contractionParam(op->getOperand(wZp), false, wRank, 0)
                  : e.contractionParam(op->getOperand(wZp), false)});
  Value acc;
  if (conv) {
    SmallVector<Value> operands = {xf, wf};
    if (qlinear && has(8))
      operands.push_back(e.cast(op->getOperand(8), ElementType::F32));
    SmallVector<NamedAttribute> attrs(op->getAttrs().begin(),
                                      op->getAttrs().end());
    acc = e.create("onnx.Conv", operands, attrs);
  } else {
    acc = e.create("onnx.MatMul", {xf, wf});
  }
  Value result;
  if (!qlinear) {
    result = e.cast(acc, ElementType::I32);
  } else {
    Value xScale = e.contractionParam(op->getOperand(1), true);
    Value wScale =
        conv ? e.contractionParam(op->getOperand(4), false, out.getRank(), 1)
             : e.contractionParam(op->getOperand(4), false);
    Value multiplier =
        e.create("onnx.Div", {e.create("onnx.Mul", {xScale, wScale}),
                              e.contractionParam(op->getOperand(6), false)});
    ElementType type = *getElementType(out.getElementType());
    std::pair<double, double> range = getRange(type);
    Value q = e.create("onnx.Round", {e.create("onnx.Mul", {acc, multiplier})});
    q = e.create("onnx.Add", {q, e.contractionParam(op->getOperand(7), false)});
    q = e.create("onnx.Clip",
                 {q, e.constant(range.first), e.constant(range.second)});
    result = e.cast(q, type);
  }
  if (!result)
    return failure();
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

} // namespace

LogicalResult expandQuantizeOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "onnx.MatMulInteger" || name == "onnx.ConvInteger" ||
      name == "onnx.QLinearMatMul" || name == "onnx.QLinearConv")
    return expandContraction(op, name);
  OpAttrs attrs(op);
  bool dynamic = name == "onnx.DynamicQuantizeLinear";
  Expander e(op);
  auto x = cast<RankedTensorType>(op->getOperand(0).getType());
  int64_t rank = x.getRank(), axis = 0, blockSize = 0;
  if (!dynamic) {
    axis = attrs.getInt("axis");
    if (axis < 0)
      axis += rank;
    blockSize = attrs.getInt("block_size");
  }
  // A scale (and zero point) per block is repeated over each block's
  // indices first, which needs their number.
  if (blockSize && ShapedType::isDynamic(x.getShape()[axis]))
    return op->emitOpError()
           << "quantizes per block along axis " << axis
           << ", whose size is known only at run time; on the GPU the "
              "blocks' scales are repeated over a size known when compiling "
              "(bind the model's symbolic dimensions)";
  auto param = [&](unsigned i) -> Value {
    Value v = op->getOperand(i);
    return blockSize ? e.perBlock(v, axis, blockSize, x.getShape()[axis])
                     : e.broadcastable(v, rank, axis);
  };
  Value xf = e.cast(op->getOperand(0), ElementType::F32);
  SmallVector<Value> results;
  if (name == "onnx.DequantizeLinear") {
    Value scale = param(1);
    Value shifted = xf;
    if (op->getNumOperands() > 2 && !isNoValue(op->getOperand(2)))
      shifted = e.create("onnx.Sub", {xf, param(2)});
    Value y = e.create("onnx.Mul", {shifted, scale});
    auto out = cast<RankedTensorType>(op->getResult(0).getType());
    results.push_back(e.cast(y, *getElementType(out.getElementType())));
  } else {
    Value scale, zp;
    if (dynamic) {
      // The range of x and 0, over 255 steps; the zero point is where 0
      // falls, rounded.
      NamedAttribute keep = {e.b.getStringAttr("keepdims"),
                             e.b.getI64IntegerAttr(0)};
      Value zero = e.constant(0.0);
      Value lo = e.create("onnx.Min",
                          {e.create("onnx.ReduceMin", {xf}, {keep}), zero});
      Value hi = e.create("onnx.Max",
                          {e.create("onnx.ReduceMax", {xf}, {keep}), zero});
      scale = e.create("onnx.Div",
                       {e.create("onnx.Sub", {hi, lo}), e.constant(255.0)});
      zp = e.create("onnx.Clip",
                    {e.create("onnx.Round",
                              {e.create("onnx.Div",
                                        {e.create("onnx.Neg", {lo}), scale})}),
                     zero, e.constant(255.0)});
    } else {
      scale = param(1);
      if (op->getNumOperands() > 2 && !isNoValue(op->getOperand(2)))
        zp = param(2);
    }
    auto out = cast<RankedTensorType>(op->getResult(0).getType());
    ElementType type = *getElementType(out.getElementType());
    std::pair<double, double> range = getRange(type);
    Value q = e.create("onnx.Round", {e.create("onnx.Div", {xf, scale})});
    if (zp)
      q = e.create("onnx.Add", {q, zp});
    q = e.create("onnx.Clip",
                 {q, e.constant(range.first), e.constant(range.second)});
    results.push_back(e.cast(q, type));
    if (dynamic) {
      results.push_back(scale);
      results.push_back(e.cast(zp, ElementType::U8));
    }
  }
  if (llvm::is_contained(results, Value()))
    return failure();
  replaceAndErase(op, results);
  return success();
}

void appendQuantizeOps(std::vector<const OpDef *> &defs) {
  defs.push_back(&dequantizeDef);
  defs.push_back(&quantizeDef);
  defs.push_back(&dynamicQuantizeDef);
}

} // namespace onyx::onnx

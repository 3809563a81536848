//===- ShapeOps.cpp - Constants, shapes, Range, Dropout -------------------===//
//
// The ops that make constants or compute on shapes. Shape and Size of a
// statically shaped tensor fold to constants even though their operand is
// not one, which is what lets shape-computation chains (Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape) fold away once dimensions are bound.
// Dropout computes inference mode only: it passes its input through and its
// mask is all true; training mode is reported as unsupported.
//
// onnx.Constant prints in onnx-mlir's custom form
//   %0 = onnx.Constant dense<[1, 2]> : tensor<2xi64>
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OpDef.h"

#include "ir/OpAsm.h"
#include "ir/Operation.h"

#include <cmath>

namespace onyx::onnx {

namespace {

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

const ValueSpec constantResults[] = {{"output"}};
const AttrSpec constantAttrs[] = {requiredAttr("value", AttrType::Tensor)};

LogicalResult inferConstant(InferState &s) {
  DenseElementsAttr value = s.getAttrs().getTensor("value");
  if (!getElementType(value.getElementType()))
    return s.emitAttrError("value")
           << "has unsupported element type " << value.getElementType();
  s.addResult(value.getType());
  return success();
}

LogicalResult evalConstant(EvalState &s) {
  std::optional<Tensor> t = Tensor::fromAttr(s.getAttrs().getTensor("value"));
  if (!t)
    return s.emitError() << "has an unsupported value";
  s.addOutput(std::move(*t));
  return success();
}

void printConstant(Operation *op, OpAsmPrinter &p) {
  p << " ";
  p.printAttribute(op->getAttr("value"));
  p.printOptionalAttrDict(op->getAttrs(), {"value"});
}

ParseResult parseConstant(OpAsmParser &parser, OperationState &state) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (parser.parseAttribute(value) ||
      parser.parseOptionalAttrDict(state.attributes))
    return failure();
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return parser.emitError(loc, "expected a dense elements attribute");
  state.addAttribute("value", dense);
  state.addTypes(dense.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Shape and Size
//===----------------------------------------------------------------------===//

const ValueSpec shapeOperands[] = {{"data"}};
const ValueSpec shapeResults[] = {{"shape"}};
const AttrSpec shapeAttrs[] = {intAttr("start", 0),
                               optionalAttr("end", AttrType::Int)};
const ValueSpec sizeResults[] = {{"size"}};

/// The [start, end) range of dimensions Shape returns: negative values count
/// from the end, and both are clamped to [0, rank].
std::pair<int64_t, int64_t> getShapeRange(const OpAttrs &attrs, int64_t rank) {
  auto clamp = [&](int64_t v) {
    if (v < 0)
      v += rank;
    return std::clamp<int64_t>(v, 0, rank);
  };
  int64_t start = clamp(attrs.getInt("start"));
  int64_t end = attrs.has("end") ? clamp(attrs.getInt("end")) : rank;
  return {start, std::max(start, end)};
}

LogicalResult inferShape(InferState &s) {
  auto [start, end] = getShapeRange(s.getAttrs(), s.getRank(0));
  s.addResult({end - start}, IntegerType::get(s.getContext(), 64));
  return success();
}

LogicalResult evalShape(EvalState &s) {
  ArrayRef<int64_t> shape = s.input(0).getShape();
  auto [start, end] = getShapeRange(s.getAttrs(), shape.size());
  s.addOutput(Tensor::fromInts(ElementType::I64, {end - start},
                               shape.slice(start, end - start)));
  return success();
}

/// Shape of a partially static tensor: its static dimensions are known.
std::optional<KnownInts> knownIntsOfShape(Operation *op, unsigned) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type)
    return std::nullopt;
  auto [start, end] = getShapeRange(OpAttrs(op), type.getRank());
  KnownInts known;
  for (int64_t d : type.getShape().slice(start, end - start))
    known.push_back(ShapedType::isDynamic(d) ? std::nullopt : std::optional(d));
  return known;
}

OpFoldResult foldShape(Operation *op, ArrayRef<Attribute>) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type)
    return {};
  auto [start, end] = getShapeRange(OpAttrs(op), type.getRank());
  ArrayRef<int64_t> dims = type.getShape().slice(start, end - start);
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return {};
  return Attribute(Tensor::fromInts(ElementType::I64, {end - start}, dims)
                       .toAttr(op->getContext()));
}

LogicalResult inferSize(InferState &s) {
  s.addResult({}, IntegerType::get(s.getContext(), 64));
  return success();
}

LogicalResult evalSize(EvalState &s) {
  s.addOutput(
      Tensor::fromInts(ElementType::I64, {}, s.input(0).getNumElements()));
  return success();
}

OpFoldResult foldSize(Operation *op, ArrayRef<Attribute>) {
  auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!type || !type.hasStaticShape())
    return {};
  return Attribute(Tensor::fromInts(ElementType::I64, {}, type.getNumElements())
                       .toAttr(op->getContext()));
}

//===----------------------------------------------------------------------===//
// ConstantOfShape
//===----------------------------------------------------------------------===//

const ValueSpec constantOfShapeOperands[] = {{"input"}};
const AttrSpec constantOfShapeAttrs[] = {
    optionalAttr("value", AttrType::Tensor)};

/// The fill value: the `value` attribute's one element, or f32 zero.
Tensor getFillValue(const OpAttrs &attrs) {
  if (DenseElementsAttr value = attrs.getTensor("value"))
    if (std::optional<Tensor> t = Tensor::fromAttr(value))
      return *t;
  return Tensor(ElementType::F32, {1});
}

LogicalResult inferConstantOfShape(InferState &s) {
  if (s.getRank(0) != 1 || s.getElementKind(0) != ElementType::I64)
    return s.emitOperandError(0)
           << "must be a 1-D tensor of i64, got " << s.getType(0);
  DenseElementsAttr value = s.getAttrs().getTensor("value");
  if (value &&
      (value.getNumElements() != 1 || !getElementType(value.getElementType())))
    return s.emitAttrError("value")
           << "must hold one element of a supported type, got " << value;
  Type elementType =
      value ? value.getElementType() : Type(FloatType::getF32(s.getContext()));
  if (failed(s.getStaticLength(0, "the result's rank")))
    return failure();
  SmallVector<int64_t> shape;
  // Kept in a local: a range-for over `*temporary` would read a
  // destroyed optional.
  std::optional<KnownInts> known = s.getKnownInts(0);
  for (std::optional<int64_t> d : *known) {
    if (d && *d < 0)
      return s.emitOperandError(0) << "has a negative dimension " << *d;
    shape.push_back(d ? *d : ShapedType::kDynamic);
  }
  s.addResult(shape, elementType);
  return success();
}

LogicalResult evalConstantOfShape(EvalState &s) {
  SmallVector<int64_t> shape = s.input(0).toInts();
  for (int64_t d : shape)
    if (d < 0)
      return s.emitError() << "operand 'input' has a negative dimension " << d;
  Tensor fill = getFillValue(s.getAttrs());
  if (failed(s.checkResultSize(0, shape, fill.getElementType())))
    return failure();
  s.addOutput(broadcastTo(fill.reshape({}), shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Range
//===----------------------------------------------------------------------===//

const ValueSpec rangeOperands[] = {{"start"}, {"limit"}, {"delta"}};
const ValueSpec rangeResults[] = {{"output"}};

/// The number of elements of Range(start, limit, delta):
/// max(0, ceil((limit - start) / delta)), exactly for integers (in 128
/// bits: a span of int64 values can exceed int64), and for floats an error
/// where the bounds are not finite or the count does not fit in int64.
FailureOr<int64_t>
getRangeLength(const Tensor &start, const Tensor &limit, const Tensor &delta,
               llvm::function_ref<InFlightDiagnostic()> err) {
  if (!isFloat(start.getElementType())) {
    __int128 first = start.getInt(0), last = limit.getInt(0);
    __int128 step = delta.getInt(0);
    if (step == 0)
      return err() << "delta must not be 0";
    __int128 span = step > 0 ? last - first : first - last;
    __int128 magnitude = step > 0 ? step : -step;
    if (span <= 0)
      return 0;
    __int128 n = (span + magnitude - 1) / magnitude;
    if (n > INT64_MAX)
      return err() << "start " << start.getInt(0) << ", limit "
                   << limit.getInt(0) << " and delta " << delta.getInt(0)
                   << " give more elements than fit in 64 bits";
    return int64_t(n);
  }
  double first = start.getDouble(0), last = limit.getDouble(0);
  double step = delta.getDouble(0);
  if (step == 0)
    return err() << "delta must not be 0";
  double n = std::ceil((last - first) / step);
  if (std::isnan(n) || n >= 0x1p63)
    return err() << "start " << first << ", limit " << last << " and delta "
                 << step << " do not give a finite number of elements";
  return n <= 0 ? 0 : int64_t(n);
}

LogicalResult inferRange(InferState &s) {
  for (unsigned i = 0; i < 3; ++i) {
    if (failed(s.checkNumeric(i)) ||
        (i && failed(s.checkSameElementType(0, i))))
      return failure();
    if (s.getType(i).getNumElements() != 1 || s.getRank(i) > 1)
      return s.emitOperandError(i) << "must be a scalar, got " << s.getType(i);
  }
  SmallVector<Tensor, 3> values;
  for (unsigned i = 0; i < 3; ++i) {
    DenseElementsAttr attr = s.getConstant(i);
    std::optional<Tensor> t = attr ? Tensor::fromAttr(attr) : std::nullopt;
    if (!t) {
      // The length is known at run time.
      s.addResult({ShapedType::kDynamic}, s.getElementType(0));
      return success();
    }
    values.push_back(std::move(*t));
  }
  FailureOr<int64_t> n = getRangeLength(values[0], values[1], values[2],
                                        [&] { return s.emitError(); });
  if (failed(n))
    return failure();
  s.addResult({*n}, s.getElementType(0));
  return success();
}

LogicalResult evalRange(EvalState &s) {
  ElementType type = s.input(0).getElementType();
  double start = s.input(0).getDouble(0);
  double delta = s.input(2).getDouble(0);
  FailureOr<int64_t> n = getRangeLength(s.input(0), s.input(1), s.input(2),
                                        [&] { return s.emitError(); });
  if (failed(n) || failed(s.checkResultSize(0, {*n}, type)))
    return failure();
  Tensor out(type, {*n});
  // Integers step exactly; floats as start + i * delta in their own type.
  for (int64_t i = 0; i < *n; ++i) {
    if (isFloat(type))
      out.setDouble(i, start + double(i) * delta);
    else
      out.setInt(i, s.input(0).getInt(0) + i * s.input(2).getInt(0));
  }
  s.addOutput(std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

const ValueSpec dropoutOperands[] = {{"data"},
                                     {"ratio", Presence::Optional},
                                     {"training_mode", Presence::Optional}};
const ValueSpec dropoutResults[] = {{"output"}, {"mask", Presence::Optional}};
const AttrSpec dropoutAttrs[] = {optionalAttr("seed", AttrType::Int)};

LogicalResult inferDropout(InferState &s) {
  if (s.hasOperand(2)) {
    if (s.getElementKind(2) != ElementType::Bool)
      return s.emitOperandError(2)
             << "must be a tensor of i1, got " << s.getType(2);
    // A flag: one element (ONNX declares a scalar).
    if (s.getType(2).hasStaticShape() && s.getType(2).getNumElements() != 1)
      return s.emitOperandError(2)
             << "must have one element, got " << s.getType(2);
    DenseElementsAttr mode = s.getConstant(2);
    if (mode && mode.getNumElements() == 1 && !mode.getIntValue(0).isZero())
      return s.emitOperandError(2)
             << "is true: only inference mode is supported";
  }
  if (s.hasOperand(1) && failed(s.checkFloat(1)))
    return failure();
  s.addResult(s.getType(0));
  s.addResult(s.getShape(0), IntegerType::get(s.getContext(), 1));
  return success();
}

LogicalResult evalDropout(EvalState &s) {
  if (s.hasInput(2) && s.input(2).getNumElements() != 1)
    return s.emitError() << "training_mode must have one element, got "
                         << s.input(2).getNumElements();
  if (s.hasInput(2) && s.input(2).getInt(0) != 0)
    return s.emitError() << "only inference mode is supported";
  const Tensor &data = s.input(0);
  s.addOutput(data);
  Tensor mask(ElementType::Bool, data.getShape());
  for (bool &m : mask.getMutableValues<bool>())
    m = true;
  s.addOutput(std::move(mask));
  return success();
}

/// In inference mode Dropout is the identity and its mask all true. A
/// training_mode known only at run time stays for the evaluator to check.
LogicalResult removeDropout(Operation *op, PatternRewriter &rewriter) {
  Value data = op->getOperand(0);
  if (!haveSameType(data, op->getResult(0)))
    return failure();
  if (op->getNumOperands() > 2 && !isNoValue(op->getOperand(2))) {
    std::optional<SmallVector<int64_t>> mode =
        getConstantInts(op->getOperand(2));
    if (!mode || llvm::any_of(*mode, [](int64_t m) { return m != 0; }))
      return failure();
  }
  if (op->getNumResults() > 1 && !op->getResult(1).use_empty()) {
    auto type = dyn_cast<RankedTensorType>(op->getResult(1).getType());
    if (!type || !type.hasStaticShape())
      return failure();
    Tensor ones(ElementType::Bool, type.getShape());
    for (bool &m : ones.getMutableValues<bool>())
      m = true;
    rewriter.setInsertionPoint(op);
    Value mask = createConstant(rewriter, op->getLoc(),
                                ones.toAttr(rewriter.getContext()));
    rewriter.replaceOp(op, {data, mask});
    return success();
  }
  rewriter.replaceAllUsesWith(op->getResult(0), data);
  rewriter.eraseOp(op);
  return success();
}

const OpDef shapeOpDefs[] = {
    {{"onnx.Constant",
      {},
      constantResults,
      constantAttrs,
      OpTrait::Pure | OpTrait::ConstantLike},
     inferConstant,
     evalConstant,
     nullptr,
     nullptr,
     printConstant,
     parseConstant},
    {.schema = {"onnx.Shape", shapeOperands, shapeResults, shapeAttrs,
                OpTrait::Pure},
     .infer = inferShape,
     .evaluate = evalShape,
     .fold = foldShape,
     .knownInts = knownIntsOfShape},
    {{"onnx.Size", shapeOperands, sizeResults, {}, OpTrait::Pure},
     inferSize,
     evalSize,
     foldSize},
    {{"onnx.ConstantOfShape", constantOfShapeOperands, rangeResults,
      constantOfShapeAttrs, OpTrait::Pure},
     inferConstantOfShape,
     evalConstantOfShape},
    {{"onnx.Range", rangeOperands, rangeResults, {}, OpTrait::Pure},
     inferRange,
     evalRange},
    {{"onnx.Dropout", dropoutOperands, dropoutResults, dropoutAttrs,
      OpTrait::Pure},
     inferDropout,
     evalDropout,
     nullptr,
     [](PatternSet &patterns, Context *) {
       addPattern(patterns, "onnx.Dropout", removeDropout, "remove-dropout");
     }},
};

} // namespace

void appendShapeOps(std::vector<const OpDef *> &defs) {
  for (const OpDef &def : shapeOpDefs)
    defs.push_back(&def);
}

} // namespace onyx::onnx

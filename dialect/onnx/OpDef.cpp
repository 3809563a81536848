//===- OpDef.cpp - The op registry and helpers of op definitions ----------===//

#include "dialect/onnx/OpDef.h"

#include "ir/Operation.h"

#include "llvm/ADT/StringMap.h"

namespace onyx::onnx {

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

ArrayRef<const OpDef *> getOpDefs() {
  static const std::vector<const OpDef *> defs = [] {
    std::vector<const OpDef *> result;
    appendElementwiseOps(result);
    appendCastOps(result);
    appendClipOps(result);
    appendWhereOps(result);
    appendMatMulOps(result);
    appendBlockQuantizedOps(result);
    appendConvOps(result);
    appendConvTransposeOps(result);
    appendResizeOps(result);
    appendDepthSpaceOps(result);
    appendCumSumOps(result);
    appendOneHotOps(result);
    appendEinsumOps(result);
    appendPoolOps(result);
    appendNormalizationOps(result);
    appendRotaryOps(result);
    appendContribNormalizationOps(result);
    appendGroupQueryAttentionOps(result);
    appendAttentionOps(result);
    appendSoftmaxOps(result);
    appendReductionOps(result);
    appendReshapeOps(result);
    appendTransposeOps(result);
    appendConcatSplitOps(result);
    appendSliceOps(result);
    appendIndexingOps(result);
    appendTilePadOps(result);
    appendTriluOps(result);
    appendShapeOps(result);
    appendDataDependentOps(result);
    appendControlFlowOps(result);
    appendRecurrentOps(result);
    appendQuantizeOps(result);
    appendQuantizedContractionOps(result);
    llvm::sort(result, [](const OpDef *a, const OpDef *b) {
      return a->schema.name < b->schema.name;
    });
    return result;
  }();
  return defs;
}

const OpDef *lookupOpDef(StringRef opName) {
  static const llvm::StringMap<const OpDef *> byName = [] {
    llvm::StringMap<const OpDef *> map;
    for (const OpDef *def : getOpDefs())
      map[def->schema.name] = def;
    return map;
  }();
  return byName.lookup(opName);
}

const OpDef *lookupOpDef(Operation *op) {
  if (!op->isRegistered() || op->getName().getDialectNamespace() != "onnx")
    return nullptr;
  return static_cast<OnnxDialect *>(op->getDialect())->lookupDef(op->getInfo());
}

//===----------------------------------------------------------------------===//
// InferState
//===----------------------------------------------------------------------===//

InferState::InferState(Context *ctx, const OpDef &def,
                       ArrayRef<Type> operandTypes, DictionaryAttr attrs,
                       ArrayRef<Attribute> constants, Location loc,
                       unsigned resultCountHint, ArrayRef<Value> operands)
    : ctx(ctx), def(def), operandTypes(operandTypes), attrs(def.schema, attrs),
      constants(constants), loc(loc), resultCountHint(resultCountHint),
      operands(operands) {}

InFlightDiagnostic InferState::emitError() const {
  return onyx::emitError(loc) << "'" << def.schema.name << "' op ";
}

StringRef InferState::getOperandName(unsigned i) const {
  ArrayRef<ValueSpec> specs = def.schema.operands;
  return i < specs.size() ? specs[i].name : specs.back().name;
}

InFlightDiagnostic InferState::emitOperandError(unsigned i) const {
  return emitError() << "operand '" << getOperandName(i) << "' ";
}

InFlightDiagnostic InferState::emitAttrError(StringRef name) const {
  return emitError() << "attribute '" << name << "' ";
}

bool InferState::hasOperand(unsigned i) const {
  return i < operandTypes.size() && !isa<NoneType>(operandTypes[i]);
}

RankedTensorType InferState::getType(unsigned i) const {
  return cast<RankedTensorType>(operandTypes[i]);
}

ElementType InferState::getElementKind(unsigned i) const {
  return *onnx::getElementType(getElementType(i));
}

DenseElementsAttr InferState::getConstant(unsigned i) const {
  if (i >= constants.size())
    return {};
  return dyn_cast_or_null<DenseElementsAttr>(constants[i]);
}

std::optional<SmallVector<int64_t>>
InferState::getConstantInts(unsigned i) const {
  if (DenseElementsAttr attr = getConstant(i))
    if (std::optional<Tensor> t = Tensor::fromAttr(attr))
      return t->toInts();
  if (std::optional<KnownInts> known = getKnownInts(i))
    return getAllKnown(*known);
  return std::nullopt;
}

std::optional<KnownInts> InferState::getKnownInts(unsigned i) const {
  if (i < operands.size() && operands[i])
    return onnx::getKnownInts(operands[i]);
  if (DenseElementsAttr attr = getConstant(i))
    if (std::optional<Tensor> t = Tensor::fromAttr(attr))
      return toKnownInts(t->toInts());
  if (!hasOperand(i) || getRank(i) > 1 || !getType(i).hasStaticShape())
    return std::nullopt;
  return KnownInts(getType(i).getNumElements(), std::nullopt);
}

FailureOr<int64_t> InferState::getStaticLength(unsigned i, StringRef what) {
  int64_t n = getShape(i)[0];
  if (ShapedType::isDynamic(n))
    return emitOperandError(i) << "must have a static length, which gives "
                               << what << ", got " << getType(i);
  return n;
}

LogicalResult InferState::checkFloat(unsigned i) {
  if (isFloat(getElementKind(i)))
    return success();
  return emitOperandError(i)
         << "must have a float element type, got " << getElementType(i);
}

LogicalResult InferState::checkInteger(unsigned i) {
  ElementType t = getElementKind(i);
  if (isSignedInteger(t) || isUnsignedInteger(t))
    return success();
  return emitOperandError(i)
         << "must have an integer element type, got " << getElementType(i);
}

LogicalResult InferState::checkNumeric(unsigned i) {
  if (getElementKind(i) != ElementType::Bool)
    return success();
  return emitOperandError(i)
         << "must have a numeric element type, got " << getElementType(i);
}

LogicalResult InferState::checkSameElementType(unsigned i, unsigned j) {
  if (getElementType(i) == getElementType(j))
    return success();
  return emitOperandError(j)
         << "must have the element type of '" << getOperandName(i) << "' ("
         << getElementType(i) << "), got " << getElementType(j);
}

LogicalResult InferState::checkRank(unsigned i, int64_t rank) {
  if (getRank(i) == rank)
    return success();
  return emitOperandError(i)
         << "must have rank " << rank << ", got " << getType(i);
}

LogicalResult InferState::checkRankIn(unsigned i, ArrayRef<int64_t> ranks,
                                      StringRef layout) {
  if (llvm::is_contained(ranks, getRank(i)))
    return success();
  InFlightDiagnostic diag = emitOperandError(i);
  diag << "must have rank ";
  for (size_t k = 0; k < ranks.size(); ++k)
    diag << (k == 0 ? "" : k + 1 == ranks.size() ? " or " : ", ") << ranks[k];
  if (!layout.empty())
    diag << " (" << layout << ")";
  return diag << ", got " << getType(i);
}

LogicalResult InferState::checkMinRank(unsigned i, int64_t rank,
                                       StringRef layout) {
  if (getRank(i) >= rank)
    return success();
  InFlightDiagnostic diag = emitOperandError(i);
  diag << "must have rank " << rank << " or more";
  if (!layout.empty())
    diag << " (" << layout << ")";
  return diag << ", got " << getType(i);
}

LogicalResult InferState::normalizeAxis(int64_t &axis, int64_t rank,
                                        StringRef what) {
  if (axis < -rank || axis >= rank) {
    return emitError() << what << " " << axis << " is out of range for rank "
                       << rank;
  }
  if (axis < 0)
    axis += rank;
  return success();
}

void InferState::addResult(ArrayRef<int64_t> shape, Type elementType) {
  results.push_back(RankedTensorType::get(shape, elementType));
}

//===----------------------------------------------------------------------===//
// EvalState
//===----------------------------------------------------------------------===//

EvalState::EvalState(Operation *op, ArrayRef<Tensor> inputs,
                     SmallVectorImpl<Tensor> &outputs, const EvalBudget &budget,
                     CapturedValues captured)
    : op(op), attrs(op), inputs(inputs), outputs(outputs), budget(budget),
      captured(captured) {}

std::optional<ElementType> EvalState::getResultElementType(unsigned i) const {
  auto type = dyn_cast<ShapedType>(op->getResult(i).getType());
  if (!type)
    return std::nullopt;
  return onnx::getElementType(type.getElementType());
}

InFlightDiagnostic EvalState::emitError() const { return op->emitOpError(); }

LogicalResult EvalState::unsupportedType(unsigned i) const {
  return emitError() << "cannot evaluate element type "
                     << getTypeName(inputs[i].getElementType());
}

F64Evaluation::F64Evaluation(EvalState &s, unsigned input)
    : F64Evaluation(s, s.input(input).getShape(), input) {}

F64Evaluation::F64Evaluation(EvalState &s, ArrayRef<int64_t> resultShape,
                             unsigned input)
    : state(s), type(s.input(input).getElementType()),
      input(convertTensor(s.input(input), ElementType::F64)),
      result(ElementType::F64, resultShape) {
  x = this->input.getValues<double>();
  y = result.getMutableValues<double>();
}

void F64Evaluation::addOutput() {
  state.addOutput(convertTensor(result, type));
}

LogicalResult EvalState::checkResultSize(unsigned result,
                                         ArrayRef<int64_t> shape,
                                         ElementType type) {
  auto formatType = [&] {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "tensor<";
    for (int64_t d : shape)
      os << d << 'x';
    os << getIRType(op->getContext(), type) << '>';
    return text;
  };
  for (int64_t d : shape)
    if (d < 0)
      return emitError() << "result #" << result << " would have type "
                         << formatType() << ", with a negative dimension";
  std::optional<int64_t> elements = getCheckedNumElements(shape);
  std::optional<int64_t> bytes =
      elements
          ? getCheckedNumBytes(*elements, getIRType(op->getContext(), type))
          : std::nullopt;
  if (!bytes)
    return emitError() << "result #" << result << " would have type "
                       << formatType()
                       << ", whose size in bytes does not fit in 64 bits";
  uint64_t needed = budget.liveBytes + uint64_t(*bytes);
  if (needed < budget.liveBytes || needed > budget.maxBytes)
    return emitError() << "result #" << result << " (" << formatType()
                       << ") needs " << *bytes << " bytes; with "
                       << budget.liveBytes
                       << " bytes of tensors live, that exceeds the memory "
                          "budget of "
                       << budget.maxBytes << " bytes (--max-memory)";
  budget.liveBytes = needed;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers of patterns
//===----------------------------------------------------------------------===//

Operation *getDefiningOp(Value value, StringRef name) {
  Operation *op = value.getDefiningOp();
  return isOp(op, name) ? op : nullptr;
}

namespace {
class FunctionPattern : public RewritePattern {
public:
  FunctionPattern(StringRef rootName, unsigned benefit, Context *ctx,
                  LogicalResult (*fn)(Operation *, PatternRewriter &))
      : RewritePattern(rootName, benefit, ctx), fn(fn) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    return fn(op, rewriter);
  }

private:
  LogicalResult (*fn)(Operation *, PatternRewriter &);
};
} // namespace

void addPattern(PatternSet &patterns, StringRef rootName,
                LogicalResult (*fn)(Operation *, PatternRewriter &),
                StringRef debugName, unsigned benefit) {
  auto pattern = std::make_unique<FunctionPattern>(rootName, benefit,
                                                   patterns.getContext(), fn);
  pattern->setDebugName(debugName);
  patterns.add(std::move(pattern));
}

Operation *createOpOrNull(PatternRewriter &rewriter, Location loc,
                          StringRef opName, ValueRange operands,
                          ArrayRef<NamedAttribute> attrs, unsigned numResults) {
  ScopedDiagnosticCollector silence(rewriter.getContext());
  return createOp(rewriter, loc, opName, operands, attrs, numResults);
}

LogicalResult replaceWithNewOp(PatternRewriter &rewriter, Operation *op,
                               StringRef opName, ValueRange operands,
                               ArrayRef<NamedAttribute> attrs) {
  const OpDef *def = lookupOpDef(opName);
  Context *ctx = rewriter.getContext();
  DictionaryAttr dict =
      normalizeAttributes(ctx, def->schema, DictionaryAttr::get(ctx, attrs));
  FailureOr<SmallVector<Type>> types;
  {
    ScopedDiagnosticCollector silence(ctx);
    types = inferResultTypes(*def, operands, dict, op->getLoc());
  }
  if (failed(types) || types->size() < op->getNumResults())
    return failure();
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    if ((*types)[i] != op->getResult(i).getType())
      return failure();
  OperationState state(op->getLoc(), opName);
  state.addOperands(operands);
  state.addTypes(ArrayRef<Type>(*types).take_front(op->getNumResults()));
  for (const NamedAttribute &named : dict)
    state.addAttribute(named.name, named.value);
  rewriter.setInsertionPoint(op);
  rewriter.replaceOp(op, rewriter.create(state));
  return success();
}

std::optional<double> getSplatValue(Value value) {
  DenseElementsAttr attr = getConstantValue(value);
  if (!attr || attr.getNumElements() == 0 ||
      !(attr.isSplat() || attr.getNumElements() == 1))
    return std::nullopt;
  std::optional<Tensor> t = Tensor::fromAttr(attr);
  if (!t)
    return std::nullopt;
  return t->getDouble(0);
}

bool isSplatOf(Attribute attr, double value) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || dense.getNumElements() == 0 ||
      !(dense.isSplat() || dense.getNumElements() == 1))
    return false;
  Type type = dense.getElementType();
  if (auto ft = dyn_cast<FloatType>(type)) {
    llvm::APFloat target(value);
    bool losesInfo;
    target.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                   &losesInfo);
    return !losesInfo && dense.getFloatValue(0).bitwiseIsEqual(target);
  }
  if (!getElementType(type) || type.isInteger(1))
    return false;
  return dense.getIntValue(0).getSExtValue() == int64_t(value);
}

Value createConstant(OpBuilder &builder, Location loc,
                     DenseElementsAttr value) {
  OperationState state(loc, "onnx.Constant");
  state.addAttribute("value", value);
  state.addTypes(value.getType());
  return builder.create(state)->getResult(0);
}

std::optional<SmallVector<int64_t>> getConstantInts(Value value) {
  DenseElementsAttr attr = getConstantValue(value);
  if (!attr)
    return std::nullopt;
  std::optional<Tensor> t = Tensor::fromAttr(attr);
  if (!t)
    return std::nullopt;
  return t->toInts();
}

/// Deep enough for the shape computations exporters emit (Shape -> Gather
/// -> Unsqueeze -> Concat -> Cast), shallow enough that a long chain of
/// integer ops costs little to look through.
static constexpr unsigned kMaxKnownIntsDepth = 8;

std::optional<KnownInts> getKnownInts(Value value, unsigned depth) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() > 1 || !type.hasStaticShape())
    return std::nullopt;
  std::optional<ElementType> kind = getElementType(type.getElementType());
  if (!kind || !(isSignedInteger(*kind) || isUnsignedInteger(*kind)))
    return std::nullopt;
  if (std::optional<SmallVector<int64_t>> values = getConstantInts(value))
    return toKnownInts(*values);
  KnownInts unknown(type.getNumElements(), std::nullopt);
  Operation *op = value.getDefiningOp();
  const OpDef *def = op ? lookupOpDef(op) : nullptr;
  if (!def || !def->knownInts || depth >= kMaxKnownIntsDepth ||
      op->getNumResults() != 1)
    return unknown;
  std::optional<KnownInts> known = def->knownInts(op, depth + 1);
  if (!known || known->size() != unknown.size())
    return unknown;
  return known;
}

std::optional<SmallVector<int64_t>> getAllKnown(const KnownInts &known) {
  SmallVector<int64_t> values;
  for (std::optional<int64_t> v : known) {
    if (!v)
      return std::nullopt;
    values.push_back(*v);
  }
  return values;
}

KnownInts toKnownInts(ArrayRef<int64_t> values) {
  return KnownInts(values.begin(), values.end());
}

} // namespace onyx::onnx

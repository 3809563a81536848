//===- OnnxDialect.cpp - Registration, generic hooks, public API ----------===//
//
// The dialect registers one op per OpDef and routes the IR's hooks (verify,
// fold, canonicalization patterns, custom syntax) to it. Verification and
// inference share one path: the generic checks of operands and attributes
// against the schema, then the op's own inference; the verifier compares
// the inferred types with the op's result types.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/FusedElementwise.h"
#include "dialect/onnx/OpDef.h"

#include "ir/BuiltinOps.h"
#include "ir/Operation.h"

namespace onyx::onnx {

//===----------------------------------------------------------------------===//
// Inference
//===----------------------------------------------------------------------===//

static const ValueSpec &getOperandSpec(const OpSchema &schema, unsigned i) {
  return i < schema.operands.size() ? schema.operands[i]
                                    : schema.operands.back();
}

/// The generic checks of an op's operands and attributes, then its own
/// inference. `resultCountHint` is the number of results an existing op has
/// (for Split without constant sizes); 0 when creating one. `operands`, if
/// given, are the operand values (for what is known of shape-like ones).
static FailureOr<SmallVector<Type>>
runInference(Context *ctx, const OpDef &def, ArrayRef<Type> operandTypes,
             DictionaryAttr attrs, ArrayRef<Attribute> constants, Location loc,
             unsigned resultCountHint = 0, ArrayRef<Value> operands = {}) {
  const OpSchema &schema = def.schema;
  // If, Loop and Scan take their result types from their regions.
  if (!def.infer)
    return emitError(loc) << "'" << schema.name
                          << "' op is built with its regions; its result "
                             "types come from them";
  unsigned n = operandTypes.size();
  unsigned minOperands = schema.getMinOperands();
  unsigned maxOperands = schema.getMaxOperands();
  if (n < minOperands || n > maxOperands) {
    auto diag = emitError(loc) << "'" << schema.name << "' op expects ";
    if (maxOperands == UINT_MAX)
      diag << "at least " << minOperands;
    else if (minOperands == maxOperands)
      diag << minOperands;
    else
      diag << minOperands << " to " << maxOperands;
    return diag << " operands, got " << n;
  }
  for (unsigned i = 0; i < n; ++i) {
    const ValueSpec &spec = getOperandSpec(schema, i);
    Type type = operandTypes[i];
    if (isa<NoneType>(type)) {
      if (spec.presence != Presence::Optional)
        return emitError(loc) << "'" << schema.name << "' op operand '"
                              << spec.name << "' is required, got none";
      continue;
    }
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return emitError(loc)
             << "'" << schema.name << "' op operand '" << spec.name
             << "' must be a ranked tensor, got " << type;
    if (!getElementType(tensor.getElementType()))
      return emitError(loc)
             << "'" << schema.name << "' op operand '" << spec.name
             << "' has unsupported element type " << tensor.getElementType();
  }
  if (failed(verifyAttributes(schema, attrs, loc)))
    return failure();
  InferState state(ctx, def, operandTypes, attrs, constants, loc,
                   resultCountHint, operands);
  if (failed(def.infer(state)))
    return failure();
  // A shape from operand values or attributes (Tile's repeats, Expand's
  // shape, ConstantOfShape's input) may be too large to exist; refused
  // here for every op, before anything sizes or allocates it.
  SmallVector<Type> results = state.takeResults();
  // An op the verifier would refuse must not be created: inference that
  // takes its result count from operands (Split's sizes) may give too few.
  if (results.size() < schema.getMinResults())
    return emitError(loc) << "'" << schema.name << "' op gives "
                          << uint64_t(results.size())
                          << " results, expected at least "
                          << schema.getMinResults();
  for (auto [i, type] : llvm::enumerate(results)) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (shaped && !hasRepresentableSize(shaped))
      return emitError(loc) << "'" << schema.name << "' op result #"
                            << uint64_t(i) << " would have type " << type
                            << ", whose size in bytes does not fit in 64 bits";
  }
  return results;
}

FailureOr<SmallVector<Type>>
inferResultTypes(Context *ctx, StringRef opName, ArrayRef<Type> operandTypes,
                 DictionaryAttr attrs, ArrayRef<Attribute> constantOperands,
                 Location loc) {
  const OpDef *def = lookupOpDef(opName);
  if (!def)
    return emitError(loc) << "unsupported onnx op '" << opName << "'";
  return runInference(ctx, *def, operandTypes, attrs, constantOperands, loc);
}

FailureOr<SmallVector<Type>>
inferResultTypes(const OpDef &def, ValueRange operands, DictionaryAttr attrs,
                 Location loc, unsigned resultCountHint) {
  SmallVector<Type> operandTypes;
  SmallVector<Attribute> constants;
  SmallVector<Value> values(operands.begin(), operands.end());
  for (Value v : operands) {
    operandTypes.push_back(v.getType());
    constants.push_back(getConstantValue(v));
  }
  return runInference(attrs.getContext(), def, operandTypes, attrs, constants,
                      loc, resultCountHint, values);
}

FailureOr<SmallVector<Type>> inferResultTypesFor(Operation *op,
                                                 ArrayRef<Tensor> inputs) {
  const OpDef *def = lookupOpDef(op);
  assert(def && inputs.size() == op->getNumOperands() &&
         "a supported onnx op and one input per operand");
  Context *ctx = op->getContext();
  SmallVector<Type> operandTypes;
  SmallVector<Attribute> constants;
  for (auto [operand, input] : llvm::zip_equal(op->getOperands(), inputs)) {
    if (!input) {
      operandTypes.push_back(operand.getType());
      constants.push_back({});
      continue;
    }
    operandTypes.push_back(input.getType(ctx));
    constants.push_back(input.getNumElements() <= kMaxInferredValues
                            ? Attribute(input.toAttr(ctx))
                            : Attribute());
  }
  return runInference(ctx, *def, operandTypes, op->getAttrDictionary(),
                      constants, op->getLoc(), op->getNumResults());
}

DenseElementsAttr getConstantValue(Value value) {
  Operation *op = value.getDefiningOp();
  if (!isOp(op, "onnx.Constant"))
    return {};
  return op->getAttrOfType<DenseElementsAttr>("value");
}

bool isNoValue(Value value) { return isa<NoneType>(value.getType()); }

Operation *createOp(OpBuilder &builder, Location loc, StringRef opName,
                    ValueRange operands, ArrayRef<NamedAttribute> attrs,
                    unsigned numResults) {
  Context *ctx = builder.getContext();
  const OpDef *def = lookupOpDef(opName);
  if (!def) {
    emitError(loc) << "unsupported onnx op '" << opName << "'";
    return nullptr;
  }
  DictionaryAttr dict =
      normalizeAttributes(ctx, def->schema, DictionaryAttr::get(ctx, attrs));
  FailureOr<SmallVector<Type>> types =
      inferResultTypes(*def, operands, dict, loc);
  if (failed(types))
    return nullptr;
  if (numResults > types->size()) {
    emitError(loc) << "'" << opName << "' op has at most "
                   << uint64_t(types->size()) << " results, asked for "
                   << numResults;
    return nullptr;
  }
  if (numResults)
    types->resize(numResults);
  OperationState state(loc, opName);
  state.addOperands(operands);
  state.addTypes(*types);
  for (const NamedAttribute &named : dict)
    state.addAttribute(named.name, named.value);
  return builder.create(state);
}

Value createChained(OpBuilder &builder, Location loc, StringRef opName,
                    ValueRange operands, ArrayRef<NamedAttribute> attrs) {
  if (llvm::is_contained(operands, Value()))
    return {};
  Operation *created = createOp(builder, loc, opName, operands, attrs);
  return created ? created->getResult(0) : Value();
}

void replaceAndErase(Operation *op, ArrayRef<Value> values) {
  for (auto [result, value] : llvm::zip(op->getResults(), values))
    result.replaceAllUsesWith(value);
  op->erase();
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

LogicalResult evaluate(Operation *op, ArrayRef<Tensor> inputs,
                       SmallVectorImpl<Tensor> &outputs,
                       const EvalBudget &budget, CapturedValues captured) {
  if (isOp(op, "onnx.NoValue")) {
    outputs.push_back(Tensor());
    return success();
  }
  const OpDef *def = lookupOpDef(op);
  if (!def || !def->evaluate)
    return op->emitOpError("cannot be evaluated");
  assert(inputs.size() == op->getNumOperands() && "one input per operand");
  SmallVector<Tensor, 2> results;
  EvalState state(op, inputs, results, budget, captured);
  if (failed(def->evaluate(state)))
    return failure();
  assert(results.size() >= op->getNumResults() && "missing results");
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    outputs.push_back(std::move(results[i]));
  return success();
}

//===----------------------------------------------------------------------===//
// Hooks
//===----------------------------------------------------------------------===//

/// Same element type; same rank and equal sizes where both are static.
/// Unranked types (of IR written elsewhere, or inferred when an operand that
/// decides the rank is not constant) are compatible with any rank.
static bool isCompatible(Type actual, Type inferred) {
  if (actual == inferred)
    return true;
  auto a = dyn_cast<ShapedType>(actual);
  auto b = dyn_cast<ShapedType>(inferred);
  if (!a || !b || a.getElementType() != b.getElementType())
    return false;
  if (!a.hasRank() || !b.hasRank())
    return true;
  if (a.getRank() != b.getRank())
    return false;
  for (auto [da, db] : llvm::zip(a.getShape(), b.getShape()))
    if (da != db && !ShapedType::isDynamic(da) && !ShapedType::isDynamic(db))
      return false;
  return true;
}

static LogicalResult verifyOp(Operation *op) {
  const OpDef *def = lookupOpDef(op);
  const OpSchema &schema = def->schema;
  unsigned numResults = op->getNumResults();
  if (numResults < schema.getMinResults() ||
      numResults > schema.getMaxResults())
    return op->emitOpError()
           << "has " << numResults << " results, expected "
           << schema.getMinResults()
           << (schema.getMaxResults() == UINT_MAX
                   ? " or more"
                   : (" to " + llvm::Twine(schema.getMaxResults())).str());
  FailureOr<SmallVector<Type>> inferred =
      inferResultTypes(*def, op->getOperands(), op->getAttrDictionary(),
                       op->getLoc(), numResults);
  if (failed(inferred))
    return failure();
  // Split's result count comes from its operands when they are constant.
  if (numResults > inferred->size())
    return op->emitOpError() << "has " << numResults << " results, expected "
                             << uint64_t(inferred->size());
  for (unsigned i = 0; i < numResults; ++i) {
    Type actual = op->getResult(i).getType();
    if (!isCompatible(actual, (*inferred)[i]))
      return op->emitOpError() << "result #" << i << " has type " << actual
                               << ", but the operands give " << (*inferred)[i];
  }
  return success();
}

/// Folding limit: a result of more elements than this is not created as a
/// new constant unless it is no larger than the inputs, so that folding
/// does not duplicate weights.
static constexpr int64_t kMaxFoldedElements = 1 << 20;

static LogicalResult foldOp(Operation *op, ArrayRef<Attribute> operands,
                            SmallVectorImpl<OpFoldResult> &results) {
  const OpDef *def = lookupOpDef(op);
  // Control flow is simplified by its patterns (an If on a constant
  // condition becomes its branch); evaluating it here could run a loop of
  // any length inside canonicalization.
  if (op->getNumRegions() != 0)
    return failure();
  if (def->fold && op->getNumResults() == 1) {
    OpFoldResult r = def->fold(op, operands);
    if (r.value || r.attr) {
      results.push_back(r);
      return success();
    }
  }
  if (op->hasTrait(OpTrait::ConstantLike))
    return failure();
  // A shape computation whose values are all known though not all of its
  // operands are constant (Gather of a static dimension of Shape(x)).
  if (def->knownInts && op->getNumResults() == 1) {
    if (std::optional<KnownInts> known = getKnownInts(op->getResult(0)))
      if (std::optional<SmallVector<int64_t>> values = getAllKnown(*known)) {
        auto type = cast<RankedTensorType>(op->getResult(0).getType());
        results.push_back(Attribute(
            Tensor::fromInts(*onnx::getElementType(type.getElementType()),
                             type.getShape(), *values)
                .toAttr(op->getContext())));
        return success();
      }
  }
  if (!def->evaluate)
    return failure();

  SmallVector<Tensor> inputs;
  int64_t inputElements = 0;
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    if (isNoValue(op->getOperand(i))) {
      inputs.push_back(Tensor());
      continue;
    }
    auto attr = dyn_cast_or_null<DenseElementsAttr>(operands[i]);
    if (!attr)
      return failure();
    std::optional<Tensor> t = Tensor::fromAttr(attr);
    if (!t)
      return failure();
    inputElements += t->getNumElements();
    inputs.push_back(std::move(*t));
  }
  int64_t resultElements = 0;
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return failure();
    resultElements += tensor.getNumElements();
  }
  if (resultElements > kMaxFoldedElements && resultElements > inputElements)
    return failure();

  // Evaluation errors (an index out of range in a constant) stay for the
  // evaluator to report at run time; folding just does not happen.
  ScopedDiagnosticCollector silence(op->getContext());
  SmallVector<Tensor> outputs;
  if (failed(evaluate(op, inputs, outputs)))
    return failure();
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    Type type = op->getResult(i).getType();
    if (outputs[i].getType(op->getContext()) != type)
      return failure();
  }
  for (const Tensor &t : outputs)
    results.push_back(Attribute(t.toAttr(op->getContext())));
  return success();
}

//===----------------------------------------------------------------------===//
// onnx.NoValue and onnx.Return
//===----------------------------------------------------------------------===//

static LogicalResult verifyNoValue(Operation *op) {
  if (op->getNumOperands() != 0 || op->getNumResults() != 1 ||
      !isa<NoneType>(op->getResult(0).getType()))
    return op->emitOpError("takes no operands and has one result of type none");
  return success();
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

OnnxDialect::OnnxDialect(Context *ctx) : Dialect("onnx", ctx) {
  for (const OpDef *def : getOpDefs()) {
    OpInfo *info = addOperation(def->schema.name, def->schema.traits);
    info->verify = def->verify ? def->verify : verifyOp;
    info->verifyRegions = def->verifyRegions;
    info->fold = foldOp;
    info->getCanonicalizationPatterns = def->canonicalize;
    info->print = def->print;
    info->parse = def->parse;
    defs[info] = def;
  }
  // An absent optional operand, as onnx-mlir writes it:
  // `%none = "onnx.NoValue"() {value} : () -> none`.
  OpInfo *noValue =
      addOperation("onnx.NoValue", OpTrait::Pure | OpTrait::ConstantLike);
  noValue->verify = verifyNoValue;
  // onnx-mlir's terminator of functions, the same as func.return.
  OpInfo *ret = addOperation(
      "onnx.Return", OpTrait::Pure | OpTrait::Terminator | OpTrait::ReturnLike);
  ret->verify = [](Operation *op) { return ReturnOp(op).verify(); };
  ret->print = [](Operation *op, OpAsmPrinter &p) { ReturnOp(op).print(p); };
  ret->parse = &ReturnOp::parse;
  // Elementwise groups formed by lowering (FusedElementwise.h).
  addOperation(kFusedElementwiseName, OpTrait::Pure |
                                          OpTrait::IsolatedFromAbove |
                                          OpTrait::SingleBlock)
      ->verify = verifyFusedElementwise;
  addOperation(kYieldName,
               OpTrait::Pure | OpTrait::Terminator | OpTrait::ReturnLike)
      ->verify = verifyYield;
}

Operation *OnnxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.getType() != type)
      return nullptr;
    return createConstant(builder, loc, dense).getDefiningOp();
  }
  if (isa<UnitAttr>(value) && isa<NoneType>(type)) {
    OperationState state(loc, "onnx.NoValue");
    state.addAttribute("value", value);
    state.addTypes(type);
    return builder.create(state);
  }
  return nullptr;
}

} // namespace onyx::onnx

//===- OpDef.h - How an onnx op is defined (dialect-internal) ---*- C++ -*-===//
//
// An OpDef is everything onyx knows about one onnx op, in one record: its
// schema, shape and type inference, reference evaluator, folds beyond
// constant evaluation, canonicalization patterns and custom syntax. Each
// family file (Elementwise.cpp, Conv.cpp, ...) defines the OpDefs of its
// ops; the dialect registers them all and dispatches its hooks to them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/OnnxDialect.h"

#include "ir/Builder.h"
#include "rewrite/PatternMatch.h"

namespace onyx::onnx {

struct OpDef;

/// What is known of the values of a shape-like tensor (a 0-D or 1-D integer
/// tensor of static length): one entry per element, nullopt where the value
/// is only known at run time.
using KnownInts = SmallVector<std::optional<int64_t>, 4>;

/// What shape inference sees of an op: operand types, attributes, the
/// values of constant operands and what is known of the values of
/// shape-like ones. The generic code has already checked the operand count,
/// the attributes against the schema, and that every present operand is a
/// ranked tensor of an element type tensors can hold.
///
/// A shape operand need not be constant: where a result size depends on a
/// value known only at run time, inference makes that dimension dynamic
/// (`?`) and keeps everything else it can know (the rank, dimensions that do
/// not depend on the value). What would be wrong for every possible value
/// is still an error.
class InferState {
public:
  /// `operands`, when given, are the operand values, through which
  /// getKnownInts sees partially known shape computations; without them
  /// only constants are known.
  InferState(Context *ctx, const OpDef &def, ArrayRef<Type> operandTypes,
             DictionaryAttr attrs, ArrayRef<Attribute> constants, Location loc,
             unsigned resultCountHint = 0, ArrayRef<Value> operands = {});

  Context *getContext() const { return ctx; }
  const OpDef &getDef() const { return def; }
  const OpAttrs &getAttrs() const { return attrs; }
  Location getLoc() const { return loc; }
  /// The number of results of the op being verified; 0 when inferring the
  /// types of a new op.
  unsigned getResultCountHint() const { return resultCountHint; }

  /// An error at the op's location, starting with `'onnx.X' op `.
  InFlightDiagnostic emitError() const;
  /// An error about operand `i`, naming it: `'onnx.X' op operand 'A' `.
  InFlightDiagnostic emitOperandError(unsigned i) const;
  /// An error about attribute `name`: `'onnx.X' op attribute 'axis' `.
  InFlightDiagnostic emitAttrError(StringRef name) const;

  unsigned getNumOperands() const { return operandTypes.size(); }
  /// Whether operand `i` is given (not absent and not of type none).
  bool hasOperand(unsigned i) const;
  RankedTensorType getType(unsigned i) const;
  ArrayRef<int64_t> getShape(unsigned i) const { return getType(i).getShape(); }
  int64_t getRank(unsigned i) const { return getType(i).getRank(); }
  Type getElementType(unsigned i) const { return getType(i).getElementType(); }
  ElementType getElementKind(unsigned i) const;
  /// The name of operand `i` in the schema (variadic ones share a name).
  StringRef getOperandName(unsigned i) const;

  /// The values of integer operand `i` when it is a constant (or every
  /// element of it is known); nullopt otherwise: the caller then makes the
  /// dimensions that depend on it dynamic.
  std::optional<SmallVector<int64_t>> getConstantInts(unsigned i) const;
  /// What is known of the values of operand `i`, a 0-D or 1-D integer
  /// tensor; nullopt if its length is not static.
  std::optional<KnownInts> getKnownInts(unsigned i) const;
  /// The static length of 1-D operand `i`, whose length decides the rank or
  /// number of results (`what`: "the result's rank"); an error naming the
  /// operand if it is dynamic.
  FailureOr<int64_t> getStaticLength(unsigned i, StringRef what);
  /// The constant value of operand `i`, or null.
  DenseElementsAttr getConstant(unsigned i) const;

  /// Element type checks; they report naming the operand.
  LogicalResult checkFloat(unsigned i);
  LogicalResult checkInteger(unsigned i);
  LogicalResult checkNumeric(unsigned i);
  LogicalResult checkSameElementType(unsigned i, unsigned j);
  /// Checks that operand i has rank `rank`.
  LogicalResult checkRank(unsigned i, int64_t rank);
  /// Checks that operand i has one of `ranks` (in increasing order);
  /// `layout`, if any, names the dimensions of each in the error.
  LogicalResult checkRankIn(unsigned i, ArrayRef<int64_t> ranks,
                            StringRef layout = "");
  /// Checks that operand i has rank `rank` or more; `layout` ("N x C x
  /// spatial"), if any, names its dimensions in the error.
  LogicalResult checkMinRank(unsigned i, int64_t rank, StringRef layout = "");
  /// Normalizes axis `axis` (negative counts from the end) for a tensor of
  /// `rank`, reporting attribute/operand `what` if out of range.
  LogicalResult normalizeAxis(int64_t &axis, int64_t rank, StringRef what);

  /// Adds a result.
  void addResult(ArrayRef<int64_t> shape, Type elementType);
  void addResult(Type type) { results.push_back(type); }
  SmallVector<Type> takeResults() { return std::move(results); }

private:
  Context *ctx;
  const OpDef &def;
  ArrayRef<Type> operandTypes;
  OpAttrs attrs;
  ArrayRef<Attribute> constants;
  Location loc;
  unsigned resultCountHint;
  ArrayRef<Value> operands;
  SmallVector<Type> results;
};

/// What the evaluator sees: the op (for attributes and result types) and its
/// input tensors; it appends one tensor per result (it may produce every
/// optional result even when the op leaves some out).
class EvalState {
public:
  EvalState(Operation *op, ArrayRef<Tensor> inputs,
            SmallVectorImpl<Tensor> &outputs, const EvalBudget &budget = {},
            CapturedValues captured = {});

  Operation *getOp() const { return op; }
  const OpAttrs &getAttrs() const { return attrs; }
  ArrayRef<Tensor> getInputs() const { return inputs; }
  const Tensor &input(unsigned i) const { return inputs[i]; }
  /// Whether input i is given.
  bool hasInput(unsigned i) const { return i < inputs.size() && inputs[i]; }
  /// The element type of result i as declared by the op; nullopt if it is
  /// not a tensor of a supported element type.
  std::optional<ElementType> getResultElementType(unsigned i) const;
  void addOutput(Tensor t) { outputs.push_back(std::move(t)); }

  /// An error at the op, as `'onnx.X' op ` ...
  InFlightDiagnostic emitError() const;
  /// Fails with "unsupported element type" for input `i`.
  LogicalResult unsupportedType(unsigned i) const;
  /// Checks, before it is allocated, that result `result` of `shape` and
  /// `type`, whose size comes from values known only at run time, can
  /// exist (no negative dimension, a byte size that fits in 64 bits) and
  /// fits in what the budget leaves; reserves its bytes for the op's later
  /// results. The error names the result and its type.
  LogicalResult checkResultSize(unsigned result, ArrayRef<int64_t> shape,
                                ElementType type);
  const EvalBudget &getBudget() const { return budget; }
  /// The values of enclosing scopes that the op's regions read (null where
  /// the caller has none to give).
  CapturedValues getCaptured() const { return captured; }

private:
  Operation *op;
  OpAttrs attrs;
  ArrayRef<Tensor> inputs;
  SmallVectorImpl<Tensor> &outputs;
  EvalBudget budget;
  CapturedValues captured;
};

/// The f64 values a reference evaluator of one floating result computes
/// in: input `input` converted to f64 (`x`), and a result of zeros of
/// `resultShape` (the input's shape where not given) to write (`y`).
/// addOutput appends that result converted to the input's element type.
class F64Evaluation {
public:
  explicit F64Evaluation(EvalState &s, unsigned input = 0);
  F64Evaluation(EvalState &s, ArrayRef<int64_t> resultShape,
                unsigned input = 0);
  F64Evaluation(const F64Evaluation &) = delete;
  F64Evaluation &operator=(const F64Evaluation &) = delete;

  void addOutput();

  ArrayRef<double> x;
  MutableArrayRef<double> y;

private:
  EvalState &state;
  ElementType type;
  Tensor input, result;
};

struct OpDef {
  OpSchema schema;
  /// Checks operand types and attribute values and computes the result
  /// types into the state.
  LogicalResult (*infer)(InferState &state) = nullptr;
  LogicalResult (*evaluate)(EvalState &state) = nullptr;
  /// Folds that do not need every operand constant (x + -0.0 -> x, Shape of
  /// a static tensor); returns an empty result when it does not apply.
  /// `constants` has one entry per operand: its value or null.
  OpFoldResult (*fold)(Operation *op, ArrayRef<Attribute> constants) = nullptr;
  OpInfo::CanonicalizeFn canonicalize = nullptr;
  OpInfo::PrintFn print = nullptr;
  OpInfo::ParseFn parse = nullptr;
  /// Data of the op's family (the elementwise table row).
  const void *familyData = nullptr;
  /// What is known of the values of the op's result when it is a shape-like
  /// tensor and not every operand is constant (Shape of a partially static
  /// tensor, a Concat or Gather of partially known values); `depth` is
  /// passed on to getKnownInts. Null when the op cannot say.
  std::optional<KnownInts> (*knownInts)(Operation *op,
                                        unsigned depth) = nullptr;
  /// For ops whose result types come from their regions (If, Loop, Scan):
  /// `verify` checks the op itself and replaces the generic verification
  /// through `infer` (which such ops do not have: they are built with their
  /// regions, not by createOp); `verifyRegions` checks what the regions
  /// yield against the results once the regions verified.
  OpInfo::VerifyFn verify = nullptr;
  OpInfo::VerifyFn verifyRegions = nullptr;
};

/// The OpDefs of each family, appended to the registry.
void appendElementwiseOps(std::vector<const OpDef *> &defs);
void appendCastOps(std::vector<const OpDef *> &defs);
void appendClipOps(std::vector<const OpDef *> &defs);
void appendWhereOps(std::vector<const OpDef *> &defs);
void appendMatMulOps(std::vector<const OpDef *> &defs);
void appendBlockQuantizedOps(std::vector<const OpDef *> &defs);
void appendConvOps(std::vector<const OpDef *> &defs);
void appendConvTransposeOps(std::vector<const OpDef *> &defs);
void appendResizeOps(std::vector<const OpDef *> &defs);
void appendDepthSpaceOps(std::vector<const OpDef *> &defs);
void appendCumSumOps(std::vector<const OpDef *> &defs);
void appendOneHotOps(std::vector<const OpDef *> &defs);
void appendEinsumOps(std::vector<const OpDef *> &defs);
void appendPoolOps(std::vector<const OpDef *> &defs);
void appendNormalizationOps(std::vector<const OpDef *> &defs);
void appendRotaryOps(std::vector<const OpDef *> &defs);
void appendContribNormalizationOps(std::vector<const OpDef *> &defs);
void appendGroupQueryAttentionOps(std::vector<const OpDef *> &defs);
void appendAttentionOps(std::vector<const OpDef *> &defs);
void appendSoftmaxOps(std::vector<const OpDef *> &defs);
void appendReductionOps(std::vector<const OpDef *> &defs);
void appendReshapeOps(std::vector<const OpDef *> &defs);
void appendTransposeOps(std::vector<const OpDef *> &defs);
void appendConcatSplitOps(std::vector<const OpDef *> &defs);
void appendSliceOps(std::vector<const OpDef *> &defs);
void appendIndexingOps(std::vector<const OpDef *> &defs);
void appendTilePadOps(std::vector<const OpDef *> &defs);
void appendTriluOps(std::vector<const OpDef *> &defs);
void appendShapeOps(std::vector<const OpDef *> &defs);
void appendDataDependentOps(std::vector<const OpDef *> &defs);
void appendControlFlowOps(std::vector<const OpDef *> &defs);
void appendRecurrentOps(std::vector<const OpDef *> &defs);
void appendQuantizeOps(std::vector<const OpDef *> &defs);
void appendQuantizedContractionOps(std::vector<const OpDef *> &defs);

/// Patterns rooted on one family's op that belong to another's knowledge:
/// BatchNormalization folding into the Conv before it (Conv.cpp).
void addConvBatchNormPatterns(PatternSet &patterns, Context *ctx);
/// onnx.Attention formed from the decomposed subgraph ending in the MatMul
/// `rootName` (Attention.cpp).
void addAttentionPattern(PatternSet &patterns, StringRef rootName);

/// The result types of an op of `def` on `operands` with `attrs` (already
/// normalized), seeing what is known of shape-like operands through their
/// producers. `resultCountHint` as InferState's.
FailureOr<SmallVector<Type>>
inferResultTypes(const OpDef &def, ValueRange operands, DictionaryAttr attrs,
                 Location loc, unsigned resultCountHint = 0);

/// Every OpDef, sorted by name.
ArrayRef<const OpDef *> getOpDefs();
const OpDef *lookupOpDef(StringRef opName);
/// The OpDef of a registered onnx op; null for any other op.
const OpDef *lookupOpDef(Operation *op);

/// Whether `op` is the onnx op `name` ("onnx.Add").
inline bool isOp(Operation *op, StringRef name) {
  return op && op->getName().getStringRef() == name;
}
/// The op defining `value` if it is the onnx op `name`; null otherwise.
Operation *getDefiningOp(Value value, StringRef name);

/// A pattern rooted on ops named `rootName`, rewriting through a plain
/// function, for ops that have no C++ class.
void addPattern(PatternSet &patterns, StringRef rootName,
                LogicalResult (*fn)(Operation *, PatternRewriter &),
                StringRef debugName, unsigned benefit = 1);

/// A new op like createOp, for patterns: null if inference fails (the
/// diagnostic is dropped: a pattern that cannot build its result does not
/// apply).
Operation *createOpOrNull(PatternRewriter &rewriter, Location loc,
                          StringRef opName, ValueRange operands,
                          ArrayRef<NamedAttribute> attrs = {},
                          unsigned numResults = 0);
/// Replaces `op` by a new op `opName` if the new op's inferred result types
/// are exactly `op`'s; otherwise changes nothing and fails.
LogicalResult replaceWithNewOp(PatternRewriter &rewriter, Operation *op,
                               StringRef opName, ValueRange operands,
                               ArrayRef<NamedAttribute> attrs = {});
/// Whether the two values have the same type, so that one can replace the
/// other.
inline bool haveSameType(Value a, Value b) {
  return a.getType() == b.getType();
}

/// The value of a constant with a single distinct element (a splat or a
/// one-element tensor) as double; nullopt otherwise.
std::optional<double> getSplatValue(Value value);
/// Whether `attr` is a splat of exactly `value`, bit for bit for floats (so
/// -0.0 differs from 0.0).
bool isSplatOf(Attribute attr, double value);
/// An onnx.Constant holding `value`.
Value createConstant(OpBuilder &builder, Location loc, DenseElementsAttr value);

/// The integer values of a constant; nullopt if `value` is not a constant.
std::optional<SmallVector<int64_t>> getConstantInts(Value value);

/// What is known of the values of `value`, a 0-D or 1-D integer tensor of
/// static length (one entry per element), through constants and the ops'
/// knownInts hooks up to a small depth; nullopt for any other value.
std::optional<KnownInts> getKnownInts(Value value, unsigned depth = 0);
/// The values if every entry is known.
std::optional<SmallVector<int64_t>> getAllKnown(const KnownInts &known);
/// `values` as KnownInts (all known).
KnownInts toKnownInts(ArrayRef<int64_t> values);

} // namespace onyx::onnx

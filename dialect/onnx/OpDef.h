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

/// What shape inference sees of an op: operand types, attributes and the
/// values of constant operands. The generic code has already checked the
/// operand count, the attributes against the schema, and that every
/// present operand is a ranked tensor of an element type tensors can hold.
class InferState {
public:
  InferState(Context *ctx, const OpDef &def, ArrayRef<Type> operandTypes,
             DictionaryAttr attrs, ArrayRef<Attribute> constants, Location loc,
             bool requireConstants, unsigned resultCountHint = 0);

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

  /// The values of integer operand `i` when it is a constant. When it is not
  /// one, fails with an error if constants are required (inference for a
  /// new op) and otherwise succeeds with nullopt: the caller then makes the
  /// dimensions that depend on it dynamic (verifying existing IR).
  LogicalResult getConstantInts(unsigned i,
                                std::optional<SmallVector<int64_t>> &values);
  /// The constant value of operand `i`, or null.
  DenseElementsAttr getConstant(unsigned i) const;

  /// Element type checks; they report naming the operand.
  LogicalResult checkFloat(unsigned i);
  LogicalResult checkInteger(unsigned i);
  LogicalResult checkNumeric(unsigned i);
  LogicalResult checkSameElementType(unsigned i, unsigned j);
  /// Checks that operand i has rank `rank`.
  LogicalResult checkRank(unsigned i, int64_t rank);
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
  bool requireConstants;
  unsigned resultCountHint;
  SmallVector<Type> results;
};

/// What the evaluator sees: the op (for attributes and result types) and its
/// input tensors; it appends one tensor per result (it may produce every
/// optional result even when the op leaves some out).
class EvalState {
public:
  EvalState(Operation *op, ArrayRef<Tensor> inputs,
            SmallVectorImpl<Tensor> &outputs);

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

private:
  Operation *op;
  OpAttrs attrs;
  ArrayRef<Tensor> inputs;
  SmallVectorImpl<Tensor> &outputs;
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
};

/// The OpDefs of each family, appended to the registry.
void appendElementwiseOps(std::vector<const OpDef *> &defs);
void appendCastOps(std::vector<const OpDef *> &defs);
void appendClipOps(std::vector<const OpDef *> &defs);
void appendWhereOps(std::vector<const OpDef *> &defs);
void appendMatMulOps(std::vector<const OpDef *> &defs);
void appendConvOps(std::vector<const OpDef *> &defs);
void appendPoolOps(std::vector<const OpDef *> &defs);
void appendNormalizationOps(std::vector<const OpDef *> &defs);
void appendRotaryOps(std::vector<const OpDef *> &defs);
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

/// Patterns rooted on one family's op that belong to another's knowledge:
/// BatchNormalization folding into the Conv before it (Conv.cpp).
void addConvBatchNormPatterns(PatternSet &patterns, Context *ctx);

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

} // namespace onyx::onnx

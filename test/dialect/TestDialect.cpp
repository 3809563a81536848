//===- TestDialect.cpp - Ops that exercise the rewrite engine -------------===//

#include "test/dialect/TestDialect.h"

#include "rewrite/PatternMatch.h"

using namespace onyx;
using namespace onyx::test;

TestDialect::TestDialect(Context *ctx) : Dialect(getDialectNamespace(), ctx) {
  addOperations<ConstantOp, AddOp, MulOp, SubOp, NegateOp, OpA, OpB, OpC,
                EraseMeOp, FlipOp, FlopOp, DivideOp, BrokenSuccessOp,
                BrokenFailureOp, SideEffectOp, RegionOp, IsolatedOp, YieldOp>();
  // As MLIR's test dialect: lit tests write ad-hoc `test.*` ops in generic
  // form, which parse and verify as unregistered ops.
  allowUnknownOperations();
}

Operation *TestDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (!isa<IntegerAttr, FloatAttr>(value) ||
      cast<TypedAttr>(value).getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, cast<TypedAttr>(value));
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isConstant(Value value) {
  Operation *producer = value.getDefiningOp();
  return producer && producer->hasTrait(OpTrait::ConstantLike);
}

/// Checks the shape shared by the arithmetic ops: `numOperands` operands and
/// one result, all of one type.
static LogicalResult verifySameTypeOp(Operation *op, unsigned numOperands) {
  if (op->getNumOperands() != numOperands || op->getNumResults() != 1)
    return op->emitOpError()
           << "expects " << numOperands << " operands and one result";
  Type type = op->getResult(0).getType();
  for (Value operand : op->getOperands())
    if (operand.getType() != type)
      return op->emitOpError()
             << "requires the same type for all operands and results";
  return success();
}

/// Replaces `op` by an op named `newName` with the same operands, result
/// types and attributes.
static void replaceWithRenamedOp(Operation *op, StringRef newName,
                                 PatternRewriter &rewriter) {
  OperationState state(op->getLoc(), newName);
  state.addOperands(op->getOperands());
  SmallVector<Type, 2> types(op->getResultTypes().begin(),
                             op->getResultTypes().end());
  state.addTypes(types);
  state.attributes.append(op->getAttrs().begin(), op->getAttrs().end());
  rewriter.setInsertionPoint(op);
  rewriter.replaceOp(op, rewriter.create(state));
}

namespace {

/// A pattern given by a function, with a debug name for traces and checks.
template <typename OpT> struct NamedPattern : OpRewritePattern<OpT> {
  using Fn = LogicalResult (*)(OpT, PatternRewriter &);
  NamedPattern(Context *ctx, StringRef name, Fn fn)
      : OpRewritePattern<OpT>(ctx), fn(fn) {
    this->setDebugName(name);
  }
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    return fn(op, rewriter);
  }
  Fn fn;
};

template <typename OpT>
void addPattern(PatternSet &patterns, Context *ctx, StringRef name,
                LogicalResult (*fn)(OpT, PatternRewriter &)) {
  patterns.add(std::make_unique<NamedPattern<OpT>>(ctx, name, fn));
}

} // namespace

//===----------------------------------------------------------------------===//
// test.constant
//===----------------------------------------------------------------------===//

void ConstantOp::build(OpBuilder &, OperationState &state, TypedAttr value) {
  state.addAttribute("value", value);
  state.addTypes(value.getType());
}

TypedAttr ConstantOp::getValue() {
  return state->getAttrOfType<TypedAttr>("value");
}

LogicalResult ConstantOp::verify() {
  if (state->getNumOperands() != 0 || state->getNumResults() != 1)
    return emitOpError() << "expects no operands and one result";
  TypedAttr value = getValue();
  if (!value)
    return emitOpError() << "requires a typed 'value' attribute";
  if (value.getType() != state->getResult(0).getType())
    return emitOpError() << "result type " << state->getResult(0).getType()
                         << " does not match the type of its value "
                         << value.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// test.add
//===----------------------------------------------------------------------===//

void AddOp::build(OpBuilder &, OperationState &state, Value lhs, Value rhs) {
  state.addOperands({lhs, rhs});
  state.addTypes(lhs.getType());
}

LogicalResult AddOp::verify() { return verifySameTypeOp(state, 2); }

LogicalResult AddOp::fold(ArrayRef<Attribute> operands,
                          SmallVectorImpl<OpFoldResult> &results) {
  auto lhs = dyn_cast_or_null<IntegerAttr>(operands[0]);
  auto rhs = dyn_cast_or_null<IntegerAttr>(operands[1]);
  if (lhs && rhs) {
    results.push_back(
        IntegerAttr::get(lhs.getType(), lhs.getValue() + rhs.getValue()));
    return success();
  }
  if (rhs && rhs.getValue().isZero()) {
    results.push_back(state->getOperand(0));
    return success();
  }
  if (lhs && lhs.getValue().isZero()) {
    results.push_back(state->getOperand(1));
    return success();
  }
  return failure();
}

/// c + x -> x + c, so that later patterns only look right for constants.
static LogicalResult addConstantToRight(AddOp op, PatternRewriter &rewriter) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (!isConstant(lhs) || isConstant(rhs))
    return rewriter.notifyMatchFailure(op.getLoc(), "no constant on the left");
  rewriter.modifyOpInPlace(op, [&] { op->setOperands({rhs, lhs}); });
  return success();
}

void AddOp::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-add-constant-to-right", addConstantToRight);
}

//===----------------------------------------------------------------------===//
// test.mul
//===----------------------------------------------------------------------===//

void MulOp::build(OpBuilder &, OperationState &state, Value lhs, Value rhs) {
  state.addOperands({lhs, rhs});
  state.addTypes(lhs.getType());
}

LogicalResult MulOp::verify() { return verifySameTypeOp(state, 2); }

LogicalResult MulOp::fold(ArrayRef<Attribute> operands,
                          SmallVectorImpl<OpFoldResult> &results) {
  auto lhs = dyn_cast_or_null<IntegerAttr>(operands[0]);
  auto rhs = dyn_cast_or_null<IntegerAttr>(operands[1]);
  if (lhs && rhs) {
    results.push_back(
        IntegerAttr::get(lhs.getType(), lhs.getValue() * rhs.getValue()));
    return success();
  }
  if (lhs) {
    // Constant to the right, in place: success without results.
    Value a = state->getOperand(0), b = state->getOperand(1);
    state->setOperands({b, a});
    return success();
  }
  if (rhs && rhs.getValue().isOne()) {
    results.push_back(state->getOperand(0));
    return success();
  }
  if (rhs && rhs.getValue().isZero()) {
    results.push_back(state->getOperand(1));
    return success();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// test.sub
//===----------------------------------------------------------------------===//

LogicalResult SubOp::verify() { return verifySameTypeOp(state, 2); }

/// a - b -> a + (-b): creates two ops.
static LogicalResult subToAddNegate(SubOp op, PatternRewriter &rewriter) {
  rewriter.setInsertionPoint(op);
  auto negated = rewriter.create<NegateOp>(op.getLoc(), op->getOperand(1));
  rewriter.replaceOpWithNewOp<AddOp>(op, op->getOperand(0),
                                     negated->getResult(0));
  return success();
}

void SubOp::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-sub-to-add-negate", subToAddNegate);
}

//===----------------------------------------------------------------------===//
// test.negate
//===----------------------------------------------------------------------===//

void NegateOp::build(OpBuilder &, OperationState &state, Value input) {
  state.addOperands(input);
  state.addTypes(input.getType());
}

LogicalResult NegateOp::verify() { return verifySameTypeOp(state, 1); }

LogicalResult NegateOp::fold(ArrayRef<Attribute> operands,
                             SmallVectorImpl<OpFoldResult> &results) {
  auto input = dyn_cast_or_null<IntegerAttr>(operands[0]);
  if (!input)
    return failure();
  results.push_back(IntegerAttr::get(input.getType(), -input.getValue()));
  return success();
}

/// -(-x) -> x.
static LogicalResult negateInvolution(NegateOp op, PatternRewriter &rewriter) {
  auto inner = op->getOperand(0).getDefiningOp<NegateOp>();
  if (!inner)
    return rewriter.notifyMatchFailure(op.getLoc(), "operand is no negation");
  rewriter.replaceOp(op, inner->getOperand(0));
  return success();
}

void NegateOp::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-negate-involution", negateInvolution);
}

//===----------------------------------------------------------------------===//
// The chain test.op_a -> test.op_b -> test.op_c
//===----------------------------------------------------------------------===//

static LogicalResult opAToB(OpA op, PatternRewriter &rewriter) {
  replaceWithRenamedOp(op, OpB::getOperationName(), rewriter);
  return success();
}

static LogicalResult opBToC(OpB op, PatternRewriter &rewriter) {
  replaceWithRenamedOp(op, OpC::getOperationName(), rewriter);
  return success();
}

void OpA::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-op-a-to-b", opAToB);
}

void OpB::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-op-b-to-c", opBToC);
}

//===----------------------------------------------------------------------===//
// Erasing the root, never converging, lying patterns
//===----------------------------------------------------------------------===//

LogicalResult EraseMeOp::verify() {
  // Erasing an op whose results are used would be a bug of the pattern.
  if (state->getNumResults() != 0)
    return emitOpError() << "expects no results";
  return success();
}

static LogicalResult eraseRoot(EraseMeOp op, PatternRewriter &rewriter) {
  rewriter.eraseOp(op);
  return success();
}

void EraseMeOp::getCanonicalizationPatterns(PatternSet &patterns,
                                            Context *ctx) {
  addPattern(patterns, ctx, "test-erase-root", eraseRoot);
}

static LogicalResult flipToFlop(FlipOp op, PatternRewriter &rewriter) {
  replaceWithRenamedOp(op, FlopOp::getOperationName(), rewriter);
  return success();
}

static LogicalResult flopToFlip(FlopOp op, PatternRewriter &rewriter) {
  replaceWithRenamedOp(op, FlipOp::getOperationName(), rewriter);
  return success();
}

void FlipOp::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-flip-to-flop", flipToFlop);
}

void FlopOp::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-flop-to-flip", flopToFlip);
}

static LogicalResult divide(DivideOp op, PatternRewriter &rewriter) {
  for (int i = 0; i < 3; ++i) {
    OperationState state(op->getLoc(), DivideOp::getOperationName());
    rewriter.setInsertionPoint(op);
    rewriter.create(state);
  }
  rewriter.eraseOp(op);
  return success();
}

void DivideOp::getCanonicalizationPatterns(PatternSet &patterns, Context *ctx) {
  addPattern(patterns, ctx, "test-divide", divide);
}

static LogicalResult claimSuccess(BrokenSuccessOp, PatternRewriter &) {
  return success();
}

void BrokenSuccessOp::getCanonicalizationPatterns(PatternSet &patterns,
                                                  Context *ctx) {
  addPattern(patterns, ctx, "test-broken-success", claimSuccess);
}

static LogicalResult changeAndFail(BrokenFailureOp op, PatternRewriter &) {
  if (!op->hasAttr("touched"))
    op->setAttr("touched", UnitAttr::get(op.getContext()));
  return failure();
}

void BrokenFailureOp::getCanonicalizationPatterns(PatternSet &patterns,
                                                  Context *ctx) {
  addPattern(patterns, ctx, "test-broken-failure", changeAndFail);
}

//===----------------------------------------------------------------------===//
// Ops with regions
//===----------------------------------------------------------------------===//

LogicalResult RegionOp::verify() {
  if (state->getNumRegions() != 1)
    return emitOpError() << "expects one region";
  return success();
}

LogicalResult IsolatedOp::verify() {
  if (state->getNumRegions() != 1)
    return emitOpError() << "expects one region";
  return success();
}

//===- TestDialect.h - Ops that exercise the rewrite engine -----*- C++ -*-===//
//
// The `test` dialect, like MLIR's: small ops whose folders and
// canonicalization patterns cover each behaviour of the greedy driver
// (folding, constant materialization, multi-step chains, op creation and
// erasure, patterns that never converge or lie about what they did) and
// ops with side effects, commutativity and regions for DCE and CSE. Ops
// use the generic syntax only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Builder.h"
#include "ir/Dialect.h"

namespace onyx::test {

class TestDialect : public Dialect {
public:
  explicit TestDialect(Context *ctx);
  static StringRef getDialectNamespace() { return "test"; }

  /// Creates a `test.constant` for integer and float values.
  Operation *materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                 Location loc) override;
};

/// `%c = "test.constant"() {value = 1 : i32} : () -> i32`
class ConstantOp : public Op<ConstantOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.constant"; }
  static constexpr OpTrait traits = OpTrait::ConstantLike | OpTrait::Pure;
  static void build(OpBuilder &builder, OperationState &state, TypedAttr value);
  TypedAttr getValue();
  LogicalResult verify();
};

/// `test.add %a, %b`: folds constant + constant and x + 0; a pattern moves a
/// constant operand to the right.
class AddOp : public Op<AddOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.add"; }
  static constexpr OpTrait traits = OpTrait::Pure | OpTrait::Commutative;
  static void build(OpBuilder &builder, OperationState &state, Value lhs,
                    Value rhs);
  LogicalResult verify();
  LogicalResult fold(ArrayRef<Attribute> operands,
                     SmallVectorImpl<OpFoldResult> &results);
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// `test.mul %a, %b`: folds constant * constant, x * 1 and x * 0; moves a
/// constant operand to the right as an in-place fold.
class MulOp : public Op<MulOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.mul"; }
  static constexpr OpTrait traits = OpTrait::Pure | OpTrait::Commutative;
  static void build(OpBuilder &builder, OperationState &state, Value lhs,
                    Value rhs);
  LogicalResult verify();
  LogicalResult fold(ArrayRef<Attribute> operands,
                     SmallVectorImpl<OpFoldResult> &results);
};

/// `test.sub %a, %b`: rewritten into `test.add %a, (test.negate %b)`, a
/// pattern that creates ops.
class SubOp : public Op<SubOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.sub"; }
  static constexpr OpTrait traits = OpTrait::Pure;
  LogicalResult verify();
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// `test.negate %x`: folds constants; -(-x) is x by a pattern.
class NegateOp : public Op<NegateOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.negate"; }
  static constexpr OpTrait traits = OpTrait::Pure;
  static void build(OpBuilder &builder, OperationState &state, Value input);
  LogicalResult verify();
  LogicalResult fold(ArrayRef<Attribute> operands,
                     SmallVectorImpl<OpFoldResult> &results);
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// A chain rewritten one step per pattern application:
/// test.op_a -> test.op_b -> test.op_c.
class OpA : public Op<OpA> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.op_a"; }
  static constexpr OpTrait traits = OpTrait::Pure;
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

class OpB : public Op<OpB> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.op_b"; }
  static constexpr OpTrait traits = OpTrait::Pure;
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

class OpC : public Op<OpC> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.op_c"; }
  static constexpr OpTrait traits = OpTrait::Pure;
};

/// `test.erase_me`: has effects as far as DCE knows, but a pattern erases
/// it (a pattern that erases its root).
class EraseMeOp : public Op<EraseMeOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.erase_me"; }
  LogicalResult verify();
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// `test.flip` and `test.flop` are rewritten into each other forever: the
/// driver can only stop them with a limit.
class FlipOp : public Op<FlipOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.flip"; }
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

class FlopOp : public Op<FlopOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.flop"; }
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// `test.divide` is replaced by three of itself, forever: the IR grows until
/// the driver's bound on created ops stops it.
class DivideOp : public Op<DivideOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.divide"; }
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// Its pattern returns success without changing anything: a bug that the
/// driver's expensive checks report.
class BrokenSuccessOp : public Op<BrokenSuccessOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.broken_success"; }
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// Its pattern changes the op (behind the rewriter's back) and returns
/// failure: the other bug that the expensive checks report.
class BrokenFailureOp : public Op<BrokenFailureOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.broken_failure"; }
  static void getCanonicalizationPatterns(PatternSet &patterns, Context *ctx);
};

/// An op with side effects: never erased as dead, never merged by CSE.
class SideEffectOp : public Op<SideEffectOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.side_effect"; }
};

/// A pure op with one region whose blocks end in `test.yield`.
class RegionOp : public Op<RegionOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.region_op"; }
  static constexpr OpTrait traits = OpTrait::Pure;
  LogicalResult verify();
};

/// An op with one block that values from outside cannot reach: the scope
/// that folded constants are hoisted to.
class IsolatedOp : public Op<IsolatedOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.isolated"; }
  static constexpr OpTrait traits =
      OpTrait::IsolatedFromAbove | OpTrait::NoTerminator | OpTrait::SingleBlock;
  LogicalResult verify();
};

/// Ends the blocks of `test.region_op`.
class YieldOp : public Op<YieldOp> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "test.yield"; }
  static constexpr OpTrait traits =
      OpTrait::Pure | OpTrait::Terminator | OpTrait::ReturnLike;
};

} // namespace onyx::test

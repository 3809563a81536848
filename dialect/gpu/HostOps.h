//===- HostOps.h - Integer work the runtime does on the host ----*- C++ -*-===//
//
// Sizes that are known only when a function runs (a `?` dimension of an
// argument, or the value of an integer argument such as a Reshape's shape)
// reach views, grids and push constants as `index` values that the runtime
// computes on the host before it records the run's commands:
//
//   %n = gpu.dim %arg0[0] : tensor<?x64xf32>       a dimension of an argument
//   %k = gpu.extract %arg1[2] : tensor<3xi64>      an element of an argument
//   %s = gpu.scale_dim %n, %arg2[1] : tensor<4xf32> floor(n x an element)
//   %c = gpu.constant 64
//   %e = gpu.muli %n, %c                            one row of the table below
//   %g = gpu.ceildivi %e, %c
//   %r = gpu.range_count %s, %l, %d : tensor<f32>   a float Range's length
//   %c = gpu.read_count %v : !gpu.view<1xi32>      a count kernels wrote
//   %s = gpu.select %cond, %a, %b                   %cond ? %a : %b
//   gpu.assert %ok, %g {message = "..."}            fail the run where 0
//
// The integer ops are one table (HostOps.cpp), a row each: name and
// function. Every function is exact in 64 bits: an overflow or a division by
// zero is an error of the run at the op, never a wrapped value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/OpDecl.h"
#include "ir/Builder.h"
#include "ir/OpAsm.h"

namespace onyx::gpu {

/// A dimension of a function argument, as an index.
class DimOp : public Op<DimOp> {
public:
  ONYX_GPU_OP("dim");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value tensor,
                    int64_t index);
  Value getTensor() { return state->getOperand(0); }
  int64_t getIndex();
};

/// An element of an integer or float function argument of static shape, as
/// an index (the shape operands a user gives at run time). A float element
/// is truncated toward zero, as a Cast to an integer type does; a NaN, an
/// infinity or a value outside the 64-bit integers is an error of the run at
/// the op.
class ExtractOp : public Op<ExtractOp> {
public:
  ONYX_GPU_OP("extract");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value tensor,
                    int64_t index);
  Value getTensor() { return state->getOperand(0); }
  /// The element's position in row-major order.
  int64_t getIndex();
};

/// An index constant.
class ConstantOp : public Op<ConstantOp> {
public:
  ONYX_GPU_OP("constant");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, int64_t value);
  int64_t getValue();
};

/// The function of a host integer op: a result, or nullopt with the reason
/// in `error`.
using HostArithFn = std::optional<int64_t> (*)(int64_t, int64_t, std::string &);

/// A binary integer op of the table: `%r = gpu.muli %a, %b`.
class HostArithOp : public Op<HostArithOp> {
public:
  using Op::Op;
  /// Creates the row `name` (`gpu.muli`, ...) on `lhs` and `rhs`.
  static Value create(OpBuilder &builder, Location loc, StringRef name,
                      Value lhs, Value rhs);
  /// Applies the op's function; an overflow or a division by zero is an
  /// error with `error` saying which.
  FailureOr<int64_t> evaluate(int64_t lhs, int64_t rhs, std::string &error);
  /// The op's function, found once by its name, for an evaluator that
  /// applies it many times (the runtime's host program).
  HostArithFn getFunction();
};

/// `%n = gpu.range_count %start, %limit, %delta : tensor<f32>`: the number
/// of elements of a float Range whose bounds are function arguments (one
/// element each, of the same float type): max(ceil((limit - start) /
/// delta), 0) computed in double precision from the elements widened to
/// double, exactly as the onnx Range op's reference defines it. A delta of
/// 0, or bounds that give no finite count below 2^63, are an error of the
/// run at the op.
class RangeCountOp : public Op<RangeCountOp> {
public:
  ONYX_GPU_OP("range_count");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value start,
                    Value limit, Value delta);
};

/// gpu.range_count's function; nullopt with the reason in `error` where it
/// fails.
std::optional<int64_t> evaluateRangeCount(double start, double limit,
                                          double delta, std::string &error);

/// gpu.extract's function on a float element `value`; nullopt with the
/// reason in `error` where it has no integer value.
std::optional<int64_t> evaluateFloatExtract(double value, std::string &error);

/// `%s = gpu.scale_dim %n, %arg[i] : tensor<4xf32>`: floor(n x scale) for
/// element `i` of a float function argument of static shape, widened to
/// double, as onnx Resize computes an output size from a scale given at run
/// time. A scale that is not positive and finite, or a result that does not
/// fit in 63 bits, is an error of the run at the op.
class ScaleDimOp : public Op<ScaleDimOp> {
public:
  ONYX_GPU_OP("scale_dim");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value size,
                    Value tensor, int64_t index);
  Value getSize() { return state->getOperand(0); }
  Value getTensor() { return state->getOperand(1); }
  /// The element's position in row-major order.
  int64_t getIndex();
};

/// gpu.scale_dim's function; nullopt with the reason in `error` where it
/// fails.
std::optional<int64_t> evaluateScaleDim(int64_t size, double scale,
                                        std::string &error);

/// `%n = gpu.read_count %view : !gpu.view<1xi32>`: a count that kernels
/// before it computed (how many elements a NonZero or Compress selects, how
/// many distinct items Unique finds), read back from device memory while the
/// function runs. The runtime splits the run there: it submits the commands
/// before the op, waits for them, reads the view's one element (i32 or i64),
/// and only then evaluates the host ops after it and records the rest
/// (docs/ARCHITECTURE.md, "Data-dependent sizes on Vulkan"). A negative
/// count is an error of the run at the op.
class ReadCountOp : public Op<ReadCountOp> {
public:
  ONYX_GPU_OP("read_count");

  static void build(OpBuilder &builder, OperationState &state, Value view);
  Value getView() { return state->getOperand(0); }
};

/// `%r = gpu.select %cond, %a, %b`: `a` where `cond` is not 0, else `b`.
class SelectOp : public Op<SelectOp> {
public:
  ONYX_GPU_OP("select");
  static constexpr OpTrait traits = OpTrait::Pure;

  static void build(OpBuilder &builder, OperationState &state, Value condition,
                    Value trueValue, Value falseValue);
  Value getCondition() { return state->getOperand(0); }
};

/// `gpu.assert %cond, %v0, %v1 {message = "has {0} elements, not {1}"}`:
/// a run fails with the message at the op's location (the onnx node it was
/// lowered from) where `cond` is 0; `{i}` in the message stands for value `vi`.
/// What a run checks that only its sizes decide (a Reshape's element
/// count).
class AssertOp : public Op<AssertOp> {
public:
  ONYX_GPU_OP("assert");

  static void build(OpBuilder &builder, OperationState &state, Value condition,
                    StringRef message, ValueRange values = {});
  Value getCondition() { return state->getOperand(0); }
  OperandRange getValues() { return state->getOperands().drop_front(); }
  StringRef getMessage();
  /// The message with `{i}` replaced by `values[i]`.
  std::string formatMessage(ArrayRef<int64_t> values);
};

/// `message` with `{i}` replaced by `values[i]` (gpu.assert's message).
std::string formatAssertMessage(StringRef message, ArrayRef<int64_t> values);

/// Applies row `name` of the table to constants; nullopt with the reason in
/// `error` where it fails.
std::optional<int64_t> evaluateHostArith(StringRef name, int64_t lhs,
                                         int64_t rhs, std::string &error);

/// Names of the table's ops (`gpu.addi`, ...), in table order.
SmallVector<StringRef> getHostArithOpNames();
/// Fills the registry record of one of the table's ops.
void fillHostArithOpInfo(OpInfo *info);

/// Whether `op` is one of the ops above: work the runtime does on the host.
bool isHostOp(Operation *op);

} // namespace onyx::gpu

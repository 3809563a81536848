//===- ElementwiseExpressions.h - One element of a tree as GLSL -*- C++ -*-===//
//
// The statements that compute one element of a tree of elementwise ops:
// each op as the GLSL expression of its row in the elementwise table
// (dialect/onnx/Elementwise.h) or, for Cast, Clip, Where, Range and the ops
// that only move or rename, as written in ElementwiseExpressions.cpp.
// Shared by the elementwise kernels and the epilogues they give contraction
// kernels (ElementwiseKernels.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "lowering/KernelGenerator.h"

#include "llvm/ADT/DenseMap.h"

#include <string>

namespace onyx::onnx {
struct ElementwiseInfo;
} // namespace onyx::onnx

namespace onyx::lowering {

/// Writes the body of a kernel (or of a contraction's epilogue) into
/// `code`: one statement per op.
class ExpressionWriter {
public:
  ExpressionWriter(LoweringContext &ctx) : ctx(ctx) {}

  /// Makes `value` available under `name` (a compute-type expression).
  void bind(Value value, std::string name) { names[value] = std::move(name); }
  /// Makes the element of `range`, an onnx.Range's result, that the output
  /// element reads the one at `index` (a uint expression).
  void setRangeIndex(Value range, std::string index) {
    rangeIndices[range] = std::move(index);
  }
  /// The expression of `value`: a bound name, or a literal for a splat
  /// constant. Empty after reporting an error.
  std::string get(Value value);
  /// Appends the statement of `op`; fails, reported, for an op that no
  /// statement computes or whose operands have no value.
  LogicalResult emit(Operation *op);

  std::string code;

private:
  std::string define(Value result, const std::string &expr);
  LogicalResult emitRow(Operation *op, const onnx::ElementwiseInfo &row);

  LoweringContext &ctx;
  llvm::DenseMap<Value, std::string> names;
  llvm::DenseMap<Value, std::string> rangeIndices;
  unsigned counter = 0;
};

/// The element type of `v`, a ranked tensor.
inline Type elementTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// The value of a one-element or splat constant as a literal; empty if
/// `value` is not one.
std::string splatLiteral(Value value);

/// Fails, reported, if a result of `ops` (a fused body) has an element
/// type the kernels cannot compute in.
LogicalResult checkElementTypes(ArrayRef<Operation *> ops,
                                LoweringContext &ctx);

} // namespace onyx::lowering

//===- Elementwise.h - The elementwise op table for kernels -----*- C++ -*-===//
//
// Elementwise onnx ops differ only in their scalar function, so they are
// rows of one table (Elementwise.cpp). This header exposes what a kernel
// generator needs from a row: the arity, the element types it accepts and
// the scalar function as a GLSL expression.
//
// Shader expressions use `$0`, `$1`, ... for the operands (already converted
// to the computation type: float for f16/bf16/f32, double for f64, int/uint
// for integers, bool) and `$name` for the value of the op's attribute `name`
// (with its default applied): a float literal for `alpha`, `beta`, `gamma`,
// an integer for `fmod`, the string itself for `approximate`, so that
// `onyx_gelu_$approximate` names `onyx_gelu_none` or `onyx_gelu_tanh`.
// Functions GLSL lacks (`onyx_erf`, `onyx_mod`, `onyx_gelu_*`) are the
// generator's to define. Variadic rows give the expression combining two
// operands; Mean then divides by the operand count.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

namespace onyx::onnx {

/// Sets of element types, as a bit mask.
enum TypeSet : unsigned {
  FloatTypes = 1,
  SignedTypes = 2,
  UnsignedTypes = 4,
  BoolType = 8,
  SignedNumericTypes = FloatTypes | SignedTypes,
  NumericTypes = FloatTypes | SignedTypes | UnsignedTypes,
  IntegerTypes = SignedTypes | UnsignedTypes,
  AllTypes = NumericTypes | BoolType,
};

struct ElementwiseInfo {
  /// "onnx.Add".
  StringRef name;
  /// The number of operands; 0 for variadic ops (Sum, Max, ...), which fold
  /// their scalar function over the operands from left to right.
  unsigned arity;
  /// Element types of the operands.
  unsigned types;
  /// Whether the result is bool (comparisons) rather than the operands' type.
  bool boolResult;
  /// Whether the operands may have different element types (Pow's exponent);
  /// the result has the first operand's.
  bool mixedTypes;
  StringRef shader;
};

/// Every elementwise row.
ArrayRef<ElementwiseInfo> getElementwiseInfos();
/// The row of `opName`, or null if it is not an elementwise row.
const ElementwiseInfo *lookupElementwiseInfo(StringRef opName);

} // namespace onyx::onnx

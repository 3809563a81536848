//===- TensorLiteral.h - Tensors written on a command line ------*- C++ -*-===//
//
// `2x3xf32=1,2,3,4,5,6`: a shape and an element type spelled as in IR types
// (`f32`, `i64`, `ui8`, `i1`; a scalar is just `f32=1.5`), then the elements
// in row-major order. One element fills the whole tensor (`1x3x224x224xf32=0`).
// Floats accept `nan`, `inf` and `-inf`, bools `true`/`false`/`0`/`1`, and
// integers must fit their type. Shapes, types and values print the same
// way (`1x3x224xf32`), so that messages quote what a user would write.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include <string>

namespace onyx::onnx {

/// Parses `SHAPExTYPE=V,V,...`; fails with a message in `error`.
FailureOr<Tensor> parseTensorLiteral(StringRef text, std::string &error);

/// The element type spelled `name` ("f32", "ui8", "i1").
std::optional<ElementType> parseElementTypeName(StringRef name);

/// `2x3xf32` for a 2x3 f32 tensor, `f32` for a scalar.
std::string formatShapeAndType(ArrayRef<int64_t> shape, ElementType type);
inline std::string formatShapeAndType(const Tensor &tensor) {
  return formatShapeAndType(tensor.getShape(), tensor.getElementType());
}

/// Element `index` (row-major) as a literal writes it: the shortest text
/// that reads back to the same value (`0.1`, `-inf`, `nan`, `true`).
std::string formatElement(const Tensor &tensor, int64_t index);
/// The first `maxElements` elements: `[1, 2, 3, ...]`.
std::string formatElements(const Tensor &tensor, int64_t maxElements);

} // namespace onyx::onnx

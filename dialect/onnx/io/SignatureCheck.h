//===- SignatureCheck.h - Tensors against a function's types ----*- C++ -*-===//
//
// Whether concrete tensors fit IR tensor types: the inputs given to a
// function against its argument types before it runs (so that a wrong
// input is a clear error, not a failure deep inside some op), and computed
// results against the types the IR promised. A dynamic dimension (`?`)
// accepts any size.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include <string>

namespace onyx::onnx {

/// Whether `tensor` has the element type and a shape of tensor type `type`.
bool matchesType(const Tensor &tensor, Type type);

/// Checks the number, element types and shapes of `inputs` against
/// `argTypes`; fails with a message such as `input 0: expected
/// tensor<1x3x224x224xf32>, got 1x3x224xf32` in `error`.
LogicalResult checkInputs(ArrayRef<Type> argTypes, ArrayRef<Tensor> inputs,
                          std::string &error);

} // namespace onyx::onnx

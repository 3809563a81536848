//===- TensorLiteral.cpp - Tensors written inline on a command line -------===//

#include "dialect/onnx/io/TensorLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <fmt/format.h>

#include <cmath>

using namespace onyx;
using namespace onyx::onnx;

/// A literal is typed by hand, so a size beyond this is a typo, and failing
/// beats trying to allocate it.
static constexpr int64_t kMaxLiteralBytes = int64_t(1) << 32;

std::optional<ElementType> onyx::onnx::parseElementTypeName(StringRef name) {
  for (unsigned i = 0; i <= unsigned(ElementType::Bool); ++i)
    if (getTypeName(ElementType(i)) == name)
      return ElementType(i);
  return std::nullopt;
}

std::string onyx::onnx::formatShapeAndType(ArrayRef<int64_t> shape,
                                           ElementType type) {
  std::string text;
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + getTypeName(type).str();
}

/// Parses one element of storage type T from `text`.
template <typename T>
static LogicalResult parseElement(StringRef text, T &value,
                                  std::string &error) {
  if constexpr (std::is_same_v<T, bool>) {
    if (text == "true" || text == "1") {
      value = true;
      return success();
    }
    if (text == "false" || text == "0") {
      value = false;
      return success();
    }
    error = "expected true, false, 1 or 0 for an i1 element, got '" +
            text.str() + "'";
    return failure();
  } else if constexpr (isFloatStorage<T>) {
    double number;
    StringRef magnitude = text;
    bool negative = magnitude.consume_front("-");
    if (!negative)
      magnitude.consume_front("+");
    if (magnitude.equals_insensitive("inf") ||
        magnitude.equals_insensitive("infinity")) {
      number = negative ? -INFINITY : INFINITY;
    } else if (magnitude.equals_insensitive("nan")) {
      number = negative ? -NAN : NAN;
    } else if (text.getAsDouble(number)) {
      error = "expected a number, got '" + text.str() + "'";
      return failure();
    }
    value = fromCompute<T>(number);
    return success();
  } else {
    // getAsInteger rejects values that overflow 64 bits; narrower types
    // are range-checked here.
    bool outOfRange;
    if constexpr (std::is_signed_v<T>) {
      int64_t number;
      if (text.getAsInteger(10, number)) {
        error = "expected an integer, got '" + text.str() + "'";
        return failure();
      }
      outOfRange = number < std::numeric_limits<T>::min() ||
                   number > std::numeric_limits<T>::max();
      value = T(number);
    } else {
      uint64_t number;
      if (text.starts_with("-") || text.getAsInteger(10, number)) {
        error = "expected a non-negative integer, got '" + text.str() + "'";
        return failure();
      }
      outOfRange = number > std::numeric_limits<T>::max();
      value = T(number);
    }
    if (outOfRange) {
      error = "value " + text.str() + " is out of range for " +
              getTypeName(elementTypeOf<T>()).str();
      return failure();
    }
    return success();
  }
}

/// Fills `tensor` from `values`: one per element, or one for all of them.
static LogicalResult fillTensor(Tensor &tensor, ArrayRef<StringRef> values,
                                std::string &error) {
  return dispatchType(tensor.getElementType(), [&](auto zero) {
    using T = decltype(zero);
    MutableArrayRef<T> elements = tensor.getMutableValues<T>();
    for (auto [i, text] : llvm::enumerate(values)) {
      if (failed(parseElement<T>(text, elements[i], error))) {
        error = "element " + std::to_string(i) + ": " + error;
        return failure();
      }
    }
    if (values.size() == 1)
      std::fill(elements.begin(), elements.end(), elements.front());
    return success();
  });
}

FailureOr<Tensor> onyx::onnx::parseTensorLiteral(StringRef text,
                                                 std::string &error) {
  auto [spec, valueText] = text.split('=');
  if (spec.size() == text.size()) {
    error = "expected SHAPExTYPE=VALUES (e.g. 2x3xf32=1,2,3,4,5,6), got '" +
            text.str() + "'";
    return failure();
  }
  SmallVector<StringRef> parts;
  spec.split(parts, 'x');
  std::optional<ElementType> type = parseElementTypeName(parts.back());
  if (!type) {
    error = "unknown element type '" + parts.back().str() +
            "' (expected f16, bf16, f32, f64, i8, i16, i32, i64, ui8, ui16, "
            "ui32, ui64 or i1)";
    return failure();
  }
  SmallVector<int64_t> shape;
  int64_t numBytes = getByteSize(*type);
  for (StringRef part : ArrayRef(parts).drop_back()) {
    int64_t dim;
    if (part.getAsInteger(10, dim) || dim < 0 ||
        llvm::MulOverflow(numBytes, dim, numBytes) ||
        numBytes > kMaxLiteralBytes) {
      error = "bad shape '" + spec.str() +
              "': dimensions must be non-negative integers and the tensor "
              "at most 4 GiB";
      return failure();
    }
    shape.push_back(int64_t(dim));
  }

  SmallVector<StringRef> values;
  if (!valueText.trim().empty())
    valueText.split(values, ',');
  for (StringRef &value : values)
    value = value.trim();
  int64_t numElements = onnx::getNumElements(shape);
  bool isSplat = values.size() == 1 && numElements > 0;
  if (int64_t(values.size()) != numElements && !isSplat) {
    error = formatShapeAndType(shape, *type) + " needs " +
            std::to_string(numElements) + " values (or one for all), got " +
            std::to_string(values.size());
    return failure();
  }
  Tensor tensor(*type, shape);
  if (failed(fillTensor(tensor, values, error)))
    return failure();
  return tensor;
}

std::string onyx::onnx::formatElement(const Tensor &tensor, int64_t index) {
  return dispatchType(tensor.getElementType(), [&](auto zero) -> std::string {
    using T = decltype(zero);
    T value = tensor.getValues<T>()[index];
    if constexpr (std::is_same_v<T, bool>)
      return value ? "true" : "false";
    else if constexpr (isFloatStorage<T>)
      // fmt writes the shortest text that reads back to the same value.
      return fmt::format("{}", ComputeType<T>(value));
    else if constexpr (std::is_signed_v<T>)
      return std::to_string(int64_t(value));
    else
      return std::to_string(uint64_t(value));
  });
}

std::string onyx::onnx::formatElements(const Tensor &tensor,
                                       int64_t maxElements) {
  int64_t count = std::min(tensor.getNumElements(), maxElements);
  std::string text = "[";
  for (int64_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + formatElement(tensor, i);
  if (count < tensor.getNumElements())
    text += count ? ", ..." : "...";
  return text + "]";
}

//===- TensorComparison.cpp - Comparing results with references -----------===//

#include "dialect/onnx/io/TensorComparison.h"

#include "dialect/onnx/io/TensorLiteral.h"

#include <cmath>

using namespace onyx;
using namespace onyx::onnx;

namespace {

/// The error of one element and whether it is within the tolerance.
struct ElementError {
  double abs;
  double rel;
  bool ok;
};

} // namespace

static ElementError compareFloats(double actual, double expected,
                                  Tolerance tolerance) {
  if (std::isnan(actual) || std::isnan(expected)) {
    bool ok = std::isnan(actual) && std::isnan(expected);
    return {ok ? 0 : INFINITY, ok ? 0 : INFINITY, ok};
  }
  // Infinities must be equal: their difference is not a distance.
  if (std::isinf(actual) || std::isinf(expected)) {
    bool ok = actual == expected;
    return {ok ? 0 : INFINITY, ok ? 0 : INFINITY, ok};
  }
  double abs = std::fabs(actual - expected);
  double magnitude = std::fabs(expected);
  double rel = magnitude != 0 ? abs / magnitude : (abs == 0 ? 0 : INFINITY);
  return {abs, rel, abs <= tolerance.atol + tolerance.rtol * magnitude};
}

template <typename T>
static ElementError compareElements(T actual, T expected, Tolerance tolerance) {
  if constexpr (isFloatStorage<T>) {
    return compareFloats(double(ComputeType<T>(actual)),
                         double(ComputeType<T>(expected)), tolerance);
  } else {
    // Exact on the integers themselves; the reported errors are doubles,
    // which is only a matter of display for 64-bit values.
    double abs = std::fabs(double(actual) - double(expected));
    double magnitude = std::fabs(double(expected));
    double rel = magnitude != 0 ? abs / magnitude : (abs == 0 ? 0 : INFINITY);
    return {abs, rel, actual == expected};
  }
}

ComparisonResult onyx::onnx::compareTensors(const Tensor &actual,
                                            const Tensor &expected,
                                            Tolerance tolerance) {
  ComparisonResult result;
  ElementType actualType = actual.getElementType();
  ElementType expectedType = expected.getElementType();
  if (actualType != expectedType && tolerance.acrossFloatWidths &&
      isFloat(actualType) && isFloat(expectedType) &&
      actual.getShape() == expected.getShape())
    return compareTensors(convertTensor(actual, ElementType::F64),
                          convertTensor(expected, ElementType::F64), tolerance);
  if (actualType != expectedType || actual.getShape() != expected.getShape()) {
    result.mismatch = "expected " + formatShapeAndType(expected) + ", got " +
                      formatShapeAndType(actual);
    return result;
  }
  dispatchType(expected.getElementType(), [&](auto zero) {
    using T = decltype(zero);
    ArrayRef<T> actualValues = actual.getValues<T>();
    ArrayRef<T> expectedValues = expected.getValues<T>();
    for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i) {
      ElementError error =
          compareElements<T>(actualValues[i], expectedValues[i], tolerance);
      result.maxAbsError = std::max(result.maxAbsError, error.abs);
      result.maxRelError = std::max(result.maxRelError, error.rel);
      if (error.ok)
        continue;
      if (result.numMismatched++ == 0)
        result.firstMismatched = i;
    }
  });
  return result;
}

//===- TensorComparison.h - Comparing results with references ---*- C++ -*-===//
//
// The check that onyx-run --expected-output and the conformance runner
// share, ONNX's backend-test rule (numpy.testing.assert_allclose with
// equal_nan): shapes and element types must be equal (floats of different
// widths may be compared where the tolerance says so), and every element
// must satisfy |actual - expected| <= atol + rtol * |expected|; NaN matches
// only NaN and an infinity only the same infinity. Integers and bools must
// be equal: the tolerance is meant for rounding, which they do not have.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include <string>

namespace onyx::onnx {

struct Tolerance {
  /// ONNX's backend test runner's defaults.
  double rtol = 1e-3;
  double atol = 1e-7;
  /// Whether floats of different widths compare by value (an f16 model's
  /// outputs against the f32 outputs of its original) rather than being a
  /// mismatch of element types.
  bool acrossFloatWidths = false;
};

struct ComparisonResult {
  /// Why the tensors cannot be compared element by element (different
  /// shapes or element types); empty when they can.
  std::string mismatch;
  /// Largest |actual - expected|, and that divided by |expected| (infinite
  /// where expected is 0 and actual is not), over the elements that are
  /// not both NaN.
  double maxAbsError = 0;
  double maxRelError = 0;
  /// Elements outside the tolerance, and the first of them.
  int64_t numMismatched = 0;
  int64_t firstMismatched = -1;

  bool passed() const { return mismatch.empty() && numMismatched == 0; }
};

ComparisonResult compareTensors(const Tensor &actual, const Tensor &expected,
                                Tolerance tolerance);

} // namespace onyx::onnx

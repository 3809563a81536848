//===- TensorComparisonTest.cpp - Results against references --------------===//
#include "dialect/onnx/io/TensorComparison.h"
#include "dialect/onnx/io/TensorLiteral.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace onyx;
using namespace onyx::onnx;

namespace {

Tensor literal(StringRef text) {
  std::string error;
  FailureOr<Tensor> tensor = parseTensorLiteral(text, error);
  EXPECT_TRUE(succeeded(tensor)) << error;
  return *tensor;
}

ComparisonResult compare(StringRef actual, StringRef expected,
                         Tolerance tolerance = {}) {
  return compareTensors(literal(actual), literal(expected), tolerance);
}

TEST(TensorComparisonTest, Tolerances) {
  ComparisonResult result = compare("2xf32=1.0005,2", "2xf32=1,2");
  EXPECT_TRUE(result.passed());
  EXPECT_NEAR(result.maxAbsError, 5e-4, 1e-6);
  EXPECT_NEAR(result.maxRelError, 5e-4, 1e-6);

  result = compare("3xf32=1,2.01,3.1", "3xf32=1,2,3");
  EXPECT_FALSE(result.passed());
  EXPECT_EQ(result.numMismatched, 2);
  EXPECT_EQ(result.firstMismatched, 1);

  // Near zero only atol helps; ONNX's default of 1e-7 is strict.
  EXPECT_FALSE(compare("f32=1e-6", "f32=0").passed());
  EXPECT_TRUE(compare("f32=1e-6", "f32=0", {1e-3, 1e-5}).passed());
  EXPECT_EQ(compare("f32=1e-6", "f32=0").maxRelError, INFINITY);
}

TEST(TensorComparisonTest, NaNAndInfinities) {
  EXPECT_TRUE(compare("2xf64=nan,inf", "2xf64=nan,inf").passed());
  EXPECT_FALSE(compare("f64=nan", "f64=1").passed());
  EXPECT_FALSE(compare("f64=1", "f64=nan").passed());
  EXPECT_FALSE(compare("f64=inf", "f64=-inf").passed());
  EXPECT_FALSE(compare("f64=1e300", "f64=inf").passed());
}

TEST(TensorComparisonTest, IntegersMustBeEqual) {
  EXPECT_TRUE(compare("2xi64=5,-3", "2xi64=5,-3").passed());
  // 10001 is within rtol of 10000, but integers have no rounding error.
  EXPECT_FALSE(compare("i64=10001", "i64=10000").passed());
  EXPECT_FALSE(compare("2xi1=1,0", "2xi1=1,1").passed());
}

TEST(TensorComparisonTest, ShapesAndTypesMustMatch) {
  EXPECT_EQ(compare("2x3xf32=0", "3x2xf32=0").mismatch,
            "expected 3x2xf32, got 2x3xf32");
  EXPECT_EQ(compare("1xf32=0", "f32=0").mismatch, "expected f32, got 1xf32");
  EXPECT_EQ(compare("2xf64=0", "2xf32=0").mismatch,
            "expected 2xf32, got 2xf64");
}

} // namespace

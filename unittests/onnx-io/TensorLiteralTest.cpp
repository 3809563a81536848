//===- TensorLiteralTest.cpp - Tensors written on a command line ----------===//
#include "dialect/onnx/io/TensorLiteral.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace onyx;
using namespace onyx::onnx;

namespace {

Tensor parse(StringRef text) {
  std::string error;
  FailureOr<Tensor> tensor = parseTensorLiteral(text, error);
  EXPECT_TRUE(succeeded(tensor)) << text.str() << ": " << error;
  return succeeded(tensor) ? *tensor : Tensor();
}

std::string parseError(StringRef text) {
  std::string error;
  EXPECT_TRUE(failed(parseTensorLiteral(text, error))) << text.str();
  return error;
}

TEST(TensorLiteralTest, ShapesTypesAndValues) {
  Tensor t = parse("2x3xf32=1,2,3,4,5,6.5");
  EXPECT_EQ(t.getElementType(), ElementType::F32);
  EXPECT_EQ(t.getShape(), ArrayRef<int64_t>({2, 3}));
  EXPECT_EQ(t.getValues<float>()[5], 6.5f);

  Tensor scalar = parse("i64=-7");
  EXPECT_EQ(scalar.getRank(), 0);
  EXPECT_EQ(scalar.getValues<int64_t>()[0], -7);

  Tensor bools = parse("3xi1=true, 0, false");
  EXPECT_EQ(bools.getValues<bool>()[0], true);
  EXPECT_EQ(bools.getValues<bool>()[1], false);

  Tensor big = parse("ui64=18446744073709551615");
  EXPECT_EQ(big.getValues<uint64_t>()[0], UINT64_MAX);
  EXPECT_EQ(parse("0x3xf32=").getNumElements(), 0);
  EXPECT_EQ(parse("2xf16=0.5,-2").getDouble(1), -2.0);
}

TEST(TensorLiteralTest, OneValueFillsTheTensor) {
  Tensor t = parse("1x3x4x4xf32=0.25");
  EXPECT_EQ(t.getNumElements(), 48);
  for (float v : t.getValues<float>())
    EXPECT_EQ(v, 0.25f);
}

TEST(TensorLiteralTest, SpecialFloats) {
  Tensor t = parse("4xf64=nan,inf,-inf,-0");
  EXPECT_TRUE(std::isnan(t.getValues<double>()[0]));
  EXPECT_EQ(t.getValues<double>()[1], INFINITY);
  EXPECT_EQ(t.getValues<double>()[2], -INFINITY);
  EXPECT_TRUE(std::signbit(t.getValues<double>()[3]));
}

TEST(TensorLiteralTest, Errors) {
  EXPECT_EQ(parseError("2x3xf32"),
            "expected SHAPExTYPE=VALUES (e.g. 2x3xf32=1,2,3,4,5,6), got "
            "'2x3xf32'");
  EXPECT_EQ(parseError("2x3xfloat=1"),
            "unknown element type 'float' (expected f16, bf16, f32, f64, i8, "
            "i16, i32, i64, ui8, ui16, ui32, ui64 or i1)");
  EXPECT_EQ(parseError("2xax3xf32=1"),
            "bad shape '2xax3xf32': dimensions must be non-negative integers "
            "and the tensor at most 4 GiB");
  EXPECT_EQ(parseError("100000x100000xf32=0"),
            "bad shape '100000x100000xf32': dimensions must be non-negative "
            "integers and the tensor at most 4 GiB");
  EXPECT_EQ(parseError("2x3xf32=1,2"),
            "2x3xf32 needs 6 values (or one for all), got 2");
  EXPECT_EQ(parseError("f32="), "f32 needs 1 values (or one for all), got 0");
  EXPECT_EQ(parseError("2xf32=1,x"), "element 1: expected a number, got 'x'");
  EXPECT_EQ(parseError("2xi8=1,200"),
            "element 1: value 200 is out of range for i8");
  EXPECT_EQ(parseError("ui8=-1"),
            "element 0: expected a non-negative integer, got '-1'");
  EXPECT_EQ(parseError("i32=1.5"), "element 0: expected an integer, got '1.5'");
  EXPECT_EQ(parseError("i1=2"),
            "element 0: expected true, false, 1 or 0 for an i1 element, got "
            "'2'");
}

TEST(TensorLiteralTest, FormatsWhatItParses) {
  EXPECT_EQ(formatShapeAndType({1, 3, 224}, ElementType::F32), "1x3x224xf32");
  EXPECT_EQ(formatShapeAndType({}, ElementType::U8), "ui8");
  Tensor t = parse("6xf32=0.1,-inf,nan,1e+20,3,-0");
  EXPECT_EQ(formatElements(t, 8), "[0.1, -inf, nan, 1e+20, 3, -0]");
  EXPECT_EQ(formatElements(t, 2), "[0.1, -inf, ...]");
  EXPECT_EQ(formatElements(parse("3xi1=1,0,1"), 8), "[true, false, true]");
  EXPECT_EQ(formatElements(parse("2xi8=-128,127"), 8), "[-128, 127]");
}

} // namespace

//===- NpyFileTest.cpp - Reading and writing .npy files -------------------===//
#include "dialect/onnx/io/NpyFile.h"

#include <gtest/gtest.h>

using namespace onyx;
using namespace onyx::onnx;

namespace {

/// A .npy file with header `dict` (padded as NumPy pads it) and `data`.
std::string makeNpy(StringRef dict, StringRef data, char major = 1) {
  std::string header = dict.str();
  size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += major;
  bytes += '\0';
  bytes += char(header.size() & 0xff);
  bytes += char(header.size() >> 8);
  if (major != 1)
    bytes += std::string(2, '\0');
  return bytes + header + data.str();
}

std::string parseError(StringRef bytes) {
  std::string error;
  EXPECT_TRUE(failed(parseNpy(bytes, error)));
  return error;
}

TEST(NpyFileTest, WritesTheHeaderNumPyWrites) {
  // The first bytes of `numpy.save` of an 8x256 float32 array.
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                         "{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (8, 256), }";
  expected += std::string(127 - expected.size(), ' ') + "\n";
  std::string error;
  FailureOr<std::string> bytes =
      serializeNpy(Tensor(ElementType::F32, {8, 256}), error);
  ASSERT_TRUE(succeeded(bytes)) << error;
  EXPECT_EQ(bytes->size(), 128u + 8 * 256 * 4);
  EXPECT_EQ(bytes->substr(0, 128), expected);
}

TEST(NpyFileTest, RoundTripsEveryDtype) {
  for (ElementType type :
       {ElementType::F16, ElementType::F32, ElementType::F64, ElementType::I8,
        ElementType::I16, ElementType::I32, ElementType::I64, ElementType::U8,
        ElementType::U16, ElementType::U32, ElementType::U64,
        ElementType::Bool}) {
    Tensor tensor = Tensor::fromInts(type, {2, 3}, {1, 0, 1, 1, 0, 1});
    std::string error;
    FailureOr<std::string> bytes = serializeNpy(tensor, error);
    ASSERT_TRUE(succeeded(bytes)) << error;
    FailureOr<Tensor> back = parseNpy(*bytes, error);
    ASSERT_TRUE(succeeded(back)) << error;
    EXPECT_EQ(back->getElementType(), type);
    EXPECT_EQ(back->getShape(), ArrayRef<int64_t>({2, 3}));
    EXPECT_EQ(back->getBytes(), tensor.getBytes());
  }
}

TEST(NpyFileTest, ScalarsOneDimAndEmpty) {
  std::string error;
  for (SmallVector<int64_t> shape :
       {SmallVector<int64_t>{}, SmallVector<int64_t>{5},
        SmallVector<int64_t>{0, 3}}) {
    FailureOr<std::string> bytes =
        serializeNpy(Tensor(ElementType::I64, shape), error);
    ASSERT_TRUE(succeeded(bytes)) << error;
    FailureOr<Tensor> back = parseNpy(*bytes, error);
    ASSERT_TRUE(succeeded(back)) << error;
    EXPECT_EQ(back->getShape(), ArrayRef<int64_t>(shape));
  }
  FailureOr<std::string> bytes =
      serializeNpy(Tensor(ElementType::F32, {5}), error);
  EXPECT_NE(bytes->find("'shape': (5,), }"), std::string::npos);
  bytes = serializeNpy(Tensor(ElementType::F32, {}), error);
  EXPECT_NE(bytes->find("'shape': (), }"), std::string::npos);
}

TEST(NpyFileTest, ReadsVersion2AndOtherSpellings) {
  std::string data(8, '\0');
  data[0] = 1;
  std::string error;
  FailureOr<Tensor> tensor = parseNpy(
      makeNpy("{\"shape\":(2,),\"fortran_order\":False,\"descr\":\"<i4\"}",
              data, 2),
      error);
  ASSERT_TRUE(succeeded(tensor)) << error;
  EXPECT_EQ(tensor->getElementType(), ElementType::I32);
  EXPECT_EQ(tensor->getInt(0), 1);
  EXPECT_EQ(tensor->getInt(1), 0);
  tensor = parseNpy(
      makeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (1, )}",
              StringRef("\x01", 1)),
      error);
  ASSERT_TRUE(succeeded(tensor)) << error;
  EXPECT_EQ(tensor->getElementType(), ElementType::Bool);
}

TEST(NpyFileTest, RejectsMalformedFiles) {
  StringRef f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  EXPECT_EQ(parseError("NUMPY"), "not a .npy file (bad magic string)");
  EXPECT_EQ(parseError(makeNpy(f4, "").substr(0, 20)), "truncated .npy header");
  EXPECT_EQ(parseError(makeNpy(f4, "1234")),
            "the header describes 8 bytes of data but the file holds 4");
  EXPECT_EQ(parseError(makeNpy(f4, "123456789")),
            "the header describes 8 bytes of data but the file holds 9");
  EXPECT_EQ(parseError(makeNpy(f4, "", 4)),
            "unsupported .npy format version 4.0");
  EXPECT_EQ(
      parseError(makeNpy(
          "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", "")),
      "Fortran-order arrays are not supported; save the array in C order");
  EXPECT_EQ(
      parseError(makeNpy(
          "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", "")),
      "dtype '>f4' is not little-endian; only little-endian data is "
      "supported");
  EXPECT_EQ(
      parseError(makeNpy(
          "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", "")),
      "unsupported dtype '<c8' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 "
      "u4 u8 b1)");
  EXPECT_EQ(
      parseError(makeNpy(
          "{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }", "")),
      "unsupported dtype '<U5' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 "
      "u4 u8 b1)");
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f4', 'shape': (2,), }", "")),
            "the header lacks 'descr', 'fortran_order' or 'shape'");
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f4', 'descr': '<f4'}", "")),
            "duplicate header key 'descr'");
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (-2,), }",
                               "")),
            "expected a non-negative dimension in 'shape'");
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (4294967296, 4294967296), }",
                               "")),
            "the shape in the header is too large");
  EXPECT_EQ(parseError(makeNpy("{'descr': '<f4' 'fortran_order': False}", "")),
            "expected ',' or '}' in the header");
  // A header that ends inside a dimension (no padding after it: the header
  // length says where it ends) read past its end (found by
  // fuzz-tensor-readers, corpus/tensor-readers/npy-shape-ends-in-digits).
  EXPECT_EQ(parseError(StringRef("\x93NUMPY\x01\x00\x0d\x00{'shape': (12", 23)),
            "expected ',' or ')' in 'shape'");
}

TEST(NpyFileTest, RejectsTypesNumPyLacks) {
  std::string error;
  EXPECT_TRUE(failed(serializeNpy(Tensor(ElementType::BF16, {2}), error)));
  EXPECT_EQ(error, "element type bf16 has no NumPy dtype");
}

TEST(NpyFileTest, ReportsMissingFiles) {
  std::string error;
  EXPECT_TRUE(failed(readNpyFile("/nonexistent/x.npy", error)));
  EXPECT_EQ(error,
            "cannot read '/nonexistent/x.npy': No such file or directory");
}

} // namespace

//===- TensorTest.cpp - Runtime tensors, conversions, broadcasting --------===//

#include "dialect/onnx/Tensor.h"

#include "ir/Context.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace onyx;
using namespace onyx::onnx;

namespace {

uint16_t halfBits(double v) { return Float16::fromDouble(v).bits; }
uint16_t bfloatBits(double v) { return BFloat16::fromDouble(v).bits; }

TEST(Float16Test, RoundsToNearestEven) {
  EXPECT_EQ(halfBits(1.0), 0x3c00);
  EXPECT_EQ(halfBits(-2.0), 0xc000);
  EXPECT_EQ(halfBits(0.1), 0x2e66);
  EXPECT_EQ(halfBits(65504.0), 0x7bff);
  // Halfway between 65504 and 65536: ties to even, which overflows.
  EXPECT_EQ(halfBits(65520.0), 0x7c00);
  EXPECT_EQ(halfBits(65519.0), 0x7bff);
  // Subnormals: 2^-24 is the smallest; half of it ties to zero.
  EXPECT_EQ(halfBits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(halfBits(std::ldexp(1.0, -25)), 0x0000);
  EXPECT_EQ(halfBits(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(halfBits(-0.0), 0x8000);
  EXPECT_EQ(halfBits(INFINITY), 0x7c00);
  EXPECT_TRUE(std::isnan(float(Float16::fromDouble(NAN))));
}

TEST(Float16Test, DoubleRoundsOnce) {
  // 1 + 2^-11 + 2^-40 is just above the halfway point between two halves;
  // rounding through float first would land on the tie and round down.
  double v = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(halfBits(v), 0x3c01);
}

TEST(Float16Test, ConvertsToFloat) {
  EXPECT_EQ(float(Float16{0x3c00}), 1.0f);
  EXPECT_EQ(float(Float16{0x0001}), std::ldexp(1.0f, -24));
  EXPECT_EQ(float(Float16{0x03ff}), std::ldexp(1023.0f, -24));
  EXPECT_EQ(float(Float16{0x7bff}), 65504.0f);
  EXPECT_TRUE(std::isinf(float(Float16{0xfc00})));
}

TEST(BFloat16Test, RoundsToNearestEven) {
  EXPECT_EQ(bfloatBits(1.0), 0x3f80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(bfloatBits(1.0 + std::ldexp(1.0, -8)), 0x3f80);
  EXPECT_EQ(bfloatBits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);
  EXPECT_EQ(float(BFloat16{0x4049}), 3.140625f);
}

TEST(ConvertElementTest, FollowsCast) {
  EXPECT_EQ(convertElement<int8_t>(300.0f), 127);
  EXPECT_EQ(convertElement<int8_t>(-300.0f), -128);
  EXPECT_EQ(convertElement<int32_t>(-1.9), -1);
  EXPECT_EQ(convertElement<uint8_t>(-5.0), 0);
  EXPECT_EQ(convertElement<int64_t>(double(NAN)), 0);
  EXPECT_EQ(convertElement<int64_t>(1e30), std::numeric_limits<int64_t>::max());
  // Integers wrap to narrower integers.
  EXPECT_EQ(convertElement<int8_t>(int32_t(200)), -56);
  EXPECT_EQ(convertElement<uint8_t>(int64_t(-1)), 255);
  EXPECT_EQ(convertElement<bool>(0.5f), true);
  EXPECT_EQ(convertElement<bool>(int64_t(0)), false);
  EXPECT_EQ(convertElement<float>(true), 1.0f);
  EXPECT_EQ(convertElement<Float16>(1.0).bits, 0x3c00);
  EXPECT_EQ(convertElement<double>(Float16{0x3555}),
            double(float(Float16{0x3555})));
}

TEST(ElementTypeTest, MapsToIRTypesAndOnnxCodes) {
  Context ctx;
  EXPECT_EQ(getTypeName(ElementType::U8), "ui8");
  EXPECT_EQ(getTypeName(ElementType::Bool), "i1");
  for (unsigned i = 0; i <= unsigned(ElementType::Bool); ++i) {
    auto type = static_cast<ElementType>(i);
    EXPECT_EQ(getElementType(getIRType(&ctx, type)), type);
    EXPECT_EQ(fromOnnxDataType(getOnnxDataType(type)), type);
  }
  EXPECT_EQ(getOnnxDataType(ElementType::F32), 1);
  EXPECT_EQ(getOnnxDataType(ElementType::I64), 7);
  EXPECT_EQ(getOnnxDataType(ElementType::F16), 10);
  // Signed integer types and strings have no tensor element type here.
  EXPECT_FALSE(getElementType(IntegerType::get(&ctx, 32, IntegerType::Signed)));
  EXPECT_FALSE(fromOnnxDataType(8));
}

TEST(TensorTest, ReadsAttributesInPlace) {
  Context ctx;
  Tensor t = Tensor::fromInts(ElementType::I32, {2, 2}, {1, 2, 3, 4});
  DenseElementsAttr attr = t.toAttr(&ctx);
  std::optional<Tensor> read = Tensor::fromAttr(attr);
  ASSERT_TRUE(read);
  EXPECT_TRUE(read->isBorrowed());
  EXPECT_EQ(read->getBytes().data(), attr.getRawData().data());
  EXPECT_EQ(read->getShape(), ArrayRef<int64_t>({2, 2}));
  EXPECT_EQ(read->getValues<int32_t>()[3], 4);

  // Writing copies first: the attribute is unchanged.
  read->setInt(0, 7);
  EXPECT_FALSE(read->isBorrowed());
  EXPECT_EQ(read->getInt(0), 7);
  EXPECT_EQ(attr.getIntValue(0).getSExtValue(), 1);
}

TEST(TensorTest, SplatsRoundTrip) {
  Context ctx;
  Tensor ones =
      Tensor::fromDoubles(ElementType::F32, {3, 2}, {1, 1, 1, 1, 1, 1});
  DenseElementsAttr attr = ones.toAttr(&ctx);
  EXPECT_TRUE(attr.isSplat());
  EXPECT_EQ(attr.getRawData().size(), 4u);
  std::optional<Tensor> back = Tensor::fromAttr(attr);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->getNumElements(), 6);
  EXPECT_EQ(back->getDouble(5), 1.0);
  EXPECT_EQ(back->toAttr(&ctx), attr);
}

TEST(TensorTest, CopiesShareUntilWritten) {
  Tensor a = Tensor::fromInts(ElementType::I64, {3}, {1, 2, 3});
  Tensor b = a;
  EXPECT_EQ(a.getBytes().data(), b.getBytes().data());
  b.setInt(1, 20);
  EXPECT_EQ(a.getInt(1), 2);
  EXPECT_EQ(b.getInt(1), 20);
  Tensor r = a.reshape({1, 3});
  EXPECT_EQ(r.getBytes().data(), a.getBytes().data());
  EXPECT_EQ(r.getShape(), ArrayRef<int64_t>({1, 3}));
}

TEST(TensorTest, DefaultIsAbsent) {
  Tensor absent;
  EXPECT_FALSE(absent);
  EXPECT_TRUE(Tensor(ElementType::Bool, {}));
}

TEST(BroadcastTest, Shapes) {
  using Shape = SmallVector<int64_t>;
  int64_t dyn = ShapedType::kDynamic;
  EXPECT_EQ(broadcastShapes({3, 1, 5}, {4, 1}), Shape({3, 4, 5}));
  EXPECT_EQ(broadcastShapes({}, {2, 3}), Shape({2, 3}));
  EXPECT_EQ(broadcastShapes({dyn, 3}, {4, 1}), Shape({4, 3}));
  EXPECT_EQ(broadcastShapes({dyn}, {1}), Shape({dyn}));
  EXPECT_EQ(broadcastShapes({dyn}, {dyn}), Shape({dyn}));
  EXPECT_EQ(broadcastShapes({0}, {1}), Shape({0}));
  EXPECT_FALSE(broadcastShapes({2, 3}, {3, 2}));
  EXPECT_FALSE(broadcastShapes({0}, {2}));
}

TEST(BroadcastTest, IteratorOffsets) {
  // out 2x3; a is 2x1 (offsets 0,0,0,1,1,1), b is 3 (0,1,2,0,1,2).
  BroadcastIterator it({2, 3}, {ArrayRef<int64_t>{2, 1}, ArrayRef<int64_t>{3}});
  SmallVector<int64_t> a, b;
  for (int i = 0; i < 6; ++i, it.next()) {
    a.push_back(it.offset(0));
    b.push_back(it.offset(1));
  }
  EXPECT_EQ(a, SmallVector<int64_t>({0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(b, SmallVector<int64_t>({0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(getBroadcastStrides({3, 1}, {2, 3, 4}),
            SmallVector<int64_t>({0, 1, 0}));
}

TEST(BroadcastTest, Materializes) {
  Tensor col = Tensor::fromInts(ElementType::I8, {2, 1}, {5, 6});
  Tensor out = broadcastTo(col, {2, 3});
  EXPECT_EQ(out.toInts(), SmallVector<int64_t>({5, 5, 5, 6, 6, 6}));
}

// broadcastTo copies whole rows or repeats one element per row; every
// alignment of an input against the output's last dimension, checked
// against numpy's rule element by element.
TEST(BroadcastTest, EveryRowForm) {
  struct Case {
    SmallVector<int64_t> in, out;
  };
  const Case cases[] = {{{}, {2, 3}},
                        {{}, {}},
                        {{1}, {7}},
                        {{3, 1}, {3, 4}},
                        {{1, 4}, {3, 4}},
                        {{4}, {2, 3, 4}},
                        {{2, 1, 3}, {2, 2, 3}},
                        {{2, 3, 1}, {2, 3, 5}},
                        {{1, 1}, {1, 1000}},
                        {{3}, {0, 3}},
                        {{1, 2, 1}, {4, 2, 3}}};
  for (const Case &c : cases) {
    int64_t n = 1;
    for (int64_t d : c.in)
      n *= d;
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(10 + i);
    Tensor out =
        broadcastTo(Tensor::fromInts(ElementType::I64, c.in, values), c.out);
    ASSERT_EQ(out.getShape(), ArrayRef<int64_t>(c.out));
    SmallVector<int64_t> got = out.toInts();
    // The expected element: each output coordinate taken modulo the
    // aligned input dimension (0 where that dimension is 1).
    size_t lead = c.out.size() - c.in.size();
    for (int64_t flat = 0; flat < int64_t(got.size()); ++flat) {
      int64_t rest = flat, inFlat = 0, inStride = 1;
      for (size_t d = c.out.size(); d-- > 0;) {
        int64_t coord = rest % c.out[d];
        rest /= c.out[d];
        if (d < lead)
          continue;
        int64_t inDim = c.in[d - lead];
        inFlat += (inDim == 1 ? 0 : coord) * inStride;
        inStride *= inDim;
      }
      EXPECT_EQ(got[flat], values[inFlat]) << "element " << flat;
    }
  }
}

} // namespace

//===- ContextTest.cpp - Uniquing of types and attributes -----------------===//
#include "ir/BuiltinOps.h"

#include <gtest/gtest.h>

using namespace onyx;

TEST(ContextTest, TypesAreUniqued) {
  Context ctx;
  Type f32 = FloatType::getF32(&ctx);
  EXPECT_EQ(RankedTensorType::get({2, 3}, f32),
            RankedTensorType::get({2, 3}, f32));
  EXPECT_NE(RankedTensorType::get({2, 3}, f32),
            RankedTensorType::get({3, 2}, f32));
  EXPECT_EQ(IntegerType::get(&ctx, 8), IntegerType::get(&ctx, 8));
  EXPECT_NE(IntegerType::get(&ctx, 8),
            IntegerType::get(&ctx, 8, IntegerType::Unsigned));
  Type i32 = IntegerType::get(&ctx, 32);
  EXPECT_EQ(FunctionType::get(&ctx, {i32, f32}, {f32}),
            FunctionType::get(&ctx, {i32, f32}, {f32}));
  EXPECT_EQ(RankedTensorType::get({ShapedType::kDynamic}, f32).getShape()[0],
            ShapedType::kDynamic);
}

TEST(ContextTest, AttributesAreUniqued) {
  Context ctx;
  Builder b(&ctx);
  EXPECT_EQ(b.getStringAttr("x"), b.getStringAttr("x"));
  EXPECT_EQ(b.getI64IntegerAttr(5), b.getI64IntegerAttr(5));
  EXPECT_NE(b.getI64IntegerAttr(5), b.getI32IntegerAttr(5));
  EXPECT_EQ(b.getF32FloatAttr(1.5f), b.getF32FloatAttr(1.5f));
  // -0.0 and 0.0 compare equal as doubles but are different constants.
  EXPECT_NE(b.getF32FloatAttr(0.0f), b.getF32FloatAttr(-0.0f));
  EXPECT_EQ(b.getBoolAttr(true), b.getBoolAttr(true));
  EXPECT_TRUE(isa<BoolAttr>(b.getBoolAttr(false)));
  EXPECT_EQ(b.getI64ArrayAttr({1, 2}), b.getI64ArrayAttr({1, 2}));

  DictionaryAttr d1 =
      b.getDictionaryAttr({b.getNamedAttr("b", b.getUnitAttr()),
                           b.getNamedAttr("a", b.getUnitAttr())});
  DictionaryAttr d2 =
      b.getDictionaryAttr({b.getNamedAttr("a", b.getUnitAttr()),
                           b.getNamedAttr("b", b.getUnitAttr())});
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(d1.getValue()[0].getName(), "a");
  EXPECT_TRUE(d1.get("b"));
  EXPECT_FALSE(d1.get("c"));
}

TEST(ContextTest, DenseElementsStoreSplatsOnce) {
  Context ctx;
  auto type = RankedTensorType::get({4}, FloatType::getF32(&ctx));
  llvm::APFloat one(1.0f);
  auto splat = DenseElementsAttr::get(type, {one, one, one, one});
  EXPECT_TRUE(splat.isSplat());
  EXPECT_EQ(splat.getRawData().size(), 4u);
  EXPECT_EQ(splat.getFloatValue(3).convertToFloat(), 1.0f);

  float data[] = {1, 2, 3, 4};
  auto full = DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<char *>(data), sizeof(data)));
  EXPECT_FALSE(full.isSplat());
  EXPECT_EQ(full.getFloatValue(2).convertToFloat(), 3.0f);
  EXPECT_EQ(full.getRawValues<float>()[3], 4.0f);
  // Same bytes, same attribute: the data is stored once.
  EXPECT_EQ(full, DenseElementsAttr::getFromRawBuffer(
                      type, ArrayRef<char>(reinterpret_cast<char *>(data),
                                           sizeof(data))));
}

TEST(ContextTest, Locations) {
  Context ctx;
  Builder b(&ctx);
  Location a = b.getFileLineColLoc("m.onnx", 3, 5);
  EXPECT_EQ(a, b.getFileLineColLoc("m.onnx", 3, 5));
  Location n = NameLoc::get(b.getStringAttr("node"), a);
  EXPECT_EQ(n.findFileLineCol(), a);
  // Fusing a single known location gives that location back.
  EXPECT_EQ(FusedLoc::get(&ctx, {a, b.getUnknownLoc()}), a);
  EXPECT_TRUE(isa<FusedLoc>(FusedLoc::get(&ctx, {a, n})));
}

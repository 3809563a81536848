//===- EvaluatorTest.cpp - The onnx reference evaluator and inference -----===//
//
// Each case builds one op on constant operands (through createOp, so that
// inference runs too) and evaluates it; expectations are what numpy or the
// ONNX reference implementation compute for the same inputs.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OnnxDialect.h"

#include "ir/BuiltinOps.h"
#include "ir/Operation.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace onyx;
using namespace onyx::onnx;

namespace {

class EvaluatorTest : public ::testing::Test {
protected:
  EvaluatorTest() : builder(&ctx) {
    ctx.loadDialect<OnnxDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    builder.setInsertionPointToEnd(module.getBody());
  }
  ~EvaluatorTest() override { module->erase(); }

  Attribute i(int64_t v) { return getIntAttr(&ctx, v); }
  Attribute f(double v) { return getFloatAttr(&ctx, v); }
  Attribute s(StringRef v) { return StringAttr::get(&ctx, v); }
  Attribute ints(ArrayRef<int64_t> v) { return getIntsAttr(&ctx, v); }
  NamedAttribute attr(StringRef name, Attribute value) {
    return {StringAttr::get(&ctx, name), value};
  }

  /// Evaluates op `name` on `inputs` (absent tensors become onnx.NoValue);
  /// fails the test if inference or evaluation fails.
  SmallVector<Tensor> eval(StringRef name, ArrayRef<Tensor> inputs,
                           ArrayRef<NamedAttribute> attrs = {},
                           unsigned numResults = 0) {
    SmallVector<Value> operands;
    for (const Tensor &t : inputs) {
      OperationState state(UnknownLoc::get(&ctx),
                           t ? "onnx.Constant" : "onnx.NoValue");
      if (t) {
        state.addAttribute("value", t.toAttr(&ctx));
        state.addTypes(t.getType(&ctx));
      } else {
        state.addAttribute("value", UnitAttr::get(&ctx));
        state.addTypes(NoneType::get(&ctx));
      }
      operands.push_back(builder.create(state)->getResult(0));
    }
    Operation *op = createOp(builder, UnknownLoc::get(&ctx), name, operands,
                             attrs, numResults);
    SmallVector<Tensor> outputs;
    EXPECT_TRUE(op) << "inference failed for " << name.str();
    if (!op)
      return outputs;
    EXPECT_TRUE(succeeded(evaluate(op, inputs, outputs)));
    // Inference and evaluation agree on the result types.
    for (unsigned r = 0; r < outputs.size(); ++r)
      EXPECT_EQ(outputs[r].getType(&ctx), op->getResult(r).getType());
    return outputs;
  }
  Tensor eval1(StringRef name, ArrayRef<Tensor> inputs,
               ArrayRef<NamedAttribute> attrs = {}) {
    SmallVector<Tensor> out = eval(name, inputs, attrs);
    return out.empty() ? Tensor() : out[0];
  }

  /// The error message inference gives, or "" if it succeeds.
  std::string inferError(StringRef name, ArrayRef<Type> types,
                         ArrayRef<NamedAttribute> attrs = {}) {
    ScopedDiagnosticCollector collect(&ctx);
    FailureOr<SmallVector<Type>> result =
        inferResultTypes(&ctx, name, types, DictionaryAttr::get(&ctx, attrs),
                         {}, UnknownLoc::get(&ctx));
    if (succeeded(result))
      return "";
    return collect.getDiagnostics().empty()
               ? "?"
               : collect.getDiagnostics().front().str();
  }

  static Tensor floats(ArrayRef<int64_t> shape, ArrayRef<double> v) {
    return Tensor::fromDoubles(ElementType::F32, shape, v);
  }
  static Tensor i64s(ArrayRef<int64_t> shape, ArrayRef<int64_t> v) {
    return Tensor::fromInts(ElementType::I64, shape, v);
  }
  static SmallVector<double> values(const Tensor &t) {
    SmallVector<double> result;
    for (int64_t k = 0; k < t.getNumElements(); ++k)
      result.push_back(t.getDouble(k));
    return result;
  }
  static void expectNear(const Tensor &t, ArrayRef<double> expected,
                         double tol = 1e-5) {
    ASSERT_EQ(t.getNumElements(), int64_t(expected.size()));
    for (size_t k = 0; k < expected.size(); ++k)
      EXPECT_NEAR(t.getDouble(k), expected[k], tol) << "element " << k;
  }

  Context ctx;
  OpBuilder builder;
  ModuleOp module;
};

TEST_F(EvaluatorTest, AddBroadcastsAndWrapsIntegers) {
  Tensor a = Tensor::fromInts(ElementType::I8, {2, 1}, {127, -128});
  Tensor b = Tensor::fromInts(ElementType::I8, {3}, {1, 0, -1});
  Tensor sum = eval1("onnx.Add", {a, b});
  EXPECT_EQ(sum.getShape(), ArrayRef<int64_t>({2, 3}));
  EXPECT_EQ(sum.toInts(),
            SmallVector<int64_t>({-128, 127, 126, -127, -128, 127}));
}

TEST_F(EvaluatorTest, IntegerDivisionTruncates) {
  Tensor a = Tensor::fromInts(ElementType::I32, {4}, {7, -7, 7, -7});
  Tensor b = Tensor::fromInts(ElementType::I32, {4}, {2, 2, -2, -2});
  EXPECT_EQ(eval1("onnx.Div", {a, b}).toInts(),
            SmallVector<int64_t>({3, -3, -3, 3}));
}

TEST_F(EvaluatorTest, ModFollowsTheDivisorOrTheDividend) {
  Tensor a = Tensor::fromInts(ElementType::I64, {4}, {-7, 7, -7, 7});
  Tensor b = Tensor::fromInts(ElementType::I64, {4}, {3, -3, -3, 3});
  // numpy.mod: the sign of the divisor.
  EXPECT_EQ(eval1("onnx.Mod", {a, b}).toInts(),
            SmallVector<int64_t>({2, -2, -1, 1}));
  // numpy.fmod: the sign of the dividend.
  EXPECT_EQ(eval1("onnx.Mod", {a, b}, {attr("fmod", i(1))}).toInts(),
            SmallVector<int64_t>({-1, 1, -1, 1}));
  Tensor x = floats({2}, {-7.5, 7.5}), y = floats({2}, {2, 2});
  expectNear(eval1("onnx.Mod", {x, y}, {attr("fmod", i(1))}), {-1.5, 1.5});
}

TEST_F(EvaluatorTest, RoundsHalfToEven) {
  Tensor x = floats({6}, {0.5, 1.5, 2.5, -0.5, -1.5, 2.6});
  EXPECT_EQ(values(eval1("onnx.Round", {x})),
            SmallVector<double>({0, 2, 2, -0.0, -2, 3}));
}

TEST_F(EvaluatorTest, PowOfIntegersAndMixedTypes) {
  Tensor base = Tensor::fromInts(ElementType::I64, {3}, {2, -3, 5});
  Tensor exp = Tensor::fromInts(ElementType::I64, {3}, {10, 3, 0});
  EXPECT_EQ(eval1("onnx.Pow", {base, exp}).toInts(),
            SmallVector<int64_t>({1024, -27, 1}));
  // int32 base, float exponent: the result has the base's type.
  Tensor ib = Tensor::fromInts(ElementType::I32, {3}, {1, 2, 3});
  Tensor fe = floats({3}, {1, 2, 3});
  Tensor mixed = eval1("onnx.Pow", {ib, fe});
  EXPECT_EQ(mixed.getElementType(), ElementType::I32);
  EXPECT_EQ(mixed.toInts(), SmallVector<int64_t>({1, 4, 27}));
}

TEST_F(EvaluatorTest, ComparisonsGiveBool) {
  Tensor a = floats({3}, {1, NAN, 3});
  Tensor b = floats({1}, {2});
  Tensor less = eval1("onnx.Less", {a, b});
  EXPECT_EQ(less.getElementType(), ElementType::Bool);
  EXPECT_EQ(less.toInts(), SmallVector<int64_t>({1, 0, 0}));
  EXPECT_EQ(eval1("onnx.Equal", {a, a}).toInts(),
            SmallVector<int64_t>({1, 0, 1}));
}

TEST_F(EvaluatorTest, UnaryActivations) {
  Tensor x = floats({4}, {-2, -0.5, 0, 3});
  expectNear(eval1("onnx.Relu", {x}), {0, 0, 0, 3});
  expectNear(eval1("onnx.LeakyRelu", {x}, {attr("alpha", f(0.1))}),
             {-0.2, -0.05, 0, 3});
  expectNear(eval1("onnx.Sigmoid", {x}),
             {0.11920292, 0.37754067, 0.5, 0.95257413});
  expectNear(eval1("onnx.HardSigmoid", {x}), {0.1, 0.4, 0.5, 1.0});
  expectNear(eval1("onnx.HardSwish", {x}), {-0.33333333, -0.20833333, 0, 3});
  expectNear(eval1("onnx.Softplus", {x}),
             {0.12692801, 0.47407698, 0.69314718, 3.04858735});
  expectNear(eval1("onnx.Elu", {x}), {-0.86466472, -0.39346934, 0, 3});
  expectNear(eval1("onnx.Gelu", {x}),
             {-0.04550026, -0.15426877, 0, 2.99595031});
  expectNear(eval1("onnx.Gelu", {x}, {attr("approximate", s("tanh"))}),
             {-0.04540231, -0.15428599, 0, 2.99636261}, 1e-4);
}

TEST_F(EvaluatorTest, VariadicOps) {
  Tensor a = floats({2}, {1, 5}), b = floats({2, 1}, {3, NAN}),
         c = floats({}, {2});
  Tensor sum = eval1("onnx.Sum", {a, b, c});
  EXPECT_EQ(sum.getDouble(0), 6);
  EXPECT_EQ(sum.getDouble(1), 10);
  EXPECT_TRUE(std::isnan(sum.getDouble(2)) && std::isnan(sum.getDouble(3)));
  Tensor mx = eval1("onnx.Max", {a, b, c});
  EXPECT_EQ(mx.getShape(), ArrayRef<int64_t>({2, 2}));
  EXPECT_EQ(mx.getDouble(0), 3);
  EXPECT_EQ(mx.getDouble(1), 5);
  EXPECT_TRUE(std::isnan(mx.getDouble(2)));
  expectNear(eval1("onnx.Mean", {a, floats({2}, {3, 3})}), {2, 4});
}

TEST_F(EvaluatorTest, ClipAndWhere) {
  Tensor x = floats({4}, {-2, 0.5, 3, NAN});
  Tensor out = eval1("onnx.Clip", {x, floats({}, {0}), floats({}, {1})});
  EXPECT_EQ(out.getDouble(0), 0);
  EXPECT_EQ(out.getDouble(1), 0.5);
  EXPECT_EQ(out.getDouble(2), 1);
  EXPECT_TRUE(std::isnan(out.getDouble(3)));
  Tensor upper = eval1("onnx.Clip", {x, Tensor(), floats({}, {0})});
  SmallVector<double> clipped = values(upper);
  EXPECT_EQ(ArrayRef(clipped).take_front(3), ArrayRef<double>({-2, 0, 0}));
  Tensor cond = Tensor::fromInts(ElementType::Bool, {2, 1}, {1, 0});
  Tensor where =
      eval1("onnx.Where", {cond, floats({2}, {1, 2}), floats({}, {9})});
  EXPECT_EQ(values(where), SmallVector<double>({1, 2, 9, 9}));
}

TEST_F(EvaluatorTest, CastSaturatesAndRounds) {
  Tensor x = floats({5}, {1.9, -1.9, 300, NAN, 0.1});
  Tensor toI8 = eval1("onnx.Cast", {x},
                      {attr("to", TypeAttr::get(IntegerType::get(&ctx, 8)))});
  EXPECT_EQ(toI8.toInts(), SmallVector<int64_t>({1, -1, 127, 0, 0}));
  Tensor toF16 = eval1("onnx.Cast", {x},
                       {attr("to", TypeAttr::get(FloatType::getF16(&ctx)))});
  EXPECT_EQ(toF16.getValues<Float16>()[4].bits, 0x2e66);
  Tensor toBool = eval1("onnx.Cast", {x},
                        {attr("to", TypeAttr::get(IntegerType::get(&ctx, 1)))});
  EXPECT_EQ(toBool.toInts(), SmallVector<int64_t>({1, 1, 1, 1, 1}));
}

TEST_F(EvaluatorTest, MatMulBroadcastsBatches) {
  // a: 2x1x2x2, b: 3x2x1 -> 2x3x2x1.
  Tensor a = floats({2, 1, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor b = floats({3, 2, 1}, {1, 1, 1, 0, 0, 1});
  Tensor out = eval1("onnx.MatMul", {a, b});
  EXPECT_EQ(out.getShape(), ArrayRef<int64_t>({2, 3, 2, 1}));
  EXPECT_EQ(values(out),
            SmallVector<double>({3, 7, 1, 3, 2, 4, 11, 15, 5, 7, 6, 8}));
  // 1-D operands: a vector times a matrix and a dot product.
  Tensor v = floats({2}, {1, 2});
  EXPECT_EQ(values(eval1("onnx.MatMul", {v, floats({2, 2}, {1, 2, 3, 4})})),
            SmallVector<double>({7, 10}));
  EXPECT_EQ(eval1("onnx.MatMul", {v, v}).getRank(), 0);
}

TEST_F(EvaluatorTest, Gemm) {
  Tensor a = floats({3, 2}, {1, 4, 2, 5, 3, 6}); // A' = [[1,2,3],[4,5,6]]
  Tensor b = floats({3, 2}, {1, 0, 0, 1, 1, 1});
  Tensor c = floats({2}, {10, 20});
  Tensor out =
      eval1("onnx.Gemm", {a, b, c},
            {attr("transA", i(1)), attr("alpha", f(2)), attr("beta", f(0.5))});
  // A' * B = [[4, 5], [10, 11]]; * 2 + [5, 10].
  EXPECT_EQ(values(out), SmallVector<double>({13, 20, 25, 32}));
}

TEST_F(EvaluatorTest, ConvWithPaddingStridesAndGroups) {
  Tensor x = floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor w = floats({1, 1, 2, 2}, {1, 1, 1, 1});
  Tensor out =
      eval1("onnx.Conv", {x, w},
            {attr("pads", ints({1, 1, 1, 1})), attr("strides", ints({2, 2}))});
  EXPECT_EQ(out.getShape(), ArrayRef<int64_t>({1, 1, 2, 2}));
  EXPECT_EQ(values(out), SmallVector<double>({1, 5, 11, 28}));
  // Depthwise 1-D with a bias and dilation 2.
  Tensor x1 = floats({1, 2, 5}, {1, 2, 3, 4, 5, 1, 1, 1, 1, 1});
  Tensor w1 = floats({2, 1, 2}, {1, -1, 2, 2});
  Tensor b1 = floats({2}, {0, 1});
  Tensor out1 = eval1("onnx.Conv", {x1, w1, b1},
                      {attr("group", i(2)), attr("dilations", ints({2}))});
  EXPECT_EQ(values(out1), SmallVector<double>({-2, -2, -2, 5, 5, 5}));
  // SAME_UPPER keeps the size.
  Tensor same = eval1("onnx.Conv", {x, w}, {attr("auto_pad", s("SAME_UPPER"))});
  EXPECT_EQ(values(same),
            SmallVector<double>({12, 16, 9, 24, 28, 15, 15, 17, 9}));
}

TEST_F(EvaluatorTest, Pooling) {
  Tensor x = floats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  SmallVector<Tensor> max = eval(
      "onnx.MaxPool", {x},
      {attr("kernel_shape", ints({2, 2})), attr("pads", ints({0, 0, 1, 1}))},
      2);
  EXPECT_EQ(values(max[0]), SmallVector<double>({5, 6, 6, 8, 9, 9, 8, 9, 9}));
  EXPECT_EQ(max[1].toInts(), SmallVector<int64_t>({4, 5, 5, 7, 8, 8, 7, 8, 8}));
  // Averages count the padding only with count_include_pad.
  Tensor avg = eval1(
      "onnx.AveragePool", {x},
      {attr("kernel_shape", ints({2, 2})), attr("pads", ints({1, 1, 0, 0}))});
  expectNear(avg, {1, 1.5, 2.5, 2.5, 3, 4, 5.5, 6, 7});
  Tensor avgPad = eval1("onnx.AveragePool", {x},
                        {attr("kernel_shape", ints({2, 2})),
                         attr("pads", ints({1, 1, 0, 0})),
                         attr("count_include_pad", i(1))});
  expectNear(avgPad, {0.25, 0.75, 1.25, 1.25, 3, 4, 2.75, 6, 7});
  expectNear(eval1("onnx.GlobalAveragePool", {x}), {5});
  expectNear(eval1("onnx.GlobalMaxPool", {x}), {9});
}

TEST_F(EvaluatorTest, Normalizations) {
  Tensor x = floats({1, 2, 2}, {1, 2, 3, 4});
  Tensor bn = eval1("onnx.BatchNormalization",
                    {x, floats({2}, {1, 2}), floats({2}, {0, 1}),
                     floats({2}, {1, 3}), floats({2}, {4, 1})},
                    {attr("epsilon", f(0))});
  expectNear(bn, {0, 0.5, 1, 3});
  SmallVector<Tensor> ln = eval("onnx.LayerNormalization",
                                {x, floats({2}, {1, 2}), floats({2}, {0, 1})},
                                {attr("epsilon", f(0))}, 3);
  expectNear(ln[0], {-1, 3, -1, 3});
  expectNear(ln[1], {1.5, 3.5});
  expectNear(ln[2], {2, 2});
  expectNear(eval1("onnx.Softmax", {floats({2, 2}, {0, 1, 2, 2})}),
             {0.26894142, 0.73105858, 0.5, 0.5});
  expectNear(eval1("onnx.LogSoftmax", {floats({2, 2}, {0, 1, 2, 2})},
                   {attr("axis", i(0))}),
             {-2.12692801, -1.31326169, -0.12692801, -0.31326169});
}

TEST_F(EvaluatorTest, Reductions) {
  Tensor x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor sum = eval1("onnx.ReduceSum", {x, i64s({1}, {1})});
  EXPECT_EQ(sum.getShape(), ArrayRef<int64_t>({2, 1}));
  EXPECT_EQ(values(sum), SmallVector<double>({6, 15}));
  Tensor mean =
      eval1("onnx.ReduceMean", {x, Tensor()}, {attr("keepdims", i(0))});
  EXPECT_EQ(mean.getRank(), 0);
  EXPECT_EQ(mean.getDouble(0), 3.5);
  Tensor noop = eval1("onnx.ReduceMax", {x, i64s({0}, {})},
                      {attr("noop_with_empty_axes", i(1))});
  EXPECT_EQ(values(noop), values(x));
  Tensor empty = eval1("onnx.ReduceMax", {floats({0, 2}, {}), i64s({1}, {0})});
  EXPECT_EQ(values(empty), SmallVector<double>({-INFINITY, -INFINITY}));
  Tensor arg = eval1("onnx.ArgMax", {floats({2, 3}, {1, 3, 3, 2, 0, 2})},
                     {attr("axis", i(1)), attr("select_last_index", i(1))});
  EXPECT_EQ(arg.toInts(), SmallVector<int64_t>({2, 2}));
}

TEST_F(EvaluatorTest, DataMovement) {
  Tensor x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(values(eval1("onnx.Transpose", {x})),
            SmallVector<double>({1, 4, 2, 5, 3, 6}));
  Tensor gathered =
      eval1("onnx.Gather", {x, i64s({2}, {-1, 0})}, {attr("axis", i(1))});
  EXPECT_EQ(values(gathered), SmallVector<double>({3, 1, 6, 4}));
  Tensor reversed =
      eval1("onnx.Slice", {x, i64s({1}, {-1}), i64s({1}, {INT64_MIN}),
                           i64s({1}, {1}), i64s({1}, {-2})});
  EXPECT_EQ(values(reversed), SmallVector<double>({3, 1, 6, 4}));
  Tensor reflect =
      eval1("onnx.Pad", {floats({3}, {1, 2, 3}), i64s({2}, {2, 1})},
            {attr("mode", s("reflect"))});
  EXPECT_EQ(values(reflect), SmallVector<double>({3, 2, 1, 2, 3, 2}));
  Tensor constant = eval1(
      "onnx.Pad", {floats({2}, {1, 2}), i64s({2}, {1, -1}), floats({}, {7})});
  EXPECT_EQ(values(constant), SmallVector<double>({7, 1}));
  EXPECT_EQ(values(eval1("onnx.Tile", {floats({2}, {1, 2}), i64s({1}, {3})})),
            SmallVector<double>({1, 2, 1, 2, 1, 2}));
  Tensor concat =
      eval1("onnx.Concat", {x, floats({2, 1}, {7, 8})}, {attr("axis", i(-1))});
  EXPECT_EQ(values(concat), SmallVector<double>({1, 2, 3, 7, 4, 5, 6, 8}));
  SmallVector<Tensor> parts = eval("onnx.Split", {floats({5}, {1, 2, 3, 4, 5})},
                                   {attr("num_outputs", i(2))}, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(values(parts[0]), SmallVector<double>({1, 2, 3}));
  EXPECT_EQ(values(parts[1]), SmallVector<double>({4, 5}));
  Tensor lower =
      eval1("onnx.Trilu", {floats({2, 3}, {1, 2, 3, 4, 5, 6}), i64s({}, {1})},
            {attr("upper", i(0))});
  EXPECT_EQ(values(lower), SmallVector<double>({1, 2, 0, 4, 5, 6}));
  Tensor scattered = eval1(
      "onnx.ScatterND",
      {floats({4}, {1, 2, 3, 4}), i64s({2, 1}, {1, 1}), floats({2}, {10, 20})},
      {attr("reduction", s("add"))});
  EXPECT_EQ(values(scattered), SmallVector<double>({1, 32, 3, 4}));
}

TEST_F(EvaluatorTest, ShapeOps) {
  Tensor x = floats({2, 3, 4}, SmallVector<double>(24, 0));
  EXPECT_EQ(eval1("onnx.Shape", {x}, {attr("start", i(-2))}).toInts(),
            SmallVector<int64_t>({3, 4}));
  EXPECT_EQ(eval1("onnx.Size", {x}).toInts(), SmallVector<int64_t>({24}));
  Tensor filled =
      eval1("onnx.ConstantOfShape", {i64s({2}, {2, 1})},
            {attr("value",
                  Tensor::fromInts(ElementType::I32, {1}, {7}).toAttr(&ctx))});
  EXPECT_EQ(filled.getElementType(), ElementType::I32);
  EXPECT_EQ(filled.toInts(), SmallVector<int64_t>({7, 7}));
  Tensor range = eval1("onnx.Range",
                       {floats({}, {1}), floats({}, {2}), floats({}, {0.3})});
  expectNear(range, {1, 1.3, 1.6, 1.9});
  Tensor reshaped = eval1("onnx.Reshape", {x, i64s({3}, {0, -1, 2})});
  EXPECT_EQ(reshaped.getShape(), ArrayRef<int64_t>({2, 6, 2}));
  Tensor unsq =
      eval1("onnx.Unsqueeze", {floats({2}, {1, 2}), i64s({2}, {0, -1})});
  EXPECT_EQ(unsq.getShape(), ArrayRef<int64_t>({1, 2, 1}));
  EXPECT_EQ(eval1("onnx.Squeeze", {unsq}).getShape(), ArrayRef<int64_t>({2}));
  EXPECT_EQ(eval1("onnx.Flatten", {x}, {attr("axis", i(-1))}).getShape(),
            ArrayRef<int64_t>({6, 4}));
  EXPECT_EQ(eval1("onnx.Expand", {floats({3, 1}, {1, 2, 3}), i64s({2}, {1, 2})})
                .getShape(),
            ArrayRef<int64_t>({3, 2}));
}

TEST_F(EvaluatorTest, InferenceErrorsNameOpOperandAndReason) {
  auto f32 = [&](ArrayRef<int64_t> shape) -> Type {
    return RankedTensorType::get(shape, FloatType::getF32(&ctx));
  };
  EXPECT_EQ(inferError("onnx.Add", {f32({2, 3}), f32({3, 2})}),
            "'onnx.Add' op operands are not broadcast-compatible: "
            "tensor<2x3xf32> and tensor<3x2xf32>");
  EXPECT_EQ(inferError("onnx.MatMul", {f32({2, 3}), f32({4, 2})}),
            "'onnx.MatMul' op cannot multiply tensor<2x3xf32> by "
            "tensor<4x2xf32>: inner dimensions differ (3 and 4)");
  EXPECT_EQ(inferError("onnx.Reshape",
                       {f32({2, 3}),
                        RankedTensorType::get({ShapedType::kDynamic},
                                              IntegerType::get(&ctx, 64))}),
            "'onnx.Reshape' op operand 'shape' must have a static length, "
            "which gives the result's rank, got tensor<?xi64>");
  EXPECT_EQ(inferError("onnx.Softmax", {f32({2})}, {attr("axis", i(1))}),
            "'onnx.Softmax' op axis 1 is out of range for rank 1");
  EXPECT_EQ(inferError("onnx.Sqrt", {RankedTensorType::get(
                                        {2}, IntegerType::get(&ctx, 32))}),
            "'onnx.Sqrt' op operand 'X' must have a float element type, got "
            "i32");
  EXPECT_EQ(
      inferError("onnx.Transpose", {f32({2, 3})}, {attr("perm", ints({0, 0}))}),
      "'onnx.Transpose' op attribute 'perm' is not a permutation of the "
      "2 dimensions of tensor<2x3xf32>");
  EXPECT_EQ(inferError("onnx.Foo", {}), "unsupported onnx op 'onnx.Foo'");
  // Dynamic dimensions propagate from dynamic inputs.
  FailureOr<SmallVector<Type>> types = inferResultTypes(
      &ctx, "onnx.Add", {f32({ShapedType::kDynamic, 1}), f32({3})}, {}, {},
      UnknownLoc::get(&ctx));
  ASSERT_TRUE(succeeded(types));
  EXPECT_EQ((*types)[0], f32({ShapedType::kDynamic, 3}));
  // A shape operand known only at run time: the rank from its length.
  types = inferResultTypes(
      &ctx, "onnx.Reshape",
      {f32({2, 3}), RankedTensorType::get({3}, IntegerType::get(&ctx, 64))}, {},
      {}, UnknownLoc::get(&ctx));
  ASSERT_TRUE(succeeded(types));
  int64_t dyn = ShapedType::kDynamic;
  EXPECT_EQ((*types)[0], f32({dyn, dyn, dyn}));
}

TEST_F(EvaluatorTest, SchemasDescribeOps) {
  const OpSchema *conv = lookupOpSchema("onnx.Conv");
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->getMinOperands(), 2u);
  EXPECT_EQ(conv->getMaxOperands(), 3u);
  const AttrSpec *group = conv->lookupAttribute("group");
  ASSERT_TRUE(group);
  EXPECT_TRUE(group->hasDefault);
  EXPECT_EQ(group->intDefault, 1);
  EXPECT_FALSE(lookupOpSchema("onnx.MaxUnpool"));
  // Attributes equal to their defaults are dropped; the others canonical.
  DictionaryAttr attrs = DictionaryAttr::get(
      &ctx, {attr("group", IntegerAttr::get(IntegerType::get(&ctx, 64), 1)),
             attr("auto_pad", s("VALID"))});
  DictionaryAttr normalized = normalizeAttributes(&ctx, *conv, attrs);
  EXPECT_EQ(normalized.size(), 1u);
  EXPECT_TRUE(normalized.get("auto_pad"));
}

} // namespace

//===- ArityTest.cpp - Every op against odd operand lists -----------------===//
//
// Builds every registered onnx op with 0..N operands (N: two more than its
// schema lists), `none` in every combination of positions (up to 8
// operands; beyond, none at each single position and at all), and a few operand
// kinds (float tensors, integer constants, scalars), with its required
// attributes given dummy values. Each attempt must end in a result or an error,
// never a crash; an operand count outside the schema's range or a `none` where
// the schema does not allow one must be an error. The inference path of new
// ops, the verifier path of existing ops and, where every operand is constant,
// the reference evaluator are all exercised.
//
//===----------------------------------------------------------------------===//

#include "dialect/onnx/OnnxDialect.h"

#include "ir/BuiltinOps.h"
#include "ir/Operation.h"
#include "ir/Verifier.h"

#include <gtest/gtest.h>

#include <optional>

using namespace onyx;
using namespace onyx::onnx;

namespace {

/// How the non-none operands of one attempt are made.
enum class OperandKind { FloatMatrix, IntConstant, FloatScalarConstant };

class ArityTest : public ::testing::Test {
protected:
  ArityTest() : builder(&ctx) {
    ctx.loadDialect<OnnxDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    builder.setInsertionPointToEnd(module.getBody());
  }
  ~ArityTest() override { module->erase(); }

  Value makeConstant(const Tensor &t) {
    OperationState state(UnknownLoc::get(&ctx), "onnx.Constant");
    state.addAttribute("value", t.toAttr(&ctx));
    state.addTypes(t.getType(&ctx));
    return builder.create(state)->getResult(0);
  }

  Value makeNone() {
    OperationState state(UnknownLoc::get(&ctx), "onnx.NoValue");
    state.addAttribute("value", UnitAttr::get(&ctx));
    state.addTypes(NoneType::get(&ctx));
    return builder.create(state)->getResult(0);
  }

  Value makeOperand(OperandKind kind) {
    switch (kind) {
    case OperandKind::FloatMatrix: {
      // Not a constant: an Identity hides the value from inference.
      Value c = makeConstant(
          Tensor::fromDoubles(ElementType::F32, {2, 3}, {1, 2, 3, 4, 5, 6}));
      return createOp(builder, UnknownLoc::get(&ctx), "onnx.Identity", {c})
          ->getResult(0);
    }
    case OperandKind::IntConstant:
      return makeConstant(Tensor::fromInts(ElementType::I64, {2}, {1, -1}));
    case OperandKind::FloatScalarConstant:
      return makeConstant(Tensor::scalar(ElementType::F32, 2));
    }
    return {};
  }

  /// Dummy values for the schema's required attributes.
  SmallVector<NamedAttribute> requiredAttrs(const OpSchema &schema) {
    SmallVector<NamedAttribute> attrs;
    for (const AttrSpec &spec : schema.attributes) {
      if (!spec.required)
        continue;
      Attribute value;
      switch (spec.type) {
      case AttrType::Int:
        value = getIntAttr(&ctx, 1);
        break;
      case AttrType::Float:
        value = getFloatAttr(&ctx, 1);
        break;
      case AttrType::String:
        value = StringAttr::get(&ctx, spec.allowedValues.empty()
                                          ? StringRef("x")
                                          : spec.allowedValues.front());
        break;
      case AttrType::Ints:
        value = getIntsAttr(&ctx, {1, 1});
        break;
      case AttrType::Floats:
        value = getFloatsAttr(&ctx, {1, 1});
        break;
      case AttrType::Strings:
        value = ArrayAttr::get(&ctx, {StringAttr::get(&ctx, "x")});
        break;
      case AttrType::Tensor:
        value = Tensor::scalar(ElementType::F32, 0).toAttr(&ctx);
        break;
      case AttrType::Type:
        value = TypeAttr::get(FloatType::getF32(&ctx));
        break;
      }
      attrs.push_back({StringAttr::get(&ctx, spec.name), value});
    }
    return attrs;
  }

  /// Whether the schema allows `none` at operand position `i`.
  static bool allowsNone(const OpSchema &schema, unsigned i) {
    if (schema.operands.empty())
      return false;
    const ValueSpec &spec = i < schema.operands.size() ? schema.operands[i]
                                                       : schema.operands.back();
    return spec.presence == Presence::Optional;
  }

  Context ctx;
  OpBuilder builder;
  ModuleOp module;
};

TEST_F(ArityTest, EveryOpRejectsBadOperandListsWithoutCrashing) {
  // One value of each kind and one `none`, made once and used in every
  // position of every attempt: the module stays small, so that the ~10^5
  // attempts take seconds, sanitizers included.
  const OperandKind kinds[] = {OperandKind::FloatMatrix,
                               OperandKind::IntConstant,
                               OperandKind::FloatScalarConstant};
  Value none = makeNone();
  SmallVector<Value> values;
  SmallVector<std::optional<Tensor>> constants;
  for (OperandKind kind : kinds) {
    values.push_back(makeOperand(kind));
    constants.emplace_back();
    if (DenseElementsAttr c = getConstantValue(values.back()))
      constants.back() = *Tensor::fromAttr(c);
  }
  unsigned attempts = 0;
  for (const OpSchema *schema : getOpSchemas()) {
    SCOPED_TRACE(schema->name.str());
    SmallVector<NamedAttribute> attrs = requiredAttrs(*schema);
    unsigned maxCount = schema->operands.size() + 2;
    for (unsigned k = 0; k < values.size(); ++k) {
      for (unsigned n = 0; n <= maxCount; ++n) {
        // Every combination of `none` positions up to 8 operands; beyond
        // (ops with many optional operands: LSTM, Attention), none at no,
        // each one and every position.
        SmallVector<unsigned> masks;
        if (n <= 8) {
          for (unsigned mask = 0; mask < (1u << n); ++mask)
            masks.push_back(mask);
        } else {
          masks.push_back(0);
          for (unsigned i = 0; i < n; ++i)
            masks.push_back(1u << i);
          masks.push_back((1u << n) - 1);
        }
        for (unsigned noneMask : masks) {
          SmallVector<Value> operands;
          SmallVector<Tensor> inputs;
          bool schemaAllows =
              n >= schema->getMinOperands() && n <= schema->getMaxOperands();
          for (unsigned i = 0; i < n; ++i) {
            bool isNone = noneMask & (1u << i);
            if (isNone && !allowsNone(*schema, i))
              schemaAllows = false;
            operands.push_back(isNone ? none : values[k]);
            if (isNone)
              inputs.push_back(Tensor());
            else if (constants[k])
              inputs.push_back(*constants[k]);
          }
          ++attempts;
          Operation *op;
          {
            ScopedDiagnosticCollector collect(&ctx);
            op = createOp(builder, UnknownLoc::get(&ctx), schema->name,
                          operands, attrs);
            if (!schemaAllows) {
              EXPECT_EQ(op, nullptr)
                  << n << " operands, none mask " << noneMask;
              EXPECT_FALSE(collect.getDiagnostics().empty());
            }
          }
          // What inference creates, the verifier accepts (a Split whose
          // sizes were empty had no results, which the verifier refuses).
          if (op) {
            ScopedDiagnosticCollector collect(&ctx);
            EXPECT_TRUE(succeeded(verify(op)))
                << schema->name.str() << " with " << n << " operands";
          }
          if (op && inputs.size() == n) {
            ScopedDiagnosticCollector collect(&ctx);
            SmallVector<Tensor> outputs;
            (void)evaluate(op, inputs, outputs);
          }
          if (op)
            op->erase();

          // The verifier's path: an existing op with a guessed result type.
          OperationState state(UnknownLoc::get(&ctx), schema->name);
          state.addOperands(operands);
          for (const NamedAttribute &attr : attrs)
            state.addAttribute(attr.name, attr.value);
          state.addTypes(
              RankedTensorType::get({2, 3}, FloatType::getF32(&ctx)));
          Operation *existing = builder.create(state);
          {
            ScopedDiagnosticCollector collect(&ctx);
            LogicalResult verified = verify(existing);
            if (!schemaAllows) {
              EXPECT_TRUE(failed(verified))
                  << n << " operands, none mask " << noneMask;
            }
          }
          existing->erase();
        }
      }
    }
  }
  EXPECT_GT(attempts, 1000u);
}

// The finding of fuzz-differential (test/fuzz/corpus/differential/
// split-empty-sizes): a Split of an empty tensor into no parts.
TEST_F(ArityTest, SplitWithNoSizesIsRefused) {
  Value data = makeConstant(Tensor::fromInts(ElementType::I64, {0}, {}));
  Value sizes = makeConstant(Tensor::fromInts(ElementType::I64, {0}, {}));
  ScopedDiagnosticCollector collect(&ctx);
  EXPECT_EQ(
      createOp(builder, UnknownLoc::get(&ctx), "onnx.Split", {data, sizes}, {}),
      nullptr);
  ASSERT_EQ(collect.getDiagnostics().size(), 1u);
  EXPECT_EQ(collect.getDiagnostics()[0].str(),
            "'onnx.Split' op operand 'split' must have at least one element "
            "(one size per result), got tensor<0xi64>");
}

} // namespace

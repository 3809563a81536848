//===- VerifierTest.cpp - Structural checks of the verifier ---------------===//
//
// IR built directly (not parsed), so that the verifier is tested on its own
// and on shapes the parser would refuse or take long to read.
//
//===----------------------------------------------------------------------===//
#include "ir/Verifier.h"
#include "ir/BuiltinOps.h"

#include <gtest/gtest.h>

using namespace onyx;

namespace {

class VerifierTest : public ::testing::Test {
protected:
  VerifierTest() : builder(&ctx) {
    ctx.allowUnregisteredDialects();
    module = ModuleOp::create(loc(1));
  }
  ~VerifierTest() override { module->erase(); }

  Location loc(unsigned line) {
    return FileLineColLoc::get(&ctx, "test.mlir", line, 1);
  }

  /// An unregistered op at the builder's insertion point.
  Operation *create(StringRef name, ValueRange operands = {},
                    ArrayRef<Type> types = {}, unsigned numRegions = 0,
                    unsigned line = 0) {
    OperationState state(loc(line), name);
    state.addOperands(operands);
    state.addTypes(types);
    for (unsigned i = 0; i != numRegions; ++i)
      state.addRegion();
    return builder.create(state);
  }

  /// An empty function `() -> ()` at the end of the module, with the
  /// insertion point in its body.
  FuncOp createFunc(StringRef name, unsigned line = 0) {
    builder.setInsertionPointToEnd(module.getBody());
    FuncOp func = builder.create<FuncOp>(loc(line), name,
                                         builder.getFunctionType({}, {}));
    builder.createBlock(&func.getBody());
    return func;
  }

  /// Verifies the module and returns the messages of the diagnostics, with
  /// their notes after a " | ".
  std::vector<std::string> verifyModule() {
    ScopedDiagnosticCollector collector(&ctx);
    bool ok = succeeded(verify(module));
    std::vector<std::string> messages;
    for (Diagnostic &diag : collector.getDiagnostics()) {
      std::string text = diag.str();
      for (const std::unique_ptr<Diagnostic> &note : diag.getNotes())
        text += " | " + note->str();
      messages.push_back(text);
    }
    EXPECT_EQ(ok, messages.empty());
    return messages;
  }

  Context ctx;
  OpBuilder builder;
  ModuleOp module;
};

using Messages = std::vector<std::string>;

TEST_F(VerifierTest, AcceptsValuesFromEnclosingBlocks) {
  createFunc("f");
  Value outer = create("test.def", {}, builder.getI32Type())->getResult(0);
  Operation *region = create("test.region", {}, {}, 1);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *body = builder.createBlock(&region->getRegion(0),
                                      {builder.getI32Type()}, {loc(0)});
    create("test.use", {outer, body->getArgument(0)});
  }
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(), Messages());
}

TEST_F(VerifierTest, UseBeforeDefinition) {
  createFunc("f");
  Operation *use = create("test.use", {}, builder.getI32Type(), 0, 3);
  Operation *def = create("test.def", {}, builder.getI32Type(), 0, 4);
  use->setOperands(def->getResults());
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(),
            Messages({"operand #0 does not dominate this use | operand "
                      "defined here (op in the same block)"}));
}

TEST_F(VerifierTest, UseInsideItsOwnDefinition) {
  createFunc("f");
  Operation *region = create("test.region", {}, builder.getI32Type(), 1);
  builder.createBlock(&region->getRegion(0));
  create("test.use", region->getResults());
  builder.setInsertionPointAfter(region);
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(),
            Messages({"operand #0 does not dominate this use | operand "
                      "defined here (op in a parent region)"}));
}

TEST_F(VerifierTest, BlockArgumentOfSiblingRegion) {
  createFunc("f");
  Operation *region = create("test.region", {}, {}, 2);
  Block *first = builder.createBlock(&region->getRegion(0),
                                     {builder.getI32Type()}, {loc(0)});
  builder.createBlock(&region->getRegion(1));
  create("test.use", first->getArgument(0));
  builder.setInsertionPointAfter(region);
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(),
            Messages({"operand #0 does not dominate this use | operand "
                      "defined as a block argument (block #0 neither in a "
                      "parent nor in a child region)"}));
}

TEST_F(VerifierTest, IsolatedFromAbove) {
  createFunc("f");
  Value outer = create("test.def", {}, builder.getI32Type())->getResult(0);
  Operation *region = create("test.region", {}, {}, 1);
  builder.createBlock(&region->getRegion(0));
  FuncOp inner =
      builder.create<FuncOp>(loc(0), "inner", builder.getFunctionType({}, {}));
  builder.createBlock(&inner.getBody());
  create("test.use", outer);
  builder.create<ReturnOp>(loc(0));
  builder.setInsertionPointAfter(region);
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(),
            Messages({"'test.use' op using value defined outside the region "
                      "| required by region isolation constraints"}));
}

TEST_F(VerifierTest, TerminatorInTheMiddle) {
  createFunc("f");
  builder.create<ReturnOp>(loc(0));
  create("test.op");
  EXPECT_EQ(verifyModule(),
            Messages({"'func.return' op must be the last operation in the "
                      "parent block"}));
}

TEST_F(VerifierTest, MissingTerminator) {
  createFunc("f");
  builder.create<FuncOp>(loc(0), "g", builder.getFunctionType({}, {}));
  createFunc("empty");
  Messages messages = verifyModule();
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0], "'func.func' op symbol's parent must have the "
                         "SymbolTable trait");
  EXPECT_TRUE(
      StringRef(messages[1]).starts_with("block with no terminator, has "))
      << messages[1];
  EXPECT_TRUE(StringRef(messages[1]).contains("\"func.func\"()"))
      << messages[1];
  EXPECT_EQ(messages[2], "empty block: expect at least a terminator");
}

TEST_F(VerifierTest, UnregisteredOpsMayEndBlocks) {
  createFunc("f");
  create("test.terminator");
  EXPECT_EQ(verifyModule(), Messages());
}

TEST_F(VerifierTest, DuplicateSymbols) {
  createFunc("f", 2);
  builder.create<ReturnOp>(loc(0));
  createFunc("f", 5);
  builder.create<ReturnOp>(loc(0));
  ScopedDiagnosticCollector collector(&ctx);
  EXPECT_TRUE(failed(verify(module)));
  ASSERT_EQ(collector.getDiagnostics().size(), 1u);
  Diagnostic &diag = collector.getDiagnostics()[0];
  EXPECT_EQ(diag.str(), "redefinition of symbol named 'f'");
  EXPECT_EQ(diag.getLocation(), loc(5));
  ASSERT_EQ(diag.getNotes().size(), 1u);
  EXPECT_EQ(diag.getNotes()[0]->str(), "see existing symbol definition here");
  EXPECT_EQ(diag.getNotes()[0]->getLocation(), loc(2));
}

TEST_F(VerifierTest, UnregisteredOps) {
  createFunc("f");
  create("func.unknown");
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(),
            Messages({"unregistered operation 'func.unknown' found in "
                      "dialect ('func') that does not allow unknown "
                      "operations"}));

  ctx.allowUnregisteredDialects(false);
  module.getBody()->front().erase();
  createFunc("g");
  create("test.op");
  builder.create<ReturnOp>(loc(0));
  Messages messages = verifyModule();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_TRUE(
      StringRef(messages[0])
          .starts_with("'test.op' op created with unregistered dialect"))
      << messages[0];
}

TEST_F(VerifierTest, VerifiesNestedOpAgainstEnclosingScopes) {
  createFunc("f");
  Value outer = create("test.def", {}, builder.getI32Type())->getResult(0);
  Operation *region = create("test.region", {}, {}, 1);
  builder.createBlock(&region->getRegion(0));
  Operation *use = create("test.use", outer);
  Operation *late = create("test.late", {}, builder.getI32Type());
  create("test.use", late->getResults());
  EXPECT_TRUE(succeeded(verify(region)));
  use->setOperands(late->getResults());
  ScopedDiagnosticCollector collector(&ctx);
  EXPECT_TRUE(failed(verify(region)));
  EXPECT_EQ(collector.getDiagnostics().size(), 1u);
}

// Deep nesting must not exhaust the native stack, and long blocks must not
// take quadratic time.
TEST_F(VerifierTest, DeepNesting) {
  createFunc("f");
  Value outer = create("test.def", {}, builder.getI32Type())->getResult(0);
  SmallVector<Operation *> nest;
  for (unsigned i = 0; i != 200000; ++i) {
    nest.push_back(create("test.region", {}, {}, 1));
    builder.createBlock(&nest.back()->getRegion(0));
  }
  create("test.use", outer);
  builder.setInsertionPointAfter(nest.front());
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(), Messages());
  // Take the nest apart from the inside, so that erasing it is shallow too.
  for (Operation *op : llvm::reverse(nest))
    op->erase();
}

TEST_F(VerifierTest, LongBlock) {
  createFunc("f");
  Value value = create("test.def", {}, builder.getI32Type())->getResult(0);
  for (unsigned i = 0; i != 200000; ++i)
    value =
        create("test.add", {value, value}, builder.getI32Type())->getResult(0);
  builder.create<ReturnOp>(loc(0));
  EXPECT_EQ(verifyModule(), Messages());
}

} // namespace

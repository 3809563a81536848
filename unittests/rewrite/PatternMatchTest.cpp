//===- PatternMatchTest.cpp - The rewriter and pattern sets ---------------===//
//
// Every change made through a PatternRewriter must reach its listener, in
// an order a driver can rely on (nested ops erased before their parent,
// users before producers), and frozen pattern sets must order patterns by
// benefit, stably.
//
//===----------------------------------------------------------------------===//

#include "rewrite/PatternMatch.h"
#include "ir/Parser.h"
#include "test/dialect/TestDialect.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace onyx;

namespace {

/// Records each notification as "event name", with the op's `tag`
/// attribute (if any) appended so that equal op names can be told apart.
struct RecordingListener : PatternRewriter::Listener {
  std::vector<std::string> events;

  void record(StringRef event, Operation *op) {
    std::string entry = (event + " " + op->getName().getStringRef()).str();
    if (auto tag = op->getAttrOfType<StringAttr>("tag"))
      entry += (":" + tag.getValue()).str();
    events.push_back(entry);
  }
  void notifyOperationInserted(Operation *op) override { record("insert", op); }
  void notifyOperationModified(Operation *op) override { record("modify", op); }
  void notifyOperationReplaced(Operation *op, ValueRange) override {
    record("replace", op);
  }
  void notifyOperationErased(Operation *op) override { record("erase", op); }
};

class PatternMatchTest : public ::testing::Test {
protected:
  PatternMatchTest() {
    ctx.loadDialect<test::TestDialect>();
    ctx.allowUnregisteredDialects();
  }

  /// Parses `body` as the body of `func.func @f(%arg0: i32) -> i32`.
  FuncOp parseFunc(StringRef body) {
    std::string text =
        ("func.func @f(%arg0: i32) -> i32 {\n" + body + "\n}\n").str();
    module = parseSourceString(text, &ctx);
    EXPECT_TRUE(module);
    return cast<FuncOp>(&module.get().getBody()->front());
  }

  /// The op of `func` whose `tag` attribute is `tag`.
  Operation *findTagged(FuncOp func, StringRef tag) {
    Operation *found = nullptr;
    func->walk([&](Operation *op) {
      if (auto attr = op->getAttrOfType<StringAttr>("tag");
          attr && attr.getValue() == tag)
        found = op;
    });
    EXPECT_TRUE(found) << "no op tagged " << tag.str();
    return found;
  }

  Context ctx;
  OwningOpRef<ModuleOp> module;
  RecordingListener listener;
};

TEST_F(PatternMatchTest, CreateAndModifyNotify) {
  FuncOp func = parseFunc(R"(
    %0 = "test.negate"(%arg0) {tag = "n"} : (i32) -> i32
    return %0 : i32)");
  PatternRewriter rewriter(&ctx, &listener);
  Operation *negate = findTagged(func, "n");
  rewriter.setInsertionPoint(negate);
  rewriter.create<test::NegateOp>(negate->getLoc(), func.getArgument(0));
  rewriter.modifyOpInPlace(
      negate, [&] { negate->setAttr("tag", rewriter.getStringAttr("m")); });
  EXPECT_EQ(
      listener.events,
      (std::vector<std::string>{"insert test.negate", "modify test.negate:m"}));
}

TEST_F(PatternMatchTest, ReplaceNotifiesUsersThenErases) {
  FuncOp func = parseFunc(R"(
    %0 = "test.negate"(%arg0) {tag = "old"} : (i32) -> i32
    %1 = "test.add"(%0, %0) {tag = "user"} : (i32, i32) -> i32
    return %1 : i32)");
  PatternRewriter rewriter(&ctx, &listener);
  Operation *old = findTagged(func, "old");
  rewriter.replaceOp(old, func.getArgument(0));
  // One modification per replaced use.
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{
                "replace test.negate:old", "modify test.add:user",
                "modify test.add:user", "erase test.negate:old"}));
  Operation *user = findTagged(func, "user");
  EXPECT_EQ(user->getOperand(0), func.getArgument(0));
  EXPECT_EQ(user->getOperand(1), func.getArgument(0));
}

TEST_F(PatternMatchTest, EraseNotifiesNestedOpsFirstUsersBeforeProducers) {
  FuncOp func = parseFunc(R"(
    %0 = "test.region_op"() ({
      %1 = "test.negate"(%arg0) {tag = "a"} : (i32) -> i32
      %2 = "test.region_op"() ({
        %3 = "test.negate"(%1) {tag = "b"} : (i32) -> i32
        "test.yield"(%3) {tag = "y1"} : (i32) -> ()
      }) {tag = "inner"} : () -> i32
      "test.yield"(%2) {tag = "y2"} : (i32) -> ()
    }) {tag = "outer"} : () -> i32
    return %arg0 : i32)");
  PatternRewriter rewriter(&ctx, &listener);
  Operation *outer = findTagged(func, "outer");
  rewriter.eraseOp(outer);
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{
                "erase test.yield:y2", "erase test.yield:y1",
                "erase test.negate:b", "erase test.region_op:inner",
                "erase test.negate:a", "erase test.region_op:outer"}));
  EXPECT_EQ(func.front().getOperations().size(), 1u);
  EXPECT_TRUE(func.getArgument(0).hasOneUse());
}

/// Listeners look at the operands of erased ops to find producers that may
/// have become dead: only outside values may be left there, the others are
/// dropped (null).
TEST_F(PatternMatchTest, ErasedNestedOpsKeepOnlyOutsideOperands) {
  FuncOp func = parseFunc(R"(
    %0 = "test.region_op"() ({
      %1 = "test.negate"(%arg0) {tag = "a"} : (i32) -> i32
      %2 = "test.add"(%1, %arg0) {tag = "b"} : (i32, i32) -> i32
      "test.yield"(%2) : (i32) -> ()
    }) {tag = "outer"} : () -> i32
    return %arg0 : i32)");
  struct OperandChecker : PatternRewriter::Listener {
    Value outside;
    unsigned numOutsideUses = 0;
    void notifyOperationErased(Operation *op) override {
      for (Value operand : op->getOperands()) {
        if (!operand)
          continue;
        EXPECT_EQ(operand, outside) << op->getName().getStringRef().str();
        ++numOutsideUses;
      }
    }
  } checker;
  checker.outside = func.getArgument(0);
  PatternRewriter rewriter(&ctx, &checker);
  rewriter.eraseOp(findTagged(func, "outer"));
  EXPECT_EQ(checker.numOutsideUses, 2u);
}

TEST_F(PatternMatchTest, ErasingAUsedOpIsFatal) {
  FuncOp func = parseFunc(R"(
    %0 = "test.negate"(%arg0) {tag = "n"} : (i32) -> i32
    return %0 : i32)");
  PatternRewriter rewriter(&ctx);
  Operation *negate = findTagged(func, "n");
  EXPECT_DEATH(rewriter.eraseOp(negate), "'test.negate' still has uses");
}

TEST_F(PatternMatchTest, ReplaceUsesWithIfNotifiesOnlyChangedUsers) {
  FuncOp func = parseFunc(R"(
    %0 = "test.negate"(%arg0) {tag = "a"} : (i32) -> i32
    %1 = "test.negate"(%arg0) {tag = "b"} : (i32) -> i32
    %2 = "test.add"(%0, %1) : (i32, i32) -> i32
    return %2 : i32)");
  PatternRewriter rewriter(&ctx, &listener);
  Value a = findTagged(func, "a")->getResult(0);
  rewriter.replaceUsesWithIf(func.getArgument(0), a, [&](OpOperand &use) {
    return use.getOwner() == findTagged(func, "b");
  });
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{"modify test.negate:b"}));
  EXPECT_EQ(findTagged(func, "b")->getOperand(0), a);
}

TEST_F(PatternMatchTest, InlineBlockBeforeMovesOpsAndMapsArguments) {
  FuncOp func = parseFunc(R"(
    %0 = "test.negate"(%arg0) {tag = "anchor"} : (i32) -> i32
    return %0 : i32)");
  // A detached block with one argument and one op using it.
  auto *source = new Block();
  BlockArgument arg =
      source->addArgument(IntegerType::get(&ctx, 32), UnknownLoc::get(&ctx));
  PatternRewriter rewriter(&ctx, &listener);
  rewriter.setInsertionPointToEnd(source);
  auto moved = rewriter.create<test::NegateOp>(UnknownLoc::get(&ctx), arg);
  moved->setAttr("tag", rewriter.getStringAttr("moved"));
  listener.events.clear();

  Operation *anchor = findTagged(func, "anchor");
  rewriter.inlineBlockBefore(source, &func.front(), Block::iterator(anchor),
                             func.getArgument(0));
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{"modify test.negate:moved",
                                      "insert test.negate:moved"}));
  EXPECT_EQ(anchor->getPrevNode(), moved.getOperation());
  EXPECT_EQ(moved->getOperand(0), func.getArgument(0));
}

TEST_F(PatternMatchTest, MoveOpBeforeNotifiesInsertion) {
  FuncOp func = parseFunc(R"(
    %0 = "test.negate"(%arg0) {tag = "a"} : (i32) -> i32
    %1 = "test.negate"(%arg0) {tag = "b"} : (i32) -> i32
    return %1 : i32)");
  PatternRewriter rewriter(&ctx, &listener);
  Operation *a = findTagged(func, "a"), *b = findTagged(func, "b");
  rewriter.moveOpBefore(b, a);
  EXPECT_EQ(listener.events,
            (std::vector<std::string>{"insert test.negate:b"}));
  EXPECT_EQ(b->getNextNode(), a);
}

//===----------------------------------------------------------------------===//
// Pattern sets
//===----------------------------------------------------------------------===//

/// A pattern that never applies; only its place in the order matters.
struct Probe : RewritePattern {
  Probe(StringRef root, unsigned benefit, Context *ctx, StringRef name)
      : RewritePattern(root, benefit, ctx) {
    setDebugName(name);
  }
  Probe(unsigned benefit, Context *ctx, StringRef name)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, ctx) {
    setDebugName(name);
  }
  LogicalResult matchAndRewrite(Operation *, PatternRewriter &) const override {
    return failure();
  }
};

static std::vector<std::string>
namesOf(ArrayRef<const RewritePattern *> patterns) {
  std::vector<std::string> names;
  for (const RewritePattern *pattern : patterns)
    names.push_back(pattern->getDebugName().str());
  return names;
}

TEST_F(PatternMatchTest, FrozenSetOrdersByBenefitStably) {
  PatternSet set(&ctx);
  set.add(std::make_unique<Probe>("test.add", 1, &ctx, "add1"));
  set.add(std::make_unique<Probe>(2, &ctx, "any2"));
  set.add(std::make_unique<Probe>("test.add", 3, &ctx, "add3"));
  set.add(std::make_unique<Probe>(1, &ctx, "any1"));
  set.add(std::make_unique<Probe>("test.add", 2, &ctx, "add2"));
  set.add(std::make_unique<Probe>("test.mul", 1, &ctx, "mul1"));
  FrozenPatternSet frozen(std::move(set));
  EXPECT_EQ(frozen.size(), 6u);
  EXPECT_EQ(namesOf(frozen.getPatterns(OperationName("test.add", &ctx))),
            (std::vector<std::string>{"add3", "any2", "add2", "add1", "any1"}));
  EXPECT_EQ(namesOf(frozen.getPatterns(OperationName("test.mul", &ctx))),
            (std::vector<std::string>{"any2", "any1", "mul1"}));
  EXPECT_EQ(namesOf(frozen.getPatterns(OperationName("test.sub", &ctx))),
            (std::vector<std::string>{"any2", "any1"}));
}

TEST_F(PatternMatchTest, CollectsCanonicalizationPatternsOfLoadedDialects) {
  PatternSet set(&ctx);
  collectCanonicalizationPatterns(&ctx, set);
  FrozenPatternSet frozen(std::move(set));
  EXPECT_EQ(namesOf(frozen.getPatterns(OperationName("test.negate", &ctx))),
            (std::vector<std::string>{"test-negate-involution"}));
  EXPECT_EQ(namesOf(frozen.getPatterns(OperationName("test.op_a", &ctx))),
            (std::vector<std::string>{"test-op-a-to-b"}));
  EXPECT_TRUE(frozen.getPatterns(OperationName("test.constant", &ctx)).empty());
}

} // namespace

//===- OperationTest.cpp - Use-lists, builder, walk, erase, clone ---------===//
#include "ir/BuiltinOps.h"

#include <gtest/gtest.h>

using namespace onyx;

namespace {

/// A module with one function `@f(%a, %b: i32)` whose body the tests fill.
class OperationTest : public ::testing::Test {
protected:
  void SetUp() override {
    ctx.allowUnregisteredDialects();
    i32 = IntegerType::get(&ctx, 32);
    module = ModuleOp::create(b.getUnknownLoc());
    b.setInsertionPointToEnd(module.getBody());
    func = b.create<FuncOp>(b.getUnknownLoc(), "f",
                            b.getFunctionType({i32, i32}, {i32}));
    Block *entry = b.createBlock(&func.getBody(), {i32, i32},
                                 {b.getUnknownLoc(), b.getUnknownLoc()});
    argA = entry->getArgument(0);
    argB = entry->getArgument(1);
  }
  void TearDown() override { module->erase(); }

  /// Appends `"t.<name>"(operands) : (...) -> i32` at the insertion point.
  Operation *make(StringRef name, ValueRange operands, unsigned results = 1,
                  unsigned regions = 0) {
    OperationState state(b.getUnknownLoc(), ("t." + name).str());
    state.addOperands(operands);
    for (unsigned i = 0; i < results; ++i)
      state.addTypes(i32);
    for (unsigned i = 0; i < regions; ++i)
      state.addRegion();
    return b.create(state);
  }

  Context ctx;
  OpBuilder b{&ctx};
  Type i32;
  ModuleOp module;
  FuncOp func;
  Value argA, argB;
};

unsigned countUses(Value v) {
  return std::distance(v.use_begin(), v.use_end());
}

TEST_F(OperationTest, UseListsTrackOperands) {
  Operation *add = make("add", {argA, argA});
  Operation *mul = make("mul", {add->getResult(0), argB});
  EXPECT_EQ(countUses(argA), 2u);
  EXPECT_EQ(countUses(argB), 1u);
  EXPECT_TRUE(add->getResult(0).hasOneUse());
  EXPECT_EQ(*add->getResult(0).getUsers().begin(), mul);

  mul->setOperand(1, argA);
  EXPECT_EQ(countUses(argA), 3u);
  EXPECT_TRUE(argB.use_empty());

  // Growing the operand list moves operands out of the inline storage; the
  // use-lists must follow.
  mul->setOperands({argB, argB, argB, argA});
  EXPECT_EQ(countUses(argB), 3u);
  EXPECT_EQ(countUses(argA), 3u); // twice by add, once by mul
  EXPECT_TRUE(add->getResult(0).use_empty());
  EXPECT_EQ(mul->getOpOperand(3).getOperandNumber(), 3u);
}

TEST_F(OperationTest, ReplaceAllUsesWith) {
  Operation *x = make("x", {argA});
  Operation *u1 = make("u", {x->getResult(0), x->getResult(0)});
  Operation *u2 = make("u", {x->getResult(0)});
  x->getResult(0).replaceAllUsesWith(argB);
  EXPECT_TRUE(x->getResult(0).use_empty());
  EXPECT_EQ(u1->getOperand(0), argB);
  EXPECT_EQ(u1->getOperand(1), argB);
  EXPECT_EQ(u2->getOperand(0), argB);
  EXPECT_EQ(countUses(argB), 3u);

  argB.replaceAllUsesExcept(argA, u2);
  EXPECT_EQ(u1->getOperand(0), argA);
  EXPECT_EQ(u2->getOperand(0), argB);
}

TEST_F(OperationTest, MultipleResultsAndOwners) {
  Operation *pair = make("pair", {}, /*results=*/3);
  EXPECT_EQ(pair->getNumResults(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(pair->getResult(i).getOwner(), pair);
    EXPECT_EQ(pair->getResult(i).getResultNumber(), i);
    EXPECT_EQ(pair->getResult(i).getDefiningOp(), pair);
  }
  EXPECT_EQ(cast<BlockArgument>(argB).getArgNumber(), 1u);
  EXPECT_EQ(argB.getDefiningOp(), nullptr);
  EXPECT_EQ(argB.getParentBlock(), &func.front());
}

TEST_F(OperationTest, BuilderInsertionPoints) {
  Operation *first = make("first", {});
  Operation *last = make("last", {});
  b.setInsertionPoint(last);
  Operation *middle = make("middle", {});
  b.setInsertionPointToStart(&func.front());
  Operation *start = make("start", {});
  SmallVector<StringRef> names;
  for (Operation &op : func.front())
    names.push_back(op.getName().getStringRef());
  EXPECT_EQ(names, (SmallVector<StringRef>{"t.start", "t.first", "t.middle",
                                           "t.last"}));
  EXPECT_TRUE(start->isBeforeInBlock(first));
  EXPECT_TRUE(middle->isBeforeInBlock(last));
  EXPECT_FALSE(last->isBeforeInBlock(middle));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(first);
    make("after_first", {});
  }
  EXPECT_EQ(b.getInsertionPoint(), Block::iterator(first));
  EXPECT_EQ(first->getNextNode()->getName().getStringRef(), "t.after_first");
  EXPECT_TRUE(first->isBeforeInBlock(middle));
}

TEST_F(OperationTest, WalkOrders) {
  Operation *outer = make("outer", {}, 1, /*regions=*/1);
  {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&outer->getRegion(0));
    make("inner1", {});
    make("inner2", {});
  }
  make("after", {});
  SmallVector<std::string> post, pre;
  func->walk([&](Operation *op) {
    post.push_back(op->getName().getStringRef().str());
  });
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    pre.push_back(op->getName().getStringRef().str());
  });
  EXPECT_EQ(post, (SmallVector<std::string>{"t.inner1", "t.inner2", "t.outer",
                                            "t.after", "func.func"}));
  EXPECT_EQ(pre, (SmallVector<std::string>{"func.func", "t.outer", "t.inner1",
                                           "t.inner2", "t.after"}));
  unsigned visited = 0;
  WalkResult result = func->walk([&](Operation *op) {
    ++visited;
    return op->getName().getStringRef() == "t.inner2" ? WalkResult::interrupt()
                                                      : WalkResult::advance();
  });
  EXPECT_TRUE(result.wasInterrupted());
  EXPECT_EQ(visited, 2u);
  // Skipping an op's regions in a pre-order walk.
  visited = 0;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    ++visited;
    return op->getNumRegions() && op != func.getOperation()
               ? WalkResult::skip()
               : WalkResult::advance();
  });
  EXPECT_EQ(visited, 3u);
}

TEST_F(OperationTest, EraseDropsUses) {
  Operation *x = make("x", {argA, argB});
  EXPECT_EQ(countUses(argA), 1u);
  x->erase();
  EXPECT_TRUE(argA.use_empty());
  EXPECT_TRUE(argB.use_empty());
  EXPECT_TRUE(func.front().empty());
}

TEST_F(OperationTest, CloneRemapsOperandsAndRegions) {
  Operation *outer = make("outer", {argA}, 1, /*regions=*/1);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&outer->getRegion(0), {i32},
                                {b.getUnknownLoc()});
    make("use", {body->getArgument(0), argA});
  }
  outer->setAttr("k", b.getI64IntegerAttr(7));
  IRMapping mapper;
  mapper.map(argA, argB);
  Operation *copy = b.clone(*outer, mapper);
  EXPECT_NE(copy, outer);
  EXPECT_EQ(copy->getOperand(0), argB);
  EXPECT_EQ(copy->getAttr("k"), b.getI64IntegerAttr(7));
  Block &newBody = copy->getRegion(0).front();
  Operation &use = newBody.front();
  EXPECT_EQ(use.getOperand(0), newBody.getArgument(0));
  EXPECT_EQ(use.getOperand(1), argB);
  EXPECT_EQ(mapper.lookupOrDefault(outer->getResult(0)), copy->getResult(0));
  // The original is untouched.
  EXPECT_EQ(outer->getRegion(0).front().front().getOperand(1), argA);
}

TEST_F(OperationTest, AttributesStaySorted) {
  Operation *x = make("x", {});
  x->setAttr("b", b.getUnitAttr());
  x->setAttr("a", b.getI64IntegerAttr(1));
  x->setAttr("c", b.getStringAttr("s"));
  ASSERT_EQ(x->getAttrs().size(), 3u);
  EXPECT_EQ(x->getAttrs()[0].getName(), "a");
  EXPECT_EQ(x->getAttrs()[2].getName(), "c");
  EXPECT_EQ(x->removeAttr("b"), b.getUnitAttr());
  EXPECT_FALSE(x->hasAttr("b"));
  EXPECT_EQ(x->getAttrOfType<StringAttr>("c").getValue(), "s");
}

TEST_F(OperationTest, MoveBetweenBlocks) {
  Operation *outer = make("outer", {}, 0, /*regions=*/1);
  Operation *x = make("x", {});
  {
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&outer->getRegion(0));
  }
  Block *inner = &outer->getRegion(0).front();
  x->moveBefore(inner, inner->end());
  EXPECT_EQ(x->getBlock(), inner);
  EXPECT_EQ(x->getParentOp(), outer);
  EXPECT_TRUE(outer->isProperAncestor(x));
  EXPECT_TRUE(func->isProperAncestor(x));
  EXPECT_FALSE(x->isProperAncestor(outer));
}

} // namespace

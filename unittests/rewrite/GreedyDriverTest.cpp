//===- GreedyDriverTest.cpp - The greedy pattern rewrite driver -----------===//
//
// Runs the driver with the test dialect's canonicalization patterns on
// small functions and checks what it did: the resulting IR, its counters,
// its diagnostics and its trace.
//
//===----------------------------------------------------------------------===//

#include "ir/Parser.h"
#include "rewrite/GreedyPatternRewriteDriver.h"
#include "test/dialect/TestDialect.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

using namespace onyx;

namespace {

class GreedyDriverTest : public ::testing::Test {
protected:
  GreedyDriverTest() {
    ctx.loadDialect<test::TestDialect>();
    ctx.allowUnregisteredDialects();
    PatternSet set(&ctx);
    collectCanonicalizationPatterns(&ctx, set);
    patterns = FrozenPatternSet(std::move(set));
  }

  /// Parses `body` as the body of `func.func @f(%arg0: i32) -> i32`.
  void parse(StringRef body) {
    std::string text =
        ("func.func @f(%arg0: i32) -> i32 {\n" + body + "\n}\n").str();
    module = parseSourceString(text, &ctx);
    ASSERT_TRUE(module);
  }

  LogicalResult run(GreedyRewriteConfig config = {}) {
    return applyPatternsAndFoldGreedily(*module, patterns, config, &result);
  }

  FuncOp func() { return cast<FuncOp>(&module.get().getBody()->front()); }

  /// The names of the ops of the function's entry block, in order.
  std::vector<std::string> entryOps() {
    std::vector<std::string> names;
    for (Operation &op : func().front())
      names.push_back(op.getName().getStringRef().str());
    return names;
  }

  unsigned count(StringRef name) {
    unsigned n = 0;
    module->walk(
        [&](Operation *op) { n += op->getName().getStringRef() == name; });
    return n;
  }

  /// The value the function returns, as an integer constant.
  std::optional<int64_t> returnedConstant() {
    Operation *ret = func().front().getTerminator();
    auto constant = ret->getOperand(0).getDefiningOp<test::ConstantOp>();
    if (!constant)
      return std::nullopt;
    return cast<IntegerAttr>(constant.getValue()).getInt();
  }

  Context ctx;
  FrozenPatternSet patterns;
  OwningOpRef<ModuleOp> module;
  GreedyRewriteResult result;
};

TEST_F(GreedyDriverTest, FoldsConstantsThroughChains) {
  parse(R"(
    %c1 = "test.constant"() {value = 1 : i32} : () -> i32
    %c2 = "test.constant"() {value = 2 : i32} : () -> i32
    %0 = "test.add"(%c1, %c2) : (i32, i32) -> i32
    %1 = "test.mul"(%0, %c2) : (i32, i32) -> i32
    %2 = "test.negate"(%1) : (i32) -> i32
    return %2 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(returnedConstant(), -6);
  EXPECT_EQ(result.numFolds, 3u);
  // The inputs and the intermediate constants died once their users folded.
  EXPECT_EQ(entryOps(),
            (std::vector<std::string>{"test.constant", "func.return"}));
  EXPECT_EQ(result.numErasures, 4u);
}

TEST_F(GreedyDriverTest, FoldToExistingValue) {
  parse(R"(
    %c0 = "test.constant"() {value = 0 : i32} : () -> i32
    %0 = "test.add"(%arg0, %c0) : (i32, i32) -> i32
    return %0 : i32)");
  ASSERT_TRUE(succeeded(run()));
  Operation *ret = func().front().getTerminator();
  EXPECT_EQ(ret->getOperand(0), func().getArgument(0));
  EXPECT_EQ(entryOps(), (std::vector<std::string>{"func.return"}));
}

TEST_F(GreedyDriverTest, InPlaceFoldCountsAsAChange) {
  // 1 * x: the fold first moves the constant to the right in place, then
  // folds x * 1 to x.
  parse(R"(
    %c1 = "test.constant"() {value = 1 : i32} : () -> i32
    %0 = "test.mul"(%c1, %arg0) : (i32, i32) -> i32
    return %0 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_EQ(result.numFolds, 2u);
  EXPECT_EQ(func().front().getTerminator()->getOperand(0),
            func().getArgument(0));
}

TEST_F(GreedyDriverTest, ConstantsAreMergedAndHoisted) {
  parse(R"(
    %0 = "test.side_effect"() : () -> i32
    %c3 = "test.constant"() {value = 3 : i32} : () -> i32
    %c1 = "test.constant"() {value = 1 : i32} : () -> i32
    %c2 = "test.constant"() {value = 2 : i32} : () -> i32
    %1 = "test.add"(%c1, %c2) : (i32, i32) -> i32
    %2 = "test.region_op"() ({
      %c3b = "test.constant"() {value = 3 : i32} : () -> i32
      %3 = "test.mul"(%c3b, %0) : (i32, i32) -> i32
      "test.yield"(%3) : (i32) -> ()
    }) : () -> i32
    %4 = "test.side_effect"(%1, %2, %c3) : (i32, i32, i32) -> i32
    return %4 : i32)");
  ASSERT_TRUE(succeeded(run()));
  // One constant 3 is left, at the start of the function; the fold of
  // 1 + 2 reused it.
  EXPECT_EQ(count("test.constant"), 1u);
  EXPECT_EQ(func().front().front().getName().getStringRef(), "test.constant");
  Operation *user = func().front().getTerminator()->getPrevNode();
  EXPECT_EQ(user->getOperand(0), user->getOperand(2));
}

TEST_F(GreedyDriverTest, ConstantsStayInTheirIsolatedRegion) {
  parse(R"(
    "test.isolated"() ({
      %c1 = "test.constant"() {value = 1 : i32} : () -> i32
      %c2 = "test.constant"() {value = 2 : i32} : () -> i32
      %0 = "test.add"(%c1, %c2) : (i32, i32) -> i32
      "test.side_effect"(%0) : (i32) -> ()
    }) : () -> ()
    return %arg0 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_EQ(entryOps(),
            (std::vector<std::string>{"test.isolated", "func.return"}));
  Block &inner = func().front().front().getRegion(0).front();
  ASSERT_EQ(inner.getOperations().size(), 2u);
  auto constant = cast<test::ConstantOp>(&inner.front());
  EXPECT_EQ(cast<IntegerAttr>(constant.getValue()).getInt(), 3);
}

TEST_F(GreedyDriverTest, DeadCodeEliminationKeepsSideEffects) {
  parse(R"(
    %0 = "test.negate"(%arg0) : (i32) -> i32
    %1 = "test.side_effect"(%0) : (i32) -> i32
    %2 = "test.negate"(%arg0) : (i32) -> i32
    %3 = "test.region_op"() ({
      "test.yield"(%2) : (i32) -> ()
    }) : () -> i32
    %4 = "test.region_op"() ({
      "test.side_effect"() : () -> ()
      "test.yield"(%arg0) : (i32) -> ()
    }) : () -> i32
    "foo.unknown"(%arg0) : (i32) -> ()
    return %arg0 : i32)");
  ASSERT_TRUE(succeeded(run()));
  // The pure region op and then its operand die; the side effect, its
  // operand, the region op with a side effect inside and the unregistered
  // op stay.
  EXPECT_EQ(entryOps(), (std::vector<std::string>{
                            "test.negate", "test.side_effect", "test.region_op",
                            "foo.unknown", "func.return"}));
  EXPECT_EQ(result.numErasures, 2u);
}

TEST_F(GreedyDriverTest, DisabledDCEKeepsDeadOps) {
  parse(R"(
    %0 = "test.negate"(%arg0) : (i32) -> i32
    return %arg0 : i32)");
  GreedyRewriteConfig config;
  config.enableDCE = false;
  ASSERT_TRUE(succeeded(run(config)));
  EXPECT_EQ(count("test.negate"), 1u);
}

TEST_F(GreedyDriverTest, DisabledFoldingKeepsFoldableOps) {
  parse(R"(
    %c1 = "test.constant"() {value = 1 : i32} : () -> i32
    %0 = "test.add"(%c1, %c1) : (i32, i32) -> i32
    return %0 : i32)");
  GreedyRewriteConfig config;
  config.enableFolding = false;
  ASSERT_TRUE(succeeded(run(config)));
  EXPECT_EQ(count("test.add"), 1u);
  EXPECT_EQ(result.numFolds, 0u);
}

TEST_F(GreedyDriverTest, PatternsCreateAndEraseOps) {
  parse(R"(
    %0 = "test.sub"(%arg0, %arg0) : (i32, i32) -> i32
    %1 = "test.negate"(%0) : (i32) -> i32
    %2 = "test.negate"(%1) : (i32) -> i32
    "test.erase_me"() : () -> ()
    %3 = "test.op_a"(%2) : (i32) -> i32
    return %3 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_EQ(entryOps(), (std::vector<std::string>{"test.negate", "test.add",
                                                  "test.op_c", "func.return"}));
  // sub -> add+negate, -(-x) -> x, erase_me, op_a -> op_b -> op_c.
  EXPECT_EQ(result.numRewrites, 5u);
}

TEST_F(GreedyDriverTest, ConvergedRunNeedsAQuietIteration) {
  parse(R"(
    %0 = "test.op_a"(%arg0) : (i32) -> i32
    return %0 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 2u);
  EXPECT_EQ(result.numRewrites, 2u);
}

TEST_F(GreedyDriverTest, TooFewIterationsIsReportedWhenStrict) {
  parse(R"(
    %0 = "test.op_a"(%arg0) : (i32) -> i32
    return %0 : i32)");
  GreedyRewriteConfig config;
  config.maxIterations = 1;
  ASSERT_TRUE(succeeded(run(config)));
  EXPECT_FALSE(result.converged);

  parse(R"(
    %0 = "test.op_a"(%arg0) : (i32) -> i32
    return %0 : i32)");
  config.strictConvergence = true;
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(run(config)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_EQ(diags.getDiagnostics()[0].str(),
            "greedy pattern rewrite did not converge after 1 iterations; "
            "applied most: pattern 'test-op-a-to-b' (1 times), pattern "
            "'test-op-b-to-c' (1 times)");
}

TEST_F(GreedyDriverTest, RewriteLimitStopsEndlessPatterns) {
  parse(R"(
    "test.flip"() : () -> ()
    return %arg0 : i32)");
  GreedyRewriteConfig config;
  config.maxNumRewrites = 7;
  config.strictConvergence = true;
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(run(config)));
  EXPECT_FALSE(result.converged);
  EXPECT_EQ(result.numRewrites, 7u);
  EXPECT_EQ(count("test.flop"), 1u);
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_EQ(diags.getDiagnostics()[0].str(),
            "greedy pattern rewrite did not converge after 1 iterations "
            "(reached the limit of 7 rewrites); applied most: pattern "
            "'test-flip-to-flop' (4 times), pattern 'test-flop-to-flip' (3 "
            "times)");
}

TEST_F(GreedyDriverTest, DefaultBoundsStopRunawayPatterns) {
  // Without strictConvergence or an explicit limit, endless patterns are
  // still an error: the default bound scales with the IR.
  parse(R"(
    "test.flip"() : () -> ()
    return %arg0 : i32)");
  GreedyRewriteConfig config;
  config.rewritesPerOp = 10;
  {
    ScopedDiagnosticCollector diags(&ctx);
    EXPECT_TRUE(failed(run(config)));
    EXPECT_FALSE(result.converged);
    // func, flip, return.
    EXPECT_EQ(result.numRewrites, 3u * 10 + GreedyRewriteConfig::kBoundSlack);
    ASSERT_EQ(diags.getDiagnostics().size(), 1u);
    EXPECT_NE(diags.getDiagnostics()[0].str().find(
                  "greedy pattern rewrite does not terminate: it made 4126 "
                  "rewrites on IR of 3 ops; applied most: pattern "
                  "'test-flip-to-flop' (2063 times)"),
              std::string::npos);
  }

  parse(R"(
    "test.divide"() : () -> ()
    return %arg0 : i32)");
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(run()));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find(
                "it created more than 4480 ops on IR of 3 ops"),
            std::string::npos);
}

TEST_F(GreedyDriverTest, FailedPatternsAreNotRetriedOnUnchangedOps) {
  // The negations never match; the chain changes the IR in iteration 1, so
  // iteration 2 revisits them and skips their patterns.
  parse(R"(
    %0 = "test.negate"(%arg0) : (i32) -> i32
    %1 = "test.negate"(%arg0) : (i32) -> i32
    %2 = "test.side_effect"(%0, %1) : (i32, i32) -> i32
    %3 = "test.op_b"(%2) : (i32) -> i32
    return %3 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_EQ(result.iterations, 2u);
  EXPECT_EQ(result.numCachedFailures, 2u);
}

TEST_F(GreedyDriverTest, ChangedOpsAreRetried) {
  // Bottom-up, the add is tried first and fails; once its operand folds to
  // a constant the add has changed, so its pattern is tried again and moves
  // the constant to the right.
  parse(R"(
    %c2 = "test.constant"() {value = 2 : i32} : () -> i32
    %0 = "test.negate"(%c2) : (i32) -> i32
    %1 = "test.add"(%0, %arg0) : (i32, i32) -> i32
    return %1 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_EQ(entryOps(), (std::vector<std::string>{"test.constant", "test.add",
                                                  "func.return"}));
  Operation *add = func().front().getTerminator()->getPrevNode();
  EXPECT_EQ(add->getOperand(0), func().getArgument(0));
  EXPECT_EQ(add->getOperand(1), func().front().front().getResult(0));
}

TEST_F(GreedyDriverTest, TraversalOrder) {
  const char *body = R"(
    %0 = "test.op_b"(%arg0) {tag = "first"} : (i32) -> i32
    %1 = "test.op_b"(%0) {tag = "second"} : (i32) -> i32
    return %1 : i32)";
  auto appliedOrder = [&](bool topDown) {
    parse(body);
    std::string log;
    llvm::raw_string_ostream os(log);
    GreedyRewriteConfig config;
    config.useTopDownTraversal = topDown;
    config.trace = &os;
    EXPECT_TRUE(succeeded(run(config)));
    // Line numbers of the ops in the order patterns were applied to them.
    std::string order;
    for (size_t pos = log.find("apply"); pos != std::string::npos;
         pos = log.find("apply", pos + 1)) {
      size_t colon = log.find("\":", pos);
      order += log.substr(colon + 2, 1);
    }
    return order;
  };
  // The body starts on line 2: the ops are on lines 3 and 4.
  EXPECT_EQ(appliedOrder(/*topDown=*/true), "34");
  EXPECT_EQ(appliedOrder(/*topDown=*/false), "43");
}

TEST_F(GreedyDriverTest, TraceNamesPatternsFoldsAndErasures) {
  parse(R"(
    %c1 = "test.constant"() {value = 1 : i32} : () -> i32
    %0 = "test.add"(%c1, %c1) : (i32, i32) -> i32
    %1 = "test.negate"(%arg0) : (i32) -> i32
    %2 = "test.op_b"(%0) : (i32) -> i32
    return %2 : i32)");
  std::string log;
  llvm::raw_string_ostream os(log);
  GreedyRewriteConfig config;
  config.trace = &os;
  ASSERT_TRUE(succeeded(run(config)));
  EXPECT_NE(log.find("[greedy] iteration 1\n"), std::string::npos) << log;
  EXPECT_NE(log.find("[greedy] apply pattern 'test-op-b-to-c' to 'test.op_b' "
                     "at loc(\"<string>\":6:"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("[greedy] fold 'test.add' at loc(\"<string>\":4:"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("[greedy] erase 'test.negate' at loc(\"<string>\":5:"),
            std::string::npos)
      << log;
}

TEST_F(GreedyDriverTest, RegionSimplificationErasesUnreachableBlocks) {
  const char *body = R"(
    %0 = "test.region_op"() ({
      "test.yield"(%arg0) : (i32) -> ()
    ^bb1:
      %1 = "test.side_effect"() : () -> i32
      "test.yield"(%1) : (i32) -> ()
    }) : () -> i32
    return %0 : i32)";
  parse(body);
  ASSERT_TRUE(succeeded(run()));
  Region &region = func().front().front().getRegion(0);
  EXPECT_TRUE(region.hasOneBlock());
  EXPECT_EQ(count("test.side_effect"), 0u);

  parse(body);
  GreedyRewriteConfig config;
  config.enableRegionSimplification = false;
  ASSERT_TRUE(succeeded(run(config)));
  EXPECT_EQ(count("test.side_effect"), 1u);
}

TEST_F(GreedyDriverTest, ExpensiveChecksCatchSuccessWithoutChange) {
  parse(R"(
    "test.broken_success"() : () -> ()
    return %arg0 : i32)");
  GreedyRewriteConfig config;
  config.expensiveChecks = true;
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(run(config)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_EQ(diags.getDiagnostics()[0].str(),
            "pattern 'test-broken-success' returned success but did not "
            "change the IR");
}

TEST_F(GreedyDriverTest, ExpensiveChecksCatchChangeWithFailure) {
  parse(R"(
    "test.broken_failure"() : () -> ()
    return %arg0 : i32)");
  GreedyRewriteConfig config;
  config.expensiveChecks = true;
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(run(config)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_EQ(diags.getDiagnostics()[0].str(),
            "pattern 'test-broken-failure' returned failure but changed the "
            "IR");
}

TEST_F(GreedyDriverTest, ExpensiveChecksPassCorrectPatterns) {
  parse(R"(
    %0 = "test.sub"(%arg0, %arg0) : (i32, i32) -> i32
    %1 = "test.op_a"(%0) : (i32) -> i32
    "test.erase_me"() : () -> ()
    return %1 : i32)");
  GreedyRewriteConfig config;
  config.expensiveChecks = true;
  EXPECT_TRUE(succeeded(run(config)));
  EXPECT_TRUE(result.converged);
}

/// Replaces test.erase_me by a test.add without operands, which the
/// verifier rejects.
struct InvalidIRPattern : OpRewritePattern<test::EraseMeOp> {
  InvalidIRPattern(Context *ctx) : OpRewritePattern(ctx) {
    setDebugName("make-invalid-ir");
  }
  LogicalResult matchAndRewrite(test::EraseMeOp op,
                                PatternRewriter &rewriter) const override {
    OperationState state(op.getLoc(), test::AddOp::getOperationName());
    state.addTypes(rewriter.getI32Type());
    rewriter.create(state);
    rewriter.eraseOp(op);
    return success();
  }
};

TEST_F(GreedyDriverTest, ExpensiveChecksVerifyTheIR) {
  parse(R"(
    "test.erase_me"() : () -> ()
    return %arg0 : i32)");
  PatternSet set(&ctx);
  set.add<InvalidIRPattern>();
  FrozenPatternSet invalid(std::move(set));
  GreedyRewriteConfig config;
  config.expensiveChecks = true;
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(applyPatternsAndFoldGreedily(*module, invalid, config)));
  ASSERT_EQ(diags.getDiagnostics().size(), 2u);
  EXPECT_EQ(diags.getDiagnostics()[0].str(),
            "'test.add' op expects 2 operands and one result");
  EXPECT_EQ(diags.getDiagnostics()[1].str(),
            "pattern 'make-invalid-ir' produced IR that does not verify");
}

TEST_F(GreedyDriverTest, ParentsAreRevisitedWhenTheirBodyChanges) {
  // Once the pattern erases test.erase_me, the region op has no side effect
  // left and is dead: it is erased in the same sweep, since changing an op
  // re-queues its ancestors.
  parse(R"(
    %0 = "test.region_op"() ({
      "test.erase_me"() : () -> ()
      "test.yield"(%arg0) : (i32) -> ()
    }) : () -> i32
    return %arg0 : i32)");
  ASSERT_TRUE(succeeded(run()));
  EXPECT_EQ(entryOps(), (std::vector<std::string>{"func.return"}));
  EXPECT_EQ(result.iterations, 2u);
  EXPECT_EQ(result.numErasures, 1u);
}

/// A pattern without a debug name is reported by its C++ class name.
struct UnnamedBrokenPattern : OpRewritePattern<test::BrokenSuccessOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(test::BrokenSuccessOp,
                                PatternRewriter &) const override {
    return success();
  }
};

TEST_F(GreedyDriverTest, ExpensiveChecksNameUnnamedPatternsByClass) {
  parse(R"(
    "test.broken_success"() : () -> ()
    return %arg0 : i32)");
  PatternSet set(&ctx);
  set.add<UnnamedBrokenPattern>();
  FrozenPatternSet unnamed(std::move(set));
  GreedyRewriteConfig config;
  config.expensiveChecks = true;
  ScopedDiagnosticCollector diags(&ctx);
  EXPECT_TRUE(failed(applyPatternsAndFoldGreedily(*module, unnamed, config)));
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find("UnnamedBrokenPattern"),
            std::string::npos);
}

} // namespace

//===- Canonicalize.cpp - Patterns, folding and DCE to a fixpoint ---------===//
//
// The canonicalize pass runs the greedy driver with every canonicalization
// pattern of the loaded dialects. The patterns are collected and frozen
// once, when the pass is initialized, and shared by every op it runs on.
//
// The worklist is seeded top-down by default, as in MLIR's canonicalizer
// (the driver's own default is bottom-up). Expensive checks default to the
// build's ONYX_EXPENSIVE_CHECKS setting, so that test builds check every
// pattern application without each test asking for it.
//
//===----------------------------------------------------------------------===//

#include "rewrite/GreedyPatternRewriteDriver.h"
#include "rewrite/Passes.h"

#include "llvm/Support/raw_ostream.h"

using namespace onyx;

namespace {

#ifdef ONYX_EXPENSIVE_CHECKS
constexpr bool kExpensiveChecksByDefault = true;
#else
constexpr bool kExpensiveChecksByDefault = false;
#endif

class Canonicalizer : public PassWrapper<Canonicalizer> {
public:
  Canonicalizer()
      : PassWrapper("canonicalize",
                    "Apply canonicalization patterns, fold and erase dead "
                    "operations until nothing changes") {}
  StringRef getName() const override { return "Canonicalizer"; }

  LogicalResult initialize(Context *ctx) override {
    PatternSet collected(ctx);
    collectCanonicalizationPatterns(ctx, collected);
    patterns = std::make_shared<FrozenPatternSet>(std::move(collected));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.maxIterations = maxIterations;
    config.maxNumRewrites = maxNumRewrites;
    config.useTopDownTraversal = topDown;
    config.enableRegionSimplification = regionSimplify;
    config.strictConvergence = testConvergence;
    config.expensiveChecks = expensiveChecks;
    if (trace)
      config.trace = &llvm::errs();

    GreedyRewriteResult result;
    LogicalResult status = applyPatternsAndFoldGreedily(
        getOperation(), *patterns, config, &result);
    numRewrites += result.numRewrites;
    numFolds += result.numFolds;
    numErasures += result.numErasures;
    // Qualified: Pass has a member named `failed`.
    if (llvm::failed(status))
      signalPassFailure();
  }

private:
  PassOption<int64_t> maxIterations{
      this, "max-iterations",
      "Seed-and-drain sweeps over the IR before giving up (-1: no limit)", 10};
  PassOption<int64_t> maxNumRewrites{
      this, "max-num-rewrites",
      "Pattern applications and folds before giving up (-1: the default "
      "bound, 64 per op of the IR + 4096, beyond which the run is an error "
      "naming the patterns that kept firing)",
      -1};
  PassOption<bool> topDown{
      this, "top-down",
      "Visit ops in program order (false: from the end of each block)", true};
  PassOption<bool> regionSimplify{
      this, "region-simplify",
      "Erase blocks that control cannot reach (all but the entry block)", true};
  PassOption<bool> testConvergence{
      this, "test-convergence",
      "Fail with an error when no fixpoint is reached within the limits",
      false};
  PassOption<bool> expensiveChecks{
      this, "expensive-checks",
      "Check after each pattern that it changed the IR exactly when it "
      "returned success and that the IR still verifies",
      kExpensiveChecksByDefault};
  PassOption<bool> trace{
      this, "trace", "Print each applied pattern, fold and erasure to stderr",
      false};

  PassStatistic numRewrites{this, "num-rewrites",
                            "Number of pattern applications"};
  PassStatistic numFolds{this, "num-folds", "Number of folded operations"};
  PassStatistic numErasures{this, "num-erasures",
                            "Number of dead operations erased"};

  std::shared_ptr<const FrozenPatternSet> patterns;
};

} // namespace

std::unique_ptr<Pass> onyx::createCanonicalizerPass() {
  return std::make_unique<Canonicalizer>();
}

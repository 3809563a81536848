//===- FlattenControlFlow.cpp - onnx-flatten-control-flow -----------------===//
//
// The GPU runs a recorded stream of dispatches without branches or loops,
// so onnx.If, onnx.Loop and onnx.Scan become straight-line ops first
// (flattenControlFlow in dialect/onnx/ControlFlow.h: loops of a count known
// when compiling unrolled, an If on a condition known only at run time
// computing both branches and selecting). After each round the module is
// canonicalized: an unrolled iteration's constants fold, so an If or a
// Loop nested in the body gets a constant condition or trip count, which
// the next round takes. Loops are flattened before Ifs, so that an If whose
// condition folds once its loop is unrolled takes its branch rather than
// computing both. A Loop whose trip count is known only at run time, once
// no other loop is left to unroll, stays when its body can be lowered once
// (onnx::checkDeviceLoop): convert-onnx-to-gpu makes it a gpu.loop, which
// the runtime records once per iteration. A module without control flow is
// left as it is.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialect/onnx/ControlFlow.h"

#include "llvm/ADT/SmallPtrSet.h"

#include "ir/Block.h"
#include "ir/BuiltinOps.h"
#include "rewrite/GreedyPatternRewriteDriver.h"
#include "rewrite/PatternMatch.h"

namespace onyx::lowering {

namespace {

bool isControlFlowOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "onnx.If" || name == "onnx.Loop" || name == "onnx.Scan";
}

/// The control-flow ops of `func` that no other control flow holds.
SmallVector<Operation *> getOutermostControlFlow(FuncOp func) {
  SmallVector<Operation *> ops;
  for (Operation &op : func.front())
    if (isControlFlowOp(&op))
      ops.push_back(&op);
  return ops;
}

class FlattenControlFlow : public PassWrapper<FlattenControlFlow> {
public:
  FlattenControlFlow()
      : PassWrapper(
            "onnx-flatten-control-flow",
            "Unroll onnx.Loop and onnx.Scan of counts known when compiling, "
            "and turn onnx.If on a run-time condition into both branches "
            "and a Where",
            "builtin.module") {}
  LogicalResult initialize(Context *ctx) override {
    PatternSet collected(ctx);
    collectCanonicalizationPatterns(ctx, collected);
    patterns = std::make_shared<FrozenPatternSet>(std::move(collected));
    return success();
  }
  void runOnOperation() override;

private:
  bool canonicalize();

  std::shared_ptr<FrozenPatternSet> patterns;
  PassOption<int64_t> maxUnrolledOps{
      this, "max-unrolled-ops",
      "The most ops one unrolled Loop or Scan may have (iterations times "
      "the ops of its body)",
      int64_t(1) << 16};
  PassStatistic numLoops{this, "num-unrolled", "Loops and Scans unrolled"};
  PassStatistic numIfs{this, "num-selected", "Ifs turned into a select"};
  PassStatistic numKept{this, "num-run-time-loops",
                        "Loops of a run-time trip count left to gpu.loop"};
};

bool FlattenControlFlow::canonicalize() {
  GreedyRewriteConfig config;
  config.useTopDownTraversal = true;
  return succeeded(
      applyPatternsAndFoldGreedily(getOperation(), *patterns, config));
}

void FlattenControlFlow::runOnOperation() {
  SmallVector<FuncOp> funcs;
  bool any = false;
  for (Operation &op : *cast<ModuleOp>(getOperation()).getBody())
    if (auto func = dyn_cast<FuncOp>(&op)) {
      funcs.push_back(func);
      any |= !func.getBody().empty() && !getOutermostControlFlow(func).empty();
    }
  if (!any)
    return;
  llvm::SmallPtrSet<Operation *, 4> kept;
  // Each round removes at least one op of control flow, and what a round
  // unrolls is bounded by maxUnrolledOps, so this ends.
  while (true) {
    if (!canonicalize())
      return signalPassFailure();
    SmallVector<Operation *> loops, ifs, runTime;
    for (FuncOp func : funcs)
      for (Operation *op : getOutermostControlFlow(func)) {
        if (kept.contains(op))
          continue;
        if (op->getName().getStringRef() == "onnx.If")
          ifs.push_back(op);
        else
          (onnx::hasRunTimeTripCount(op) ? runTime : loops).push_back(op);
      }
    // A Loop whose trip count is known only at run time stays, its body
    // lowered once (gpu.loop), once no other loop is left to unroll (that
    // could make its count a constant).
    if (loops.empty() && !runTime.empty()) {
      bool failedAny = false;
      for (Operation *op : runTime) {
        failedAny |= llvm::failed(onnx::checkDeviceLoop(op)) ||
                     llvm::failed(onnx::foldConditionIntoTripCount(op));
        kept.insert(op);
        ++numKept;
      }
      if (failedAny)
        return signalPassFailure();
      continue;
    }
    if (loops.empty() && ifs.empty())
      return;
    // Ifs wait until no loop is left to unroll: unrolling may fold their
    // conditions.
    ArrayRef<Operation *> round = loops.empty() ? ifs : loops;
    bool failedAny = false;
    for (Operation *op : round) {
      bool isIf = op->getName().getStringRef() == "onnx.If";
      // Qualified: Pass has a member named `failed`.
      if (llvm::failed(onnx::flattenControlFlow(op, maxUnrolledOps))) {
        failedAny = true;
        continue;
      }
      ++(isIf ? numIfs : numLoops);
    }
    if (failedAny)
      return signalPassFailure();
    refineFunctionTypes(getOperation());
  }
}

} // namespace

void refineFunctionTypes(Operation *module) {
  for (Operation &op : *cast<ModuleOp>(module).getBody()) {
    auto func = dyn_cast<FuncOp>(&op);
    if (!func || func.getBody().empty())
      continue;
    onnx::refineResultTypes(func.getBody());
    Operation &ret = func.front().back();
    SmallVector<Type> results;
    for (Value v : ret.getOperands())
      results.push_back(v.getType());
    FunctionType type = func.getFunctionType();
    if (ArrayRef<Type>(results) != type.getResults())
      func.setFunctionType(
          FunctionType::get(func->getContext(), type.getInputs(), results));
  }
}

std::unique_ptr<Pass> createFlattenControlFlowPass() {
  return std::make_unique<FlattenControlFlow>();
}

} // namespace onyx::lowering

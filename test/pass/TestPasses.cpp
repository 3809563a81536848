//===- TestPasses.cpp - Passes for testing the pass manager ---------------===//

#include "test/pass/TestPasses.h"

#include "ir/BuiltinOps.h"
#include "rewrite/Pass.h"

using namespace onyx;

namespace {

/// Fails with an error on the op it runs on.
class TestPassFailure : public PassWrapper<TestPassFailure> {
public:
  TestPassFailure()
      : PassWrapper("test-pass-failure",
                    "Test pass: report an error and fail") {}
  StringRef getName() const override { return "TestPassFailure"; }
  void runOnOperation() override {
    getOperation()->emitError() << "test-pass-failure failed as asked";
    signalPassFailure();
  }
};

/// Erases the terminator of every function body, which leaves IR that the
/// verifier rejects, and reports success as if nothing were wrong.
class TestBreakIR : public PassWrapper<TestBreakIR> {
public:
  TestBreakIR()
      : PassWrapper("test-break-ir",
                    "Test pass: erase the terminators of function bodies, "
                    "leaving invalid IR") {}
  StringRef getName() const override { return "TestBreakIR"; }
  void runOnOperation() override {
    getOperation()->walkOps<FuncOp>([](FuncOp func) {
      if (!func.isExternal())
        if (Operation *terminator = func.front().getTerminator())
          terminator->erase();
    });
  }
};

/// Runs on func.func only; counts the ops of each function and may write the
/// count into an attribute of the function.
class TestFuncCount : public PassWrapper<TestFuncCount> {
public:
  TestFuncCount()
      : PassWrapper("test-func-count",
                    "Test pass on func.func: count the ops of each function",
                    FuncOp::getOperationName()) {}
  StringRef getName() const override { return "TestFuncCount"; }
  void runOnOperation() override {
    int64_t count = -1;
    getOperation()->walk([&](Operation *) { ++count; });
    numFuncs += 1;
    numOps += count;
    if (annotate)
      getOperation()->setAttr(attrName.getValue(),
                              Builder(getContext()).getI64IntegerAttr(count));
  }

private:
  PassOption<bool> annotate{this, "annotate",
                            "Write the count into an attribute", false};
  PassOption<std::string> attrName{this, "attr-name",
                                   "The attribute the count is written to",
                                   "test.num_ops"};
  PassStatistic numFuncs{this, "num-funcs", "Number of functions visited"};
  PassStatistic numOps{this, "num-ops", "Number of operations counted"};
};

} // namespace

void onyx::registerTestPasses() {
  registerTestPass([] { return std::make_unique<TestPassFailure>(); });
  registerTestPass([] { return std::make_unique<TestBreakIR>(); });
  registerTestPass([] { return std::make_unique<TestFuncCount>(); });
}

//===- PassManagerTest.cpp - Pipelines, options and running passes --------===//

#include "rewrite/PassManager.h"
#include "rewrite/Passes.h"

#include "ir/BuiltinOps.h"
#include "ir/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace onyx;

namespace {

/// A pass with an option of every supported type; it records each op it
/// runs on in a log shared by the test.
class OptionsPass : public Pass {
public:
  StringRef getArgument() const override { return "test-options"; }
  StringRef getDescription() const override { return "Options of each type"; }
  std::unique_ptr<Pass> clone() const override {
    auto pass = std::make_unique<OptionsPass>();
    pass->flag = flag.getValue();
    pass->count = count.getValue();
    pass->limit = limit.getValue();
    pass->label = label.getValue();
    return pass;
  }
  void runOnOperation() override {}

  PassOption<bool> flag{this, "flag", "A bool", false};
  PassOption<int64_t> count{this, "count", "An int64_t", 10};
  PassOption<unsigned> limit{this, "limit", "An unsigned", 3};
  PassOption<std::string> label{this, "label", "A string", "none"};
};

std::vector<std::string> &getRunLog() {
  static std::vector<std::string> log;
  return log;
}

/// Logs `<argument>:<op name>` for each op it runs on.
class LogPass : public Pass {
public:
  explicit LogPass(std::string argument = "test-log",
                   std::optional<StringRef> opName = std::nullopt)
      : Pass(opName), argument(std::move(argument)) {}
  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override { return "Logs its runs"; }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<LogPass>(argument, getOpName());
  }
  void runOnOperation() override {
    std::string entry =
        argument + ":" + getOperation()->getName().getStringRef().str();
    if (auto name = getOperation()->getAttrOfType<StringAttr>("sym_name"))
      entry += ("@" + name.getValue()).str();
    getRunLog().push_back(entry);
    ++numRuns;
  }

private:
  std::string argument;
  PassStatistic numRuns{this, "num-runs", "Number of runs"};
};

/// Runs on func.func only.
class FuncLogPass : public LogPass {
public:
  FuncLogPass() : LogPass("test-func-log", StringRef("func.func")) {}
};

class FailPass : public Pass {
public:
  StringRef getArgument() const override { return "test-fail"; }
  StringRef getDescription() const override { return "Fails"; }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<FailPass>();
  }
  void runOnOperation() override {
    getOperation()->emitError() << "failed on purpose";
    signalPassFailure();
  }
};

/// Erases every func.return, which the verifier rejects.
class BreakPass : public Pass {
public:
  StringRef getArgument() const override { return "test-break"; }
  StringRef getDescription() const override { return "Breaks the IR"; }
  std::unique_ptr<Pass> clone() const override {
    return std::make_unique<BreakPass>();
  }
  void runOnOperation() override {
    getOperation()->walkOps<ReturnOp>([](ReturnOp op) { op->erase(); });
  }
};

class PassManagerTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    registerRewritePasses();
    registerPass([] { return std::make_unique<OptionsPass>(); });
    registerPass([] { return std::make_unique<LogPass>(); });
    registerPass([] { return std::make_unique<FuncLogPass>(); });
    registerPass([] { return std::make_unique<FailPass>(); });
    registerPass([] { return std::make_unique<BreakPass>(); });
  }
  void SetUp() override { getRunLog().clear(); }

  /// Parses `text` into a fresh module-anchored pipeline; returns its
  /// printed form, or "error: <message>".
  static std::string roundTrip(StringRef text,
                               StringRef anchor = "builtin.module") {
    OpPassManager pm(anchor);
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (failed(parsePassPipeline(text, pm, os)))
      return "error: " + errors;
    return pm.printAsTextualPipeline();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString(source, &ctx);
  }

  Context ctx;
};

constexpr StringRef kTwoFuncs = R"(
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
func.func @g(%a: i32) -> i32 {
  return %a : i32
}
)";

} // namespace

//===----------------------------------------------------------------------===//
// Pipeline text
//===----------------------------------------------------------------------===//

TEST_F(PassManagerTest, PrintsParsedPipelines) {
  EXPECT_EQ(roundTrip("builtin.module(func.func(cse),dce)"),
            "builtin.module(func.func(cse),dce)");
  // A bare list is added to the pass manager it is parsed into.
  EXPECT_EQ(roundTrip("cse, dce"), "builtin.module(cse,dce)");
  EXPECT_EQ(roundTrip("  builtin.module( func.func( cse ) , dce )  "),
            "builtin.module(func.func(cse),dce)");
  EXPECT_EQ(roundTrip("builtin.module()"), "builtin.module()");
  EXPECT_EQ(roundTrip(""), "builtin.module()");
  EXPECT_EQ(roundTrip("func.func()"), "builtin.module(func.func())");
  // Consecutive nested pipelines stay separate, as written.
  EXPECT_EQ(roundTrip("func.func(cse),func.func(dce)"),
            "builtin.module(func.func(cse),func.func(dce))");
  EXPECT_EQ(roundTrip("any(cse)", "any"), "any(cse)");
}

TEST_F(PassManagerTest, PrintsTheCanonicalizerWithAllItsOptions) {
  std::string printed = roundTrip(
      "builtin.module(func.func(canonicalize{max-iterations=3},cse))");
  EXPECT_EQ(printed.find("builtin.module(func.func(canonicalize{"), 0u)
      << printed;
  EXPECT_NE(printed.find("max-iterations=3 "), std::string::npos) << printed;
  EXPECT_NE(printed.find("top-down=true"), std::string::npos) << printed;
  EXPECT_NE(printed.find("},cse))"), std::string::npos) << printed;
  EXPECT_EQ(roundTrip(printed), printed);
}

TEST_F(PassManagerTest, PrintsEveryOptionAndParsesItBack) {
  std::string printed =
      roundTrip("builtin.module(test-options{count=-4 flag label=\"a b\"})");
  EXPECT_EQ(printed, "builtin.module(test-options{flag=true count=-4 limit=3 "
                     "label=\"a b\"})");
  EXPECT_EQ(roundTrip(printed), printed);
  EXPECT_EQ(roundTrip("test-options{label={x {y} z}}"),
            "builtin.module(test-options{flag=false count=10 limit=3 "
            "label=\"x {y} z\"})");
}

TEST_F(PassManagerTest, ReportsPipelineSyntaxErrorsWithColumns) {
  EXPECT_EQ(roundTrip("builtin.module(foo)"),
            "error: <pass-pipeline>:1:16: error: 'foo' does not refer to a "
            "registered pass or pass pipeline\n"
            "builtin.module(foo)\n"
            "               ^\n");
  EXPECT_NE(roundTrip("builtin.module(cse").find("1:19: error: expected ')'"),
            std::string::npos);
  EXPECT_NE(roundTrip("builtin.module(cse").find("1:15: note: to match this"),
            std::string::npos);
  EXPECT_NE(
      roundTrip("builtin.module(cse))").find("1:20: error: unexpected ')'"),
      std::string::npos);
  EXPECT_NE(roundTrip("cse,,dce").find("1:5: error: expected a pass name"),
            std::string::npos);
  EXPECT_NE(roundTrip("cse dce").find("1:5: error: expected ','"),
            std::string::npos);
  EXPECT_NE(roundTrip("test-options{flag=1").find("1:20: error: expected '}'"),
            std::string::npos);
  EXPECT_NE(roundTrip("cse(dce)").find("'cse' is a pass, not an op name"),
            std::string::npos);
  EXPECT_NE(roundTrip("builtin.module(test-func-log)")
                .find("1:16: error: can't add pass 'test-func-log' restricted "
                      "to 'func.func' on a PassManager intended to run on "
                      "'builtin.module'"),
            std::string::npos);
}

TEST_F(PassManagerTest, PointsAtTheBadOption) {
  std::string error = roundTrip("builtin.module(test-options{flag=1 bogus=2})");
  EXPECT_NE(error.find("1:36: error: no such option 'bogus'; valid options of "
                       "'test-options': flag, count, limit, label"),
            std::string::npos)
      << error;
  error = roundTrip("test-options{limit=-1}");
  EXPECT_NE(error.find("1:14: error: invalid value '-1' for option 'limit': "
                       "expected a non-negative decimal integer"),
            std::string::npos)
      << error;
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

TEST_F(PassManagerTest, ParsesOptionsOfEachType) {
  OptionsPass pass;
  std::string error;
  ASSERT_TRUE(succeeded(pass.setOptions(
      "flag=true count=-9223372036854775808 limit=4294967295 label=x", error)))
      << error;
  EXPECT_TRUE(pass.flag);
  EXPECT_EQ(pass.count.getValue(), INT64_MIN);
  EXPECT_EQ(pass.limit.getValue(), 4294967295u);
  EXPECT_EQ(pass.label.getValue(), "x");

  ASSERT_TRUE(succeeded(pass.setOptions("flag=0 label=\"\"", error)));
  EXPECT_FALSE(pass.flag);
  EXPECT_EQ(pass.label.getValue(), "");
  ASSERT_TRUE(succeeded(pass.setOptions("flag=1", error)));
  EXPECT_TRUE(pass.flag);
  ASSERT_TRUE(succeeded(pass.setOptions("flag=false", error)));
  ASSERT_TRUE(succeeded(pass.setOptions("flag", error)));
  EXPECT_TRUE(pass.flag);
}

TEST_F(PassManagerTest, RejectsBadOptionValues) {
  OptionsPass pass;
  std::string error;
  EXPECT_TRUE(failed(pass.setOptions("flag=yes", error)));
  EXPECT_EQ(error, "invalid value 'yes' for option 'flag': expected 'true', "
                   "'false', '1' or '0'");
  EXPECT_TRUE(failed(pass.setOptions("count=9223372036854775808", error)));
  EXPECT_EQ(error, "invalid value '9223372036854775808' for option 'count': "
                   "expected a decimal integer");
  EXPECT_TRUE(failed(pass.setOptions("count=", error)));
  EXPECT_TRUE(failed(pass.setOptions("limit=4294967296", error)));
  EXPECT_TRUE(failed(pass.setOptions("label=\"open", error)));
  EXPECT_EQ(error, "missing closing '\"' of the value of 'label'");
  EXPECT_TRUE(failed(pass.setOptions("=3", error)));
  EXPECT_TRUE(failed(pass.setOptions("max-iterations=3", error)));
  EXPECT_EQ(error, "no such option 'max-iterations'; valid options of "
                   "'test-options': flag, count, limit, label");

  std::unique_ptr<Pass> cse = createCSEPass();
  EXPECT_TRUE(failed(cse->setOptions("x=1", error)));
  EXPECT_EQ(error, "no such option 'x'; pass 'cse' has no options");
}

TEST_F(PassManagerTest, RegistryIsSortedAndKeepsTheFirstRegistration) {
  std::vector<const PassInfo *> passes = getRegisteredPasses();
  ASSERT_FALSE(passes.empty());
  EXPECT_TRUE(std::is_sorted(passes.begin(), passes.end(),
                             [](const PassInfo *a, const PassInfo *b) {
                               return a->argument < b->argument;
                             }));
  const PassInfo *cse = lookupPassInfo("cse");
  ASSERT_NE(cse, nullptr);
  EXPECT_EQ(cse->description, "Eliminate common sub-expressions");
  registerPass([] { return std::make_unique<LogPass>("cse"); });
  EXPECT_EQ(lookupPassInfo("cse"), cse);
  EXPECT_EQ(lookupPassInfo("no-such-pass"), nullptr);
}

//===----------------------------------------------------------------------===//
// Nesting and running
//===----------------------------------------------------------------------===//

TEST_F(PassManagerTest, NestsRestrictedPassesImplicitly) {
  OpPassManager pm;
  pm.addPass(std::make_unique<FuncLogPass>());
  pm.addPass(std::make_unique<FuncLogPass>());
  pm.addPass(createCSEPass());
  pm.addPass(std::make_unique<FuncLogPass>());
  EXPECT_EQ(pm.printAsTextualPipeline(),
            "builtin.module(func.func(test-func-log,test-func-log),cse,"
            "func.func(test-func-log))");
}

TEST_F(PassManagerTest, RunsPassesInOrderAndNestedPipelinesOnEachOp) {
  OwningOpRef<ModuleOp> module = parse(kTwoFuncs);
  ASSERT_TRUE(module);
  PassManager pm(&ctx);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  ASSERT_TRUE(succeeded(parsePassPipeline(
      "builtin.module(test-log,func.func(test-log,test-func-log),test-log)", pm,
      os)))
      << errors;
  ASSERT_TRUE(succeeded(pm.run(*module)));
  EXPECT_EQ(getRunLog(),
            (std::vector<std::string>{
                "test-log:builtin.module", "test-log:func.func@f",
                "test-func-log:func.func@f", "test-log:func.func@g",
                "test-func-log:func.func@g", "test-log:builtin.module"}));
}

TEST_F(PassManagerTest, RejectsAnAnchorMismatch) {
  OwningOpRef<ModuleOp> module = parse(kTwoFuncs);
  ASSERT_TRUE(module);
  ScopedDiagnosticCollector collector(&ctx);
  PassManager pm(&ctx, "func.func");
  pm.addPass(createCSEPass());
  EXPECT_TRUE(failed(pm.run(*module)));
  ASSERT_EQ(collector.getDiagnostics().size(), 1u);
  EXPECT_EQ(collector.getDiagnostics()[0].str(),
            "can't run 'func.func' pass manager on 'builtin.module' op");

  // In an `any` pipeline there is no op kind to nest a restricted pass on.
  PassManager anyPm(&ctx, "any");
  anyPm.addPass(std::make_unique<FuncLogPass>());
  EXPECT_TRUE(failed(anyPm.run(*module)));
  ASSERT_EQ(collector.getDiagnostics().size(), 2u);
  EXPECT_EQ(collector.getDiagnostics()[1].str(),
            "can't add pass 'test-func-log' restricted to 'func.func' on a "
            "PassManager intended to run on 'any'");
  EXPECT_TRUE(getRunLog().empty());
}

TEST_F(PassManagerTest, AFailingPassStopsThePipeline) {
  OwningOpRef<ModuleOp> module = parse(kTwoFuncs);
  ASSERT_TRUE(module);
  ScopedDiagnosticCollector collector(&ctx);
  PassManager pm(&ctx);
  pm.addPass(std::make_unique<LogPass>());
  pm.addPass(std::make_unique<FailPass>());
  pm.addPass(std::make_unique<LogPass>());
  EXPECT_TRUE(failed(pm.run(*module)));
  EXPECT_EQ(getRunLog(), std::vector<std::string>{"test-log:builtin.module"});
  ASSERT_EQ(collector.getDiagnostics().size(), 1u);
  EXPECT_EQ(collector.getDiagnostics()[0].str(), "failed on purpose");
}

TEST_F(PassManagerTest, VerifiesAfterEachPassWhenEnabled) {
  OwningOpRef<ModuleOp> module = parse(kTwoFuncs);
  ASSERT_TRUE(module);
  {
    ScopedDiagnosticCollector collector(&ctx);
    PassManager pm(&ctx);
    pm.addPass(std::make_unique<BreakPass>());
    pm.addPass(std::make_unique<LogPass>());
    EXPECT_TRUE(failed(pm.run(*module)));
    EXPECT_TRUE(getRunLog().empty());
    ASSERT_FALSE(collector.getDiagnostics().empty());
    EXPECT_EQ(collector.getDiagnostics().back().str(),
              "the IR is invalid after pass 'test-break'");
  }
  PassManager pm(&ctx);
  pm.enableVerifier(false);
  pm.addPass(std::make_unique<LogPass>());
  EXPECT_TRUE(succeeded(pm.run(*module)));
}

//===----------------------------------------------------------------------===//
// Instrumentation
//===----------------------------------------------------------------------===//

TEST_F(PassManagerTest, PrintsIRAfterChangedPassesOnly) {
  OwningOpRef<ModuleOp> module = parse(R"(
func.func private @dead()
func.func @f() {
  return
}
)");
  ASSERT_TRUE(module);
  std::string dumps;
  llvm::raw_string_ostream os(dumps);
  PassManager pm(&ctx);
  PassManager::IRPrinting printing;
  printing.afterAll = true;
  printing.afterChange = true;
  printing.beforePasses = {"symbol-dce"};
  printing.os = &os;
  pm.enableIRPrinting(printing);
  pm.addPass(createCSEPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(std::make_unique<FuncLogPass>());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  EXPECT_EQ(dumps,
            "// -----// IR Dump Before SymbolDCE (symbol-dce) //----- //\n"
            "module {\n"
            "  func.func private @dead()\n"
            "  func.func @f() {\n"
            "    return\n"
            "  }\n"
            "}\n\n"
            "// -----// IR Dump After SymbolDCE (symbol-dce) //----- //\n"
            "module {\n"
            "  func.func @f() {\n"
            "    return\n"
            "  }\n"
            "}\n\n");
}

TEST_F(PassManagerTest, ReportsStatisticsPerPipelineStep) {
  OwningOpRef<ModuleOp> module = parse(kTwoFuncs);
  ASSERT_TRUE(module);
  std::string report;
  llvm::raw_string_ostream os(report);
  PassManager pm(&ctx);
  pm.enableStatistics(os);
  pm.addPass(std::make_unique<FuncLogPass>());
  pm.addPass(createSymbolDCEPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  EXPECT_EQ(report, "===" + std::string(73, '-') + "===\n" +
                        std::string(25, ' ') +
                        "... Pass statistics report ...\n" +
                        "===" + std::string(73, '-') + "===\n" +
                        "'func.func' Pipeline\n"
                        "  test-func-log\n"
                        "    (S) 2 num-runs - Number of runs\n"
                        "SymbolDCE\n"
                        "  (S) 0 num-dce'd - Number of symbols DCE'd\n");
}

TEST_F(PassManagerTest, ReportsTimingAsATree) {
  OwningOpRef<ModuleOp> module = parse(kTwoFuncs);
  ASSERT_TRUE(module);
  std::string report;
  llvm::raw_string_ostream os(report);
  PassManager pm(&ctx);
  pm.enableTiming(os);
  pm.addPass(std::make_unique<FuncLogPass>());
  pm.addPass(createCSEPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  SmallVector<StringRef> lines;
  StringRef(report).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 10u) << report;
  EXPECT_EQ(lines[1].trim(), "... Execution time report ...");
  EXPECT_TRUE(lines[3].starts_with("  Total Execution Time: ")) << report;
  EXPECT_EQ(lines[4], "  ----Wall Time----  ----Name----");
  EXPECT_TRUE(lines[5].ends_with(")  'func.func' Pipeline")) << report;
  EXPECT_TRUE(lines[6].ends_with(")    test-func-log")) << report;
  EXPECT_TRUE(lines[7].ends_with(")  CSE")) << report;
  EXPECT_TRUE(lines[8].ends_with(")  Rest")) << report;
  EXPECT_TRUE(lines[9].ends_with("(100.0%)  Total")) << report;
}

//===- PassManagerOptions.cpp - Pass pipelines from the command line ------===//
//
// Each registered pass is an llvm::cl list, so that a pass given twice runs
// twice and the passes run in the order the flags were given (each
// occurrence remembers its position on the command line). Flag names and
// meanings follow mlir-opt; mlir-opt's `--mlir-` spellings are aliases.
//
//===----------------------------------------------------------------------===//

#include "rewrite/PassManagerOptions.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace onyx;
namespace cl = llvm::cl;

namespace {

/// Reads a pass flag's value (its options) as text, and lists the pass's
/// options under the flag in --help.
class PassFlagParser : public cl::parser<std::string> {
public:
  using cl::parser<std::string>::parser;

  // cl::list calls these through its parser's static type, so hiding the
  // base class's versions is enough.

  size_t getOptionWidth(const cl::Option &flag) const {
    size_t width = 0;
    forEachHelpLine(flag, [&](size_t indent, StringRef text, StringRef) {
      width = std::max(width, indent + text.size());
    });
    return width;
  }

  void printOptionInfo(const cl::Option &flag, size_t globalWidth) const {
    forEachHelpLine(flag, [&](size_t indent, StringRef text, StringRef help) {
      size_t used = indent + text.size();
      llvm::outs().indent(indent) << text;
      llvm::outs().indent(globalWidth > used ? globalWidth - used : 0)
          << " - " << help << '\n';
    });
  }

private:
  /// Calls `fn(indent, text, help)` for the flag's line, then one line per
  /// option of the pass.
  static void
  forEachHelpLine(const cl::Option &flag,
                  llvm::function_ref<void(size_t, StringRef, StringRef)> fn) {
    const PassInfo *info = lookupPassInfo(flag.ArgStr);
    std::unique_ptr<Pass> pass = info->isPipeline() ? nullptr : info->create();
    ArrayRef<PassOptionBase *> options;
    if (pass)
      options = pass->getOptions();
    std::string head = ("--" + flag.ArgStr).str();
    if (!options.empty())
      head += "[=<options>]";
    fn(2, head, flag.HelpStr);
    for (PassOptionBase *option : options) {
      std::string text = (option->getName() + "=<value>").str();
      std::string help =
          (option->getDescription() + " (default: " + option->print() + ")")
              .str();
      fn(6, text, help);
    }
  }
};

using PassFlag = cl::list<std::string, bool, PassFlagParser>;

struct CLOptions {
  cl::OptionCategory passCategory{"Passes"};
  cl::OptionCategory testPassCategory{
      "Test passes (for onyx's own tests; builds with ONYX_INCLUDE_TESTS)"};
  cl::OptionCategory managerCategory{"Pass manager options"};

  std::vector<std::unique_ptr<PassFlag>> passFlags;

  cl::opt<std::string> pipeline{
      "pass-pipeline",
      cl::desc("A pipeline in MLIR's textual form, e.g. "
               "'builtin.module(func.func(canonicalize,cse))'"),
      cl::value_desc("pipeline"), cl::cat(managerCategory)};
  cl::list<std::string> printBefore{
      "print-ir-before",
      cl::desc("Print the IR before each run of these passes"),
      cl::CommaSeparated, cl::value_desc("pass"), cl::cat(managerCategory)};
  cl::alias printBeforeAlias{
      "mlir-print-ir-before", cl::desc("Alias for --print-ir-before"),
      cl::aliasopt(printBefore), cl::NotHidden, cl::cat(managerCategory)};
  cl::list<std::string> printAfter{
      "print-ir-after", cl::desc("Print the IR after each run of these passes"),
      cl::CommaSeparated, cl::value_desc("pass"), cl::cat(managerCategory)};
  cl::alias printAfterAlias{
      "mlir-print-ir-after", cl::desc("Alias for --print-ir-after"),
      cl::aliasopt(printAfter), cl::NotHidden, cl::cat(managerCategory)};
  cl::opt<bool> printAfterAll{"print-ir-after-all",
                              cl::desc("Print the IR after every pass"),
                              cl::cat(managerCategory)};
  cl::alias printAfterAllAlias{
      "mlir-print-ir-after-all", cl::desc("Alias for --print-ir-after-all"),
      cl::aliasopt(printAfterAll), cl::NotHidden, cl::cat(managerCategory)};
  cl::opt<bool> printAfterChange{
      "print-ir-after-change",
      cl::desc("Print the IR after a pass only if the pass changed it (alone: "
               "after every pass that changed it)"),
      cl::cat(managerCategory)};
  cl::alias printAfterChangeAlias{"mlir-print-ir-after-change",
                                  cl::desc("Alias for --print-ir-after-change"),
                                  cl::aliasopt(printAfterChange), cl::NotHidden,
                                  cl::cat(managerCategory)};
  cl::opt<bool> timing{"timing",
                       cl::desc("Print the wall time of each pass at the end"),
                       cl::cat(managerCategory)};
  cl::alias timingAlias{"mlir-timing", cl::desc("Alias for --timing"),
                        cl::aliasopt(timing), cl::NotHidden,
                        cl::cat(managerCategory)};
  cl::opt<bool> statistics{"pass-statistics",
                           cl::desc("Print the statistics of each pass at the "
                                    "end"),
                           cl::cat(managerCategory)};
  cl::alias statisticsAlias{
      "mlir-pass-statistics", cl::desc("Alias for --pass-statistics"),
      cl::aliasopt(statistics), cl::NotHidden, cl::cat(managerCategory)};

  CLOptions() {
    for (const PassInfo *info : getRegisteredPasses())
      passFlags.push_back(std::make_unique<PassFlag>(
          StringRef(info->argument), cl::desc(info->description),
          cl::ValueOptional,
          cl::cat(info->isTestPass ? testPassCategory : passCategory),
          info->isTestPass ? cl::Hidden : cl::NotHidden));
  }
};

} // namespace

static std::unique_ptr<CLOptions> &getCLOptions() {
  static std::unique_ptr<CLOptions> options;
  return options;
}

void onyx::registerPassManagerCLOptions() {
  if (!getCLOptions())
    getCLOptions() = std::make_unique<CLOptions>();
}

std::vector<const cl::OptionCategory *> onyx::getPassManagerCLCategories() {
  const CLOptions *options = getCLOptions().get();
  if (!options)
    return {};
  return {&options->passCategory, &options->testPassCategory,
          &options->managerCategory};
}

static LogicalResult reportError(llvm::raw_ostream &os,
                                 const llvm::Twine &message) {
  llvm::WithColor::error(os) << message << '\n';
  return failure();
}

LogicalResult
onyx::applyPassManagerCLOptions(PassManager &pm,
                                const OpPrintingFlags &printingFlags,
                                llvm::raw_ostream &errorStream) {
  const CLOptions *options = getCLOptions().get();
  if (!options)
    return success();

  struct PassFlagUse {
    unsigned position;
    const PassInfo *info;
    StringRef options;
  };
  std::vector<PassFlagUse> uses;
  for (const std::unique_ptr<PassFlag> &flag : options->passFlags)
    for (unsigned i = 0, e = flag->size(); i != e; ++i)
      uses.push_back(
          {flag->getPosition(i), lookupPassInfo(flag->ArgStr), (*flag)[i]});
  llvm::sort(uses, [](const PassFlagUse &a, const PassFlagUse &b) {
    return a.position < b.position;
  });

  if (!options->pipeline.empty()) {
    if (!uses.empty())
      return reportError(errorStream,
                         "--pass-pipeline can't be combined with pass flags "
                         "such as --" +
                             uses.front().info->argument);
    if (failed(parsePassPipeline(options->pipeline, pm, errorStream)))
      return failure();
  }
  for (const PassFlagUse &use : uses) {
    if (use.info->isPipeline()) {
      if (!use.options.empty())
        return reportError(errorStream, "--" + use.info->argument +
                                            ": the pipeline takes no options");
      use.info->buildPipeline(pm);
      continue;
    }
    std::unique_ptr<Pass> pass = use.info->create();
    std::string error;
    if (failed(pass->setOptions(use.options, error)))
      return reportError(errorStream, "--" + use.info->argument + "=" +
                                          use.options + ": " + error);
    pm.addPass(std::move(pass));
  }

  for (const cl::list<std::string> *list :
       {std::addressof(options->printBefore),
        std::addressof(options->printAfter)})
    for (const std::string &name : *list)
      if (!lookupPassInfo(name))
        return reportError(errorStream, "--" + list->ArgStr + ": '" + name +
                                            "' does not refer to a registered "
                                            "pass");
  if (!options->printBefore.empty() || !options->printAfter.empty() ||
      options->printAfterAll || options->printAfterChange) {
    PassManager::IRPrinting printing;
    printing.beforePasses.assign(options->printBefore.begin(),
                                 options->printBefore.end());
    printing.afterPasses.assign(options->printAfter.begin(),
                                options->printAfter.end());
    printing.afterAll = options->printAfterAll;
    printing.afterChange = options->printAfterChange;
    printing.os = &llvm::errs();
    printing.printingFlags = printingFlags;
    pm.enableIRPrinting(std::move(printing));
  }
  if (options->timing)
    pm.enableTiming(llvm::errs());
  if (options->statistics)
    pm.enableStatistics(llvm::errs());
  return success();
}

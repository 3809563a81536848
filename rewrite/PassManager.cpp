//===- PassManager.cpp - Pipelines, their text and their instrumentation --===//
//
// A pipeline is a list of steps; a step is a pass or a nested pipeline that
// runs on each op of one kind directly inside the current op. Pipelines run
// sequentially, so a nested pass instance is reused for every op it runs on
// and its statistics add up naturally.
//
// The instrumentation (verification, IR dumps, timing, statistics) lives in
// the runner rather than in the passes, so every pass gets it for free.
//
//===----------------------------------------------------------------------===//

#include "rewrite/PassManager.h"
#include "rewrite/PassDetail.h"

#include "ir/Region.h"
#include "ir/Verifier.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <chrono>

using namespace onyx;

//===----------------------------------------------------------------------===//
// OpPassManager
//===----------------------------------------------------------------------===//

namespace {
/// One step of a pipeline: a pass, or a pipeline nested on an op kind.
struct PipelineStep {
  std::unique_ptr<Pass> pass;
  std::unique_ptr<OpPassManager> nested;
};
} // namespace

struct OpPassManager::Impl {
  std::string opName;
  std::vector<PipelineStep> steps;
  /// Passes that could not be added; reported when the pipeline runs, since
  /// addPass has no way to fail.
  std::vector<std::string> errors;
};

/// The message for a pass restricted to another op kind than `pmOpName`, in
/// mlir-opt's words.
static std::string getAnchorMismatchMessage(const Pass &pass,
                                            StringRef pmOpName) {
  return ("can't add pass '" + pass.getArgument() + "' restricted to '" +
          *pass.getOpName() + "' on a PassManager intended to run on '" +
          pmOpName + "'")
      .str();
}

OpPassManager::OpPassManager(StringRef opName)
    : impl(std::make_unique<Impl>()) {
  impl->opName = opName.str();
}
OpPassManager::OpPassManager(OpPassManager &&) = default;
OpPassManager &OpPassManager::operator=(OpPassManager &&) = default;
OpPassManager::~OpPassManager() = default;

StringRef OpPassManager::getOpName() const { return impl->opName; }

bool OpPassManager::empty() const { return impl->steps.empty(); }

void OpPassManager::addPass(std::unique_ptr<Pass> pass) {
  std::optional<StringRef> passOpName = pass->getOpName();
  if (!passOpName || *passOpName == impl->opName) {
    impl->steps.push_back({std::move(pass), nullptr});
    return;
  }
  // Which ops an `any` pipeline runs on is only known when it runs, so there
  // is no op kind to nest under.
  if (impl->opName == "any") {
    impl->errors.push_back(getAnchorMismatchMessage(*pass, impl->opName));
    return;
  }
  // Consecutive passes on one op kind share a nested pipeline, so that
  // each op is visited once for all of them.
  std::vector<PipelineStep> &steps = impl->steps;
  if (!steps.empty() && steps.back().nested &&
      steps.back().nested->getOpName() == *passOpName) {
    steps.back().nested->addPass(std::move(pass));
    return;
  }
  nest(*passOpName).addPass(std::move(pass));
}

OpPassManager &OpPassManager::nest(StringRef opName) {
  impl->steps.push_back({nullptr, std::make_unique<OpPassManager>(opName)});
  return *impl->steps.back().nested;
}

std::string OpPassManager::printAsTextualPipeline() const {
  std::string result = impl->opName + "(";
  llvm::raw_string_ostream os(result);
  llvm::interleave(
      impl->steps, os,
      [&](const PipelineStep &step) {
        os << (step.pass ? step.pass->printAsTextualPipeline()
                         : step.nested->printAsTextualPipeline());
      },
      ",");
  os << ')';
  return result;
}

//===----------------------------------------------------------------------===//
// Pipeline text
//===----------------------------------------------------------------------===//

namespace {

/// Parses MLIR's pipeline grammar:
///   pipeline ::= step (',' step)*
///   step     ::= pass-name ('{' options '}')? | op-name '(' pipeline? ')'
/// Errors are printed with the pipeline text and a caret under the problem.
class PipelineParser {
public:
  PipelineParser(StringRef text, llvm::raw_ostream &errorStream)
      : text(text), errorStream(errorStream) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(text, "<pass-pipeline>",
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
  }

  LogicalResult parse(OpPassManager &pm);

private:
  /// Parses steps separated by commas up to the end of the text, or up to
  /// the ')' matching the '(' at `openParen`, which is left unconsumed.
  LogicalResult parseSteps(OpPassManager &pm, std::optional<size_t> openParen);
  LogicalResult parseStep(OpPassManager &pm);
  /// Parses `(pipeline?)` at pos into `pm`.
  LogicalResult parseParenthesized(OpPassManager &pm);

  StringRef lexName();
  void skipSpaces() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool atEnd() const { return pos == text.size(); }
  bool peek(char c) const { return pos < text.size() && text[pos] == c; }

  LogicalResult emitError(size_t offset, const llvm::Twine &message,
                          std::optional<size_t> noteOffset = std::nullopt,
                          const llvm::Twine &note = {});

  StringRef text;
  size_t pos = 0;
  llvm::raw_ostream &errorStream;
  llvm::SourceMgr sourceMgr;
};

} // namespace

LogicalResult PipelineParser::emitError(size_t offset,
                                        const llvm::Twine &message,
                                        std::optional<size_t> noteOffset,
                                        const llvm::Twine &note) {
  auto locAt = [&](size_t at) {
    return llvm::SMLoc::getFromPointer(text.data() + at);
  };
  sourceMgr.PrintMessage(errorStream, locAt(offset), llvm::SourceMgr::DK_Error,
                         message);
  if (noteOffset)
    sourceMgr.PrintMessage(errorStream, locAt(*noteOffset),
                           llvm::SourceMgr::DK_Note, note);
  return failure();
}

StringRef PipelineParser::lexName() {
  size_t start = pos;
  while (pos < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[pos])) ||
          StringRef("_-.$").contains(text[pos])))
    ++pos;
  return text.slice(start, pos);
}

LogicalResult PipelineParser::parse(OpPassManager &pm) {
  skipSpaces();
  if (atEnd())
    return success();

  // `anchor(...)` where anchor is pm's op kind fills pm itself; anything
  // else is a list of steps added to pm.
  size_t start = pos;
  StringRef name = lexName();
  skipSpaces();
  if (name != pm.getOpName() || !peek('(')) {
    pos = start;
    return parseSteps(pm, std::nullopt);
  }
  if (failed(parseParenthesized(pm)))
    return failure();
  skipSpaces();
  if (peek(')'))
    return emitError(pos, "unexpected ')' without a matching '('");
  if (!atEnd())
    return emitError(pos, "expected the end of the pipeline after '" + name +
                              "(...)'");
  return success();
}

LogicalResult PipelineParser::parseParenthesized(OpPassManager &pm) {
  size_t openParen = pos++;
  skipSpaces();
  if (!peek(')') && failed(parseSteps(pm, openParen)))
    return failure();
  ++pos;
  return success();
}

LogicalResult PipelineParser::parseSteps(OpPassManager &pm,
                                         std::optional<size_t> openParen) {
  while (true) {
    if (failed(parseStep(pm)))
      return failure();
    skipSpaces();
    if (peek(',')) {
      ++pos;
      continue;
    }
    if (openParen) {
      if (peek(')'))
        return success();
      return emitError(pos, atEnd() ? "expected ')'" : "expected ',' or ')'",
                       *openParen, "to match this '('");
    }
    if (atEnd())
      return success();
    if (peek(')'))
      return emitError(pos, "unexpected ')' without a matching '('");
    return emitError(pos, "expected ','");
  }
}

LogicalResult PipelineParser::parseStep(OpPassManager &pm) {
  skipSpaces();
  size_t nameStart = pos;
  StringRef name = lexName();
  if (name.empty())
    return emitError(nameStart, "expected a pass name, or an op name and a "
                                "nested pipeline in '(...)'");
  skipSpaces();

  if (peek('(')) {
    if (lookupPassInfo(name))
      return emitError(nameStart, "'" + name +
                                      "' is a pass, not an op name; pass "
                                      "options go in '{...}'");
    return parseParenthesized(pm.nest(name));
  }

  const PassInfo *info = lookupPassInfo(name);
  if (!info)
    return emitError(nameStart, "'" + name +
                                    "' does not refer to a registered pass "
                                    "or pass pipeline");
  if (info->isPipeline()) {
    if (peek('{'))
      return emitError(pos, "pipeline '" + name + "' takes no options");
    info->buildPipeline(pm);
    return success();
  }
  std::unique_ptr<Pass> pass = info->create();

  if (peek('{')) {
    // The options end at the matching '}'; braces inside quotes or nested
    // braces belong to option values.
    size_t openBrace = pos;
    unsigned depth = 0;
    bool inQuotes = false;
    for (; pos < text.size(); ++pos) {
      char c = text[pos];
      if (c == '"')
        inQuotes = !inQuotes;
      else if (!inQuotes && c == '{')
        ++depth;
      else if (!inQuotes && c == '}' && --depth == 0)
        break;
    }
    if (atEnd())
      return emitError(pos, "expected '}'", openBrace, "to match this '{'");
    StringRef options = text.slice(openBrace + 1, pos);
    ++pos;
    std::string error;
    size_t errorOffset = 0;
    if (failed(detail::setPassOptions(*pass, options, error, errorOffset)))
      return emitError(openBrace + 1 + errorOffset, error);
  }

  if (pass->getOpName() && *pass->getOpName() != pm.getOpName())
    return emitError(nameStart,
                     getAnchorMismatchMessage(*pass, pm.getOpName()));
  pm.addPass(std::move(pass));
  return success();
}

LogicalResult onyx::parsePassPipeline(StringRef text, OpPassManager &pm,
                                      llvm::raw_ostream &errorStream) {
  return PipelineParser(text, errorStream).parse(pm);
}

//===----------------------------------------------------------------------===//
// Instrumentation
//===----------------------------------------------------------------------===//

namespace {

/// Wall time spent in one pass or nested pipeline, summed over every op it
/// ran on, with its children in the order they first ran.
struct TimingNode {
  std::string name;
  std::chrono::steady_clock::duration time{};
  std::vector<std::unique_ptr<TimingNode>> children;
  llvm::DenseMap<const void *, TimingNode *> childByKey;

  TimingNode *getChild(const void *key, const std::string &childName) {
    TimingNode *&child = childByKey[key];
    if (!child) {
      children.push_back(std::make_unique<TimingNode>());
      child = children.back().get();
      child->name = childName;
    }
    return child;
  }
};

/// Adds the time from its construction to its destruction to `node`.
class ScopedTimer {
public:
  explicit ScopedTimer(TimingNode *node)
      : node(node), start(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    if (node)
      node->time += std::chrono::steady_clock::now() - start;
  }

private:
  TimingNode *node;
  std::chrono::steady_clock::time_point start;
};

} // namespace

/// What the PassManager adds around each pass, and the runner that adds it.
/// It is a member of PassManager so that it may set a pass's op and read its
/// failure flag.
struct PassManager::Instrumentation {
  bool verifyEach = true;
  std::optional<IRPrinting> printing;
  llvm::raw_ostream *timingStream = nullptr;
  llvm::raw_ostream *statisticsStream = nullptr;
  bool initialized = false;

  /// Runs `pm` on `op`, adding times under `timing` when timing is on.
  LogicalResult runPipeline(const OpPassManager &pm, Operation *op,
                            TimingNode *timing);
  LogicalResult runNested(const OpPassManager &nested, Operation *op,
                          TimingNode *timing);
  LogicalResult runPass(Pass &pass, Operation *op, TimingNode *timing);
  void printIR(StringRef when, Pass &pass, Operation *op);
};

PassManager::PassManager(Context *ctx, StringRef opName)
    : OpPassManager(opName), context(ctx),
      instrumentation(std::make_unique<Instrumentation>()) {}

PassManager::~PassManager() = default;

void PassManager::enableVerifier(bool enabled) {
  instrumentation->verifyEach = enabled;
}

void PassManager::enableIRPrinting(IRPrinting config) {
  if (!config.os)
    config.os = &llvm::errs();
  instrumentation->printing = std::move(config);
}

void PassManager::enableTiming(llvm::raw_ostream &os) {
  instrumentation->timingStream = &os;
}

void PassManager::enableStatistics(llvm::raw_ostream &os) {
  instrumentation->statisticsStream = &os;
}

/// A hash of everything about `op` and the IR nested in it that a pass can
/// change: identities, names, attributes, locations, operands, result and
/// argument types and the block structure. Cheaper than printing the IR.
static llvm::hash_code getFingerprint(Operation *op) {
  llvm::hash_code hash = llvm::hash_value(0);
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    hash = llvm::hash_combine(
        hash, nested, nested->getInfo(), nested->getAttrDictionary().getImpl(),
        static_cast<Attribute>(nested->getLoc()).getImpl());
    for (Value operand : nested->getOperands())
      hash = llvm::hash_combine(hash, operand.getImpl());
    for (Value result : nested->getResults())
      hash = llvm::hash_combine(hash, result.getType().getImpl());
    for (Region &region : nested->getRegions()) {
      hash = llvm::hash_combine(hash, &region);
      for (Block &block : region) {
        hash = llvm::hash_combine(hash, &block);
        for (BlockArgument arg : block.getArguments())
          hash =
              llvm::hash_combine(hash, arg.getImpl(), arg.getType().getImpl());
      }
    }
  });
  return hash;
}

LogicalResult PassManager::Instrumentation::runPipeline(const OpPassManager &pm,
                                                        Operation *op,
                                                        TimingNode *timing) {
  for (const PipelineStep &step : pm.getImpl().steps) {
    if (step.pass) {
      TimingNode *child =
          timing ? timing->getChild(step.pass.get(), step.pass->getName().str())
                 : nullptr;
      if (failed(runPass(*step.pass, op, child)))
        return failure();
      continue;
    }
    TimingNode *child =
        timing ? timing->getChild(
                     step.nested.get(),
                     ("'" + step.nested->getOpName() + "' Pipeline").str())
               : nullptr;
    if (failed(runNested(*step.nested, op, child)))
      return failure();
  }
  return success();
}

LogicalResult
PassManager::Instrumentation::runNested(const OpPassManager &nested,
                                        Operation *op, TimingNode *timing) {
  ScopedTimer timer(timing);
  StringRef opName = nested.getOpName();
  bool anyOp = opName == "any";
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &child : llvm::make_early_inc_range(block))
        if (anyOp || child.getName().getStringRef() == opName)
          if (failed(runPipeline(nested, &child, timing)))
            return failure();
  return success();
}

void PassManager::Instrumentation::printIR(StringRef when, Pass &pass,
                                           Operation *op) {
  llvm::raw_ostream &os = *printing->os;
  os << "// -----// IR Dump " << when << ' ' << pass.getName() << " ("
     << pass.getArgument() << ") //----- //\n";
  // The printed op ends with a newline; one more leaves the blank line that
  // mlir-opt leaves between dumps.
  op->print(os, printing->printingFlags);
  os << '\n';
  os.flush();
}

LogicalResult PassManager::Instrumentation::runPass(Pass &pass, Operation *op,
                                                    TimingNode *timing) {
  bool printBefore = false, printAfter = false;
  if (printing) {
    StringRef argument = pass.getArgument();
    printBefore = llvm::is_contained(printing->beforePasses, argument);
    // After-change on its own means "after every pass that changed the IR".
    printAfter = printing->afterAll ||
                 llvm::is_contained(printing->afterPasses, argument) ||
                 (printing->afterChange && printing->afterPasses.empty());
  }
  std::optional<llvm::hash_code> fingerprint;
  if (printAfter && printing->afterChange)
    fingerprint = getFingerprint(op);
  if (printBefore)
    printIR("Before", pass, op);

  bool passFailed;
  {
    // Verification is part of the pass's time, as in mlir-opt.
    ScopedTimer timer(timing);
    pass.op = op;
    pass.failed = false;
    pass.runOnOperation();
    passFailed = pass.failed;
    if (!passFailed && verifyEach && failed(verify(op))) {
      op->emitError() << "the IR is invalid after pass '" << pass.getArgument()
                      << "'";
      passFailed = true;
    }
  }
  if (passFailed)
    return failure();
  if (printAfter && (!fingerprint || *fingerprint != getFingerprint(op)))
    printIR("After", pass, op);
  return success();
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

static void printReportHeader(llvm::raw_ostream &os, StringRef title) {
  std::string rule = "===" + std::string(73, '-') + "===";
  os << rule << '\n';
  os.indent((80 - title.size()) / 2) << title << '\n';
  os << rule << '\n';
}

static double toSeconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// Prints `node`'s children and their subtrees, one line each, in the
/// layout of mlir-opt's --mlir-timing.
static void printTimingTree(llvm::raw_ostream &os, const TimingNode &node,
                            double total, unsigned depth) {
  for (const auto &child : node.children) {
    double seconds = toSeconds(child->time);
    os << llvm::format("    %.4f (%5.1f%%)  ", seconds,
                       total > 0 ? 100.0 * seconds / total : 0.0);
    os.indent(2 * depth) << child->name << '\n';
    printTimingTree(os, *child, total, depth + 1);
  }
}

static void printTimingReport(llvm::raw_ostream &os, const TimingNode &root) {
  double total = toSeconds(root.time);
  printReportHeader(os, "... Execution time report ...");
  os << llvm::format("  Total Execution Time: %.4f seconds\n\n", total);
  os << "  ----Wall Time----  ----Name----\n";
  printTimingTree(os, root, total, 0);
  // What the pass manager spent outside of passes: walking to nested ops
  // and the instrumentation itself.
  std::chrono::steady_clock::duration inPasses{};
  for (const auto &child : root.children)
    inPasses += child->time;
  double rest = toSeconds(root.time - inPasses);
  os << llvm::format("    %.4f (%5.1f%%)  Rest\n", rest,
                     total > 0 ? 100.0 * rest / total : 0.0);
  os << llvm::format("    %.4f (%5.1f%%)  Total\n", total, 100.0);
  os.flush();
}

static void printStatistics(llvm::raw_ostream &os, const OpPassManager &pm,
                            unsigned depth) {
  for (const PipelineStep &step : pm.getImpl().steps) {
    if (step.nested) {
      os.indent(2 * depth) << "'" << step.nested->getOpName() << "' Pipeline\n";
      printStatistics(os, *step.nested, depth + 1);
      continue;
    }
    os.indent(2 * depth) << step.pass->getName() << '\n';
    // Values are right-aligned within a pass, as mlir-opt does.
    size_t width = 0;
    for (PassStatistic *statistic : step.pass->getStatistics())
      width = std::max(width, std::to_string(statistic->getValue()).size());
    for (PassStatistic *statistic : step.pass->getStatistics()) {
      os.indent(2 * depth + 2) << "(S) ";
      os << llvm::right_justify(std::to_string(statistic->getValue()), width)
         << ' ' << statistic->getName() << " - " << statistic->getDescription()
         << '\n';
    }
  }
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// Initializes every pass of `pm` and its nested pipelines.
static LogicalResult initializePasses(const OpPassManager &pm, Context *ctx) {
  for (const PipelineStep &step : pm.getImpl().steps) {
    if (failed(step.pass ? step.pass->initialize(ctx)
                         : initializePasses(*step.nested, ctx)))
      return failure();
  }
  return success();
}

/// Reports the passes that addPass could not place, anywhere in `pm`.
static LogicalResult checkPipeline(const OpPassManager &pm, Operation *op) {
  LogicalResult result = success();
  for (const std::string &error : pm.getImpl().errors) {
    op->emitError() << error;
    result = failure();
  }
  for (const PipelineStep &step : pm.getImpl().steps)
    if (step.nested && failed(checkPipeline(*step.nested, op)))
      result = failure();
  return result;
}

LogicalResult PassManager::run(Operation *op) {
  StringRef opName = getOpName();
  if (opName != "any" && op->getName().getStringRef() != opName)
    return op->emitError() << "can't run '" << opName << "' pass manager on '"
                           << op->getName().getStringRef() << "' op";
  if (failed(checkPipeline(*this, op)))
    return failure();
  if (!instrumentation->initialized) {
    if (failed(initializePasses(*this, context)))
      return failure();
    instrumentation->initialized = true;
  }

  std::optional<TimingNode> timingRoot;
  if (instrumentation->timingStream)
    timingRoot.emplace();
  LogicalResult result = failure();
  {
    ScopedTimer timer(timingRoot ? &*timingRoot : nullptr);
    result = instrumentation->runPipeline(*this, op,
                                          timingRoot ? &*timingRoot : nullptr);
  }

  if (llvm::raw_ostream *os = instrumentation->statisticsStream) {
    printReportHeader(*os, "... Pass statistics report ...");
    printStatistics(*os, *this, 0);
    os->flush();
  }
  if (timingRoot)
    printTimingReport(*instrumentation->timingStream, *timingRoot);
  return result;
}

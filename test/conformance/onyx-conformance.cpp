//===- onyx-conformance.cpp - ONNX node tests on a backend ----------------===//
//
// onyx-conformance DIR --set-name=NAME --expectations=FILE
//     [--backend=ref|vulkan] [--ref-expectations=FILE]
//     [--update-expectations] [--filter=REGEX] [--timeout=S]
//     [--cases-per-child=N] [--verbose]
//
// Runs every case directory of DIR (an ONNX backend node test: model.onnx
// and test_data_set_*/) through import, canonicalization and the reference
// backend, or lowering and a Vulkan device (with the validation layer on),
// in child processes, and prints a summary by status, reason and op. Cases
// listed in the expectations file as NAME/CASE must pass: any that does
// not makes the exit status 1. Cases that pass without being listed are
// named, to be added with --update-expectations.
//
// One child runs cases until it dies (or until it has run
// --cases-per-child of them), so that what is costly to set up (a Vulkan
// device and the shader compiler) is set up
// once, not per case, and a fork (slow in a sanitizer build, whose shadow
// memory and stack depot every child copies) is paid once. Each data set
// runs in a fresh Context all the same. In a LeakSanitizer build the child
// looks for leaks after every case.
//
//===----------------------------------------------------------------------===//

#include "test/conformance/CaseRunner.h"
#include "test/conformance/Expectations.h"
#include "test/conformance/Sandbox.h"
#include "test/conformance/TargetScope.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <map>

using namespace onyx;
using namespace onyx::conformance;
namespace cl = llvm::cl;

/// The exit status that tells ctest the test was skipped.
static constexpr int kSkipped = 77;

static std::string getExpectationsHeader(Backend backend) {
  bool ref = backend == Backend::Reference;
  return fmt::format(
      "# Conformance cases that must pass on the {} backend, as\n"
      "# SET/CASE. Written by `onyx-conformance --update-expectations`;\n"
      "# a listed case that fails breaks the conformance-{}-* tests.\n",
      ref ? "reference" : "Vulkan", ref ? "ref" : "vulkan");
}

namespace {

struct Options {
  std::string root;
  std::string setName;
  Backend backend = Backend::Reference;
  std::string expectationsPath;
  std::string refExpectationsPath;
  bool updateExpectations = false;
  std::string filter;
  unsigned timeoutSeconds = 60;
  unsigned casesPerChild = 0;
  bool leakForTesting = false;
  onnx::Tolerance tolerance;
  bool verbose = false;
};

struct Case {
  std::string name;
  std::string dir;
  CaseInfo info;
  CaseResult result;
};

/// Pass / fail / unsupported counts.
struct Counts {
  unsigned pass = 0, fail = 0, unsupported = 0;
  void add(Status status) {
    (status == Status::Pass   ? pass
     : status == Status::Fail ? fail
                              : unsupported)++;
  }
};

} // namespace

static Options parseCommandLine(int argc, char **argv) {
  static cl::OptionCategory category("onyx-conformance options");
  static cl::opt<std::string> root(cl::Positional, cl::Required,
                                   cl::desc("<directory of test cases>"),
                                   cl::cat(category));
  static cl::opt<std::string> setName(
      "set-name", cl::Required,
      cl::desc("The set's name in the expectations file"), cl::cat(category));
  static cl::opt<Backend> backend(
      "backend", cl::desc("Where to run the cases (default: ref)"),
      cl::values(clEnumValN(Backend::Reference, "ref",
                            "the reference evaluator on the CPU"),
                 clEnumValN(Backend::Vulkan, "vulkan",
                            "lowered, on a Vulkan device, with validation")),
      cl::init(Backend::Reference), cl::cat(category));
  static cl::opt<std::string> expectations(
      "expectations", cl::Required,
      cl::desc("The file listing the cases that must pass"), cl::cat(category));
  static cl::opt<std::string> refExpectations(
      "ref-expectations",
      cl::desc("With --backend=vulkan: the reference backend's expectations; "
               "the summary lists the cases they name that fail here"),
      cl::value_desc("file"), cl::cat(category));
  static cl::opt<bool> update(
      "update-expectations",
      cl::desc("Rewrite this set's lines of the expectations file with the "
               "cases that pass now"),
      cl::cat(category));
  static cl::opt<std::string> filter(
      "filter", cl::desc("Only run the cases whose name matches"),
      cl::value_desc("regex"), cl::cat(category));
  static cl::opt<unsigned> timeout(
      "timeout", cl::desc("Seconds a case may run before it fails"),
      cl::init(60), cl::cat(category));
  static cl::opt<unsigned> casesPerChild(
      "cases-per-child",
      cl::desc("Cases a child process runs before the next one is forked "
               "(default 0: until it dies; 1 isolates every case)"),
      cl::init(0), cl::cat(category));
  static cl::opt<bool> leakForTesting(
      "leak-for-testing", cl::Hidden,
      cl::desc("Leak 64 bytes in every case (tests that a sanitizer build's "
               "leak check sees what a case leaks)"),
      cl::cat(category));
  static cl::opt<double> rtol("rtol", cl::desc("Relative tolerance"),
                              cl::init(onnx::Tolerance().rtol),
                              cl::cat(category));
  static cl::opt<double> atol("atol", cl::desc("Absolute tolerance"),
                              cl::init(onnx::Tolerance().atol),
                              cl::cat(category));
  static cl::opt<bool> verbose("verbose", cl::desc("Print every case's result"),
                               cl::cat(category));
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv, "Runs ONNX backend node tests on an onyx backend\n");

  Options options;
  options.root = root;
  options.setName = setName;
  options.backend = backend;
  options.expectationsPath = expectations;
  options.refExpectationsPath = refExpectations;
  options.updateExpectations = update;
  options.filter = filter;
  options.timeoutSeconds = timeout;
  options.casesPerChild = casesPerChild;
  options.leakForTesting = leakForTesting;
  options.tolerance = {rtol, atol};
  options.verbose = verbose;
  return options;
}

static void reportError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "onyx-conformance") << message << '\n';
}

/// The case directories (those holding a model.onnx) of `root`, sorted.
static std::vector<Case> findCases(StringRef root, const llvm::Regex *filter) {
  std::vector<Case> cases;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(root, ec), end; it != end && !ec;
       it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    if (filter && !filter->match(name))
      continue;
    llvm::SmallString<256> model(it->path());
    llvm::sys::path::append(model, "model.onnx");
    if (llvm::sys::fs::exists(model))
      cases.push_back({name.str(), it->path(), {}, {}});
  }
  llvm::sort(cases,
             [](const Case &a, const Case &b) { return a.name < b.name; });
  return cases;
}

static StringRef getStatusName(Status status) {
  switch (status) {
  case Status::Pass:
    return "PASS";
  case Status::Fail:
    return "FAIL";
  case Status::Unsupported:
    return "UNSUPPORTED";
  }
  llvm_unreachable("unknown status");
}

/// The first line of `detail` (with the next one if it ends in a colon:
/// `GLSL compilation failed:` says little alone), shortened to fit a
/// summary line.
static std::string firstLine(StringRef detail) {
  auto [first, rest] = detail.split('\n');
  std::string joined = first.str();
  if (first.ends_with(":") && !rest.empty()) {
    joined += ' ';
    joined += rest.split('\n').first.trim();
  }
  StringRef line = joined;
  return line.size() > 160 ? (line.take_front(157) + "...").str() : line.str();
}

/// Where --leak-for-testing drops the only pointer to what it allocates.
static void *volatile leakSink;

/// Whether all ops and element types of the case are in onyx's target.
static bool isInScope(const CaseInfo &info) {
  return !info.ops.empty() && llvm::all_of(info.ops, isTargetOp) &&
         llvm::all_of(info.elemTypes, isTargetElemType);
}

/// The cases that must pass on this backend, by set name and case name:
/// on the reference backend those of the target (all ops in the op list,
/// all element types supported); on Vulkan those that pass on the
/// reference backend, if its expectations were given.
static std::function<bool(const Case &)> getTarget(const Options &options,
                                                   std::string &description) {
  if (options.backend == Backend::Reference ||
      options.refExpectationsPath.empty()) {
    description = "in the target (all ops in the op list, all element types "
                  "supported)";
    return [](const Case &c) { return isInScope(c.info); };
  }
  description = "passing on the reference backend";
  std::string error;
  FailureOr<std::set<std::string>> refPassing =
      readExpectations(options.refExpectationsPath, error);
  if (failed(refPassing)) {
    reportError(error);
    return [](const Case &) { return false; };
  }
  return [passing = std::move(*refPassing), prefix = options.setName + "/"](
             const Case &c) { return passing.count(prefix + c.name) != 0; };
}

static void printSummary(const Options &options, ArrayRef<Case> cases,
                         double seconds) {
  llvm::raw_ostream &os = llvm::outs();
  Counts total;
  std::map<std::string, unsigned> byReason;
  std::map<std::string, Counts> byOp;
  for (const Case &c : cases) {
    total.add(c.result.status);
    if (c.result.status != Status::Pass)
      ++byReason[(getStatusName(c.result.status) + ": " + c.result.reason)
                     .str()];
    for (const std::string &op : c.info.ops)
      byOp[op].add(c.result.status);
  }
  os << "\nby reason:\n";
  for (const auto &[reason, count] : byReason)
    os << fmt::format("  {:<64} {:>5}\n", reason, count);
  os << "\nby op (pass / fail / unsupported; a case counts for each of its "
        "ops):\n";
  for (const auto &[op, counts] : byOp)
    os << fmt::format("  {:<28} {:>4} / {:>4} / {:>4}{}\n", op, counts.pass,
                      counts.fail, counts.unsupported,
                      isTargetOp(op) ? "" : "   (not in the op list)");

  std::string targetDescription;
  std::function<bool(const Case &)> inTarget =
      getTarget(options, targetDescription);
  os << "\n" << targetDescription << " but not passing:\n";
  for (const Case &c : cases)
    if (c.result.status != Status::Pass && inTarget(c))
      os << "  " << c.name << ": " << c.result.reason << ": "
         << firstLine(c.result.detail) << '\n';

  // Training-mode cases (random masks, batch statistics) are outside what
  // onyx means to compute; they are counted, not targeted.
  auto isTraining = [](const Case &c) {
    return StringRef(c.name).contains("training");
  };
  auto isOnlyWithConstants = [](const Case &c) {
    return c.result.status == Status::Pass && c.result.shapeInputsAsConstants;
  };
  unsigned withConstants = llvm::count_if(cases, isOnlyWithConstants);
  if (withConstants) {
    os << "\npassed only with shape inputs made constants (not counted "
          "toward the target):\n";
    for (const Case &c : cases)
      if (isOnlyWithConstants(c))
        os << "  " << c.name << '\n';
  }
  unsigned targeted = 0, targetPassed = 0, training = 0;
  for (const Case &c : cases) {
    if (!inTarget(c))
      continue;
    if (isTraining(c)) {
      ++training;
      continue;
    }
    ++targeted;
    targetPassed += c.result.status == Status::Pass && !isOnlyWithConstants(c);
  }
  os << fmt::format("\n{} on {}: {} cases: {} pass ({} only with shape "
                    "inputs made constants), {} fail, {} unsupported "
                    "({:.1f} s)\n",
                    options.setName,
                    options.backend == Backend::Reference ? "ref" : "vulkan",
                    cases.size(), total.pass, withConstants, total.fail,
                    total.unsupported, seconds);
  os << fmt::format("target: {} of {} cases {} pass ({:.1f}%), not counting "
                    "{} training-mode cases; every exception counts as a "
                    "failure, and so does a pass only with shape inputs made "
                    "constants\n",
                    targetPassed, targeted, targetDescription,
                    targeted ? 100.0 * targetPassed / targeted : 100.0,
                    training);
}

/// Checks the results against the expectations of this set, or rewrites
/// them; the exit status of the run.
static int checkExpectations(const Options &options, ArrayRef<Case> cases) {
  std::string error;
  std::set<std::string> expected;
  if (llvm::sys::fs::exists(options.expectationsPath) ||
      !options.updateExpectations) {
    FailureOr<std::set<std::string>> read =
        readExpectations(options.expectationsPath, error);
    if (failed(read)) {
      reportError(error);
      return 1;
    }
    expected = std::move(*read);
  }
  std::string prefix = options.setName + "/";
  std::set<std::string> passing;
  for (const Case &c : cases)
    if (c.result.status == Status::Pass)
      passing.insert(prefix + c.name);

  if (options.updateExpectations) {
    // Keeps the other sets' lines, and this set's cases that were filtered
    // out of this run.
    for (const Case &c : cases)
      expected.erase(prefix + c.name);
    expected.insert(passing.begin(), passing.end());
    if (failed(writeExpectations(options.expectationsPath,
                                 getExpectationsHeader(options.backend),
                                 expected, error))) {
      reportError(error);
      return 1;
    }
    llvm::outs() << "wrote " << passing.size() << " passing cases of "
                 << options.setName << " to " << options.expectationsPath
                 << '\n';
    return 0;
  }

  unsigned regressions = 0;
  for (const Case &c : cases) {
    std::string name = prefix + c.name;
    if (c.result.status == Status::Pass || !expected.count(name))
      continue;
    ++regressions;
    llvm::outs() << "REGRESSION " << name << " (listed in "
                 << llvm::sys::path::filename(options.expectationsPath)
                 << "): " << getStatusName(c.result.status) << ": "
                 << c.result.reason << "\n  " << c.result.detail << '\n';
  }
  unsigned newPasses = 0;
  for (const std::string &name : passing) {
    if (expected.count(name))
      continue;
    if (newPasses++ == 0)
      llvm::outs() << "passing but not listed (add them with "
                      "--update-expectations):\n";
    llvm::outs() << "  " << name << '\n';
  }
  if (regressions) {
    llvm::outs() << regressions << " listed case(s) no longer pass\n";
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options options = parseCommandLine(argc, argv);
  if (!llvm::sys::fs::is_directory(options.root)) {
    llvm::outs() << "skipped: " << options.root << " not present (the test "
                 << "cases of " << options.setName << ")\n";
    return kSkipped;
  }
  std::optional<llvm::Regex> filter;
  if (!options.filter.empty()) {
    filter.emplace(options.filter);
    std::string error;
    if (!filter->isValid(error)) {
      reportError("--filter: " + error);
      return 1;
    }
  }

  auto start = std::chrono::steady_clock::now();
  std::vector<Case> cases =
      findCases(options.root, filter ? &*filter : nullptr);
  // Read before the first child is forked: a child that runs several cases
  // knows only what the parent knew when it was forked.
  for (Case &c : cases) {
    llvm::SmallString<256> model(c.dir);
    llvm::sys::path::append(model, "model.onnx");
    c.info = readCaseInfo(model);
  }
  CaseRunner runner(options.backend, options.tolerance);
  Sandbox sandbox(
      [&](unsigned i) {
        if (options.leakForTesting) {
          leakSink = new char[64];
          leakSink = nullptr;
        }
        return runner.run(cases[i].dir, cases[i].info);
      },
      options.timeoutSeconds, options.casesPerChild);
  for (auto [i, c] : llvm::enumerate(cases)) {
    c.result = sandbox.run(i);
    if (c.result.reason == kNoVulkanDevice) {
      reportError("no Vulkan device to run on:\n" + c.result.detail);
      return 1;
    }
    if (options.verbose)
      llvm::outs() << getStatusName(c.result.status) << ' ' << c.name
                   << (c.result.reason.empty() ? "" : ": ") << c.result.reason
                   << (c.result.detail.empty() ? "" : "\n  ") << c.result.detail
                   << '\n';
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  printSummary(options, cases, seconds);
  return checkExpectations(options, cases);
}

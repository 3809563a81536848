//===- onyx-conformance.cpp - ONNX node tests, reference backend ----------===//
//
// onyx-conformance DIR --set-name=NAME --expectations=FILE
//     [--update-expectations] [--filter=REGEX] [--timeout=S] [--verbose]
//
// Runs every case directory of DIR (an ONNX backend node test: model.onnx
// and test_data_set_*/) through import, canonicalization and the reference
// backend, each in its own child process, and prints a summary by status,
// reason and op. Cases listed in the expectations file as NAME/CASE must
// pass: any that does not makes the exit status 1. Cases that pass without
// being listed are named, to be added with --update-expectations.
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
#include <map>

using namespace onyx;
using namespace onyx::conformance;
namespace cl = llvm::cl;

/// The exit status that tells ctest the test was skipped.
static constexpr int kSkipped = 77;

static constexpr const char *kExpectationsHeader =
    "# Conformance cases that must pass on the reference backend, as\n"
    "# SET/CASE. Written by `onyx-conformance --update-expectations`;\n"
    "# a listed case that fails breaks the conformance-ref-* tests.\n";

namespace {

struct Options {
  std::string root;
  std::string setName;
  std::string expectationsPath;
  bool updateExpectations = false;
  std::string filter;
  unsigned timeoutSeconds = 60;
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
  static cl::opt<std::string> expectations(
      "expectations", cl::Required,
      cl::desc("The file listing the cases that must pass"), cl::cat(category));
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
      argc, argv, "Runs ONNX backend node tests on onyx's reference backend\n");

  Options options;
  options.root = root;
  options.setName = setName;
  options.expectationsPath = expectations;
  options.updateExpectations = update;
  options.filter = filter;
  options.timeoutSeconds = timeout;
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

/// The first line of `detail`, shortened to fit a summary line.
static std::string firstLine(StringRef detail) {
  StringRef line = detail.split('\n').first;
  return line.size() > 160 ? (line.take_front(157) + "...").str() : line.str();
}

/// Whether all ops and element types of the case are in onyx's target.
static bool isInScope(const CaseInfo &info) {
  return !info.ops.empty() && llvm::all_of(info.ops, isTargetOp) &&
         llvm::all_of(info.elemTypes, isTargetElemType);
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
    os << fmt::format("  {:<48} {:>5}\n", reason, count);
  os << "\nby op (pass / fail / unsupported; a case counts for each of its "
        "ops):\n";
  for (const auto &[op, counts] : byOp)
    os << fmt::format("  {:<28} {:>4} / {:>4} / {:>4}{}\n", op, counts.pass,
                      counts.fail, counts.unsupported,
                      isTargetOp(op) ? "" : "   (not in the op list)");

  os << "\nin the target (all ops in the op list, all element types "
        "supported) but not passing:\n";
  for (const Case &c : cases)
    if (c.result.status != Status::Pass && isInScope(c.info))
      os << "  " << c.name << ": " << c.result.reason << ": "
         << firstLine(c.result.detail) << '\n';

  unsigned withConstants = llvm::count_if(cases, [](const Case &c) {
    return c.result.status == Status::Pass && c.result.shapeInputsAsConstants;
  });
  os << fmt::format("\n{}: {} cases: {} pass ({} with shape inputs imported "
                    "as constants), {} fail, {} unsupported ({:.1f} s)\n",
                    options.setName, cases.size(), total.pass, withConstants,
                    total.fail, total.unsupported, seconds);
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
    if (failed(writeExpectations(options.expectationsPath, kExpectationsHeader,
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
    llvm::outs() << "skipped: the test cases of " << options.setName
                 << " are not at '" << options.root << "'\n";
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
  for (Case &c : cases) {
    llvm::SmallString<256> model(c.dir);
    llvm::sys::path::append(model, "model.onnx");
    c.info = readCaseInfo(model);
    c.result =
        runInChild([&] { return runCase(c.dir, c.info, options.tolerance); },
                   options.timeoutSeconds);
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

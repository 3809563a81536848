//===- RunReport.cpp - What onyx-run prints about a run -------------------===//

#include "tools/onyx-run/RunReport.h"

#include "dialect/gpu/GpuOps.h"
#include "dialect/gpu/GpuTypes.h"
#include "dialect/onnx/io/NpyFile.h"
#include "dialect/onnx/io/TensorLiteral.h"

#include "ir/BuiltinOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

using namespace onyx;
using namespace onyx::run;
using onnx::Tensor;

/// How many elements of an output are printed.
static constexpr int64_t kPrintedElements = 8;

void onyx::run::reportError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "onyx-run") << message << '\n';
}

LogicalResult onyx::run::emitOutputs(ArrayRef<Tensor> results,
                                     ArrayRef<std::string> files,
                                     Context &ctx) {
  for (auto [i, result] : llvm::enumerate(results)) {
    if (i < files.size()) {
      std::string error;
      if (failed(onnx::writeNpyFile(StringRef(files[i]).drop_front(), result,
                                    error))) {
        reportError("output " + llvm::Twine(i) + ": " + error);
        return failure();
      }
      continue;
    }
    llvm::outs() << "output " << i << ": " << result.getType(&ctx) << " = "
                 << onnx::formatElements(result, kPrintedElements) << '\n';
  }
  return success();
}

LogicalResult onyx::run::checkOutputs(ArrayRef<Tensor> results,
                                      ArrayRef<Tensor> expected,
                                      onnx::Tolerance tolerance,
                                      StringRef label) {
  bool allPassed = true;
  for (auto [i, actual, reference] : llvm::enumerate(results, expected)) {
    onnx::ComparisonResult comparison =
        onnx::compareTensors(actual, reference, tolerance);
    llvm::outs() << "output " << i << label << ": ";
    if (!comparison.mismatch.empty()) {
      llvm::outs() << comparison.mismatch << ": FAIL\n";
      allPassed = false;
      continue;
    }
    llvm::outs() << fmt::format("max abs error {:.2g}, max rel error {:.2g}: ",
                                comparison.maxAbsError, comparison.maxRelError);
    if (comparison.passed()) {
      llvm::outs() << "PASS\n";
      continue;
    }
    allPassed = false;
    int64_t first = comparison.firstMismatched;
    llvm::outs() << "FAIL (" << comparison.numMismatched << " of "
                 << reference.getNumElements()
                 << " elements out of tolerance; first at index " << first
                 << ": " << onnx::formatElement(actual, first) << ", expected "
                 << onnx::formatElement(reference, first) << ")\n";
  }
  return success(allPassed);
}

/// "median 1.234 ms, min 1.200 ms, max 1.500 ms".
static std::string summarize(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  double median =
      n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return fmt::format("median {:.3f} ms, min {:.3f} ms, max {:.3f} ms", median,
                     values.front(), values.back());
}

void onyx::run::printBenchmark(const BenchmarkTimes &times) {
  if (times.wallMs.empty())
    return;
  if (times.warmupRuns)
    llvm::outs() << fmt::format("warm-up: {} runs in {:.3f} s before the "
                                "timed runs\n",
                                times.warmupRuns, times.warmupSeconds);
  llvm::outs() << fmt::format(
      "benchmark: {} runs after a warm-up run: {} (wall time of a run, with "
      "input and output copies)\n",
      times.wallMs.size(), summarize(times.wallMs));
  if (!times.gpuMs.empty())
    llvm::outs() << fmt::format(
        "gpu time: {} (sum of the dispatches' timestamps)\n",
        summarize(times.gpuMs));
  if (!times.spanMs.empty())
    llvm::outs() << fmt::format(
        "gpu span: {} (first dispatch start to last dispatch end, barriers "
        "included)\n",
        summarize(times.spanMs));
}

/// Where a dispatch comes from: the ONNX node names its location holds
/// (`/fc1/Gemm`), or lines of a .mlir file (`model.mlir:5`); several joined
/// by `+` for a fused group.
static std::string describeNodes(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return fmt::format("{}:{}",
                       llvm::sys::path::filename(file.getFilename().getValue()),
                       file.getLine());
  auto fused = dyn_cast<FusedLoc>(loc);
  if (!fused)
    return "";
  std::string names;
  for (Location part : fused.getLocations()) {
    std::string name = describeNodes(part);
    if (name.empty())
      continue;
    if (!names.empty())
      names += '+';
    names += name;
  }
  return names;
}

void onyx::run::printProfile(ArrayRef<runtime::DispatchTiming> profile) {
  if (profile.empty()) {
    llvm::outs() << "profile: no dispatch times (the device has no "
                    "timestamps, or the function dispatches nothing)\n";
    return;
  }
  // Dispatches whose grid this run's sizes emptied (the variants of a
  // kernel the run did not choose) record nothing: they are counted but not
  // listed, so that the table shows the kernels that ran.
  double total = 0;
  unsigned ran = 0;
  for (const runtime::DispatchTiming &timing : profile) {
    if (!timing.ran)
      continue;
    total += timing.microseconds;
    ++ran;
  }
  if (ran == profile.size())
    llvm::outs() << fmt::format("profile: {} dispatches, {:.1f} us in all\n",
                                profile.size(), total);
  else
    llvm::outs() << fmt::format(
        "profile: {} dispatches, {:.1f} us in all ({} more with grids this "
        "run left empty, not listed)\n",
        ran, total, profile.size() - ran);
  llvm::outs() << fmt::format("  {:>4}  {:<32} {:>10} {:>7}  {}\n", "#",
                              "kernel", "time (us)", "share", "nodes");
  for (auto [i, timing] : llvm::enumerate(profile)) {
    if (!timing.ran)
      continue;
    gpu::DispatchOp dispatch = timing.op;
    double share = total > 0 ? 100 * timing.microseconds / total : 0;
    llvm::outs() << fmt::format("  {:>4}  @{:<31} {:>10.1f} {:>6.1f}%  {}\n", i,
                                dispatch.getKernelName().str(),
                                timing.microseconds, share,
                                describeNodes(dispatch->getLoc()));
  }
}

namespace {
/// A kernel's kind: its name without the generator's variant number
/// (`matmul_3` is a `matmul`).
StringRef kernelKind(gpu::DispatchOp dispatch) {
  StringRef name = dispatch.getKernelName();
  StringRef kind = name.rtrim("0123456789");
  if (kind.size() < name.size() && kind.ends_with("_"))
    return kind.drop_back();
  return name;
}

struct KindTotals {
  unsigned count = 0;
  double microseconds = 0;
};

/// The dispatches of `profile` that ran, by kind of kernel, most first by
/// `key`.
SmallVector<std::pair<std::string, KindTotals>>
totalsByKind(ArrayRef<runtime::DispatchTiming> profile, bool byTime) {
  llvm::StringMap<KindTotals> totals;
  for (const runtime::DispatchTiming &timing : profile) {
    if (!timing.ran)
      continue;
    KindTotals &t = totals[kernelKind(timing.op)];
    ++t.count;
    t.microseconds += timing.microseconds;
  }
  SmallVector<std::pair<std::string, KindTotals>> sorted;
  for (const auto &entry : totals)
    sorted.push_back({entry.getKey().str(), entry.getValue()});
  llvm::sort(sorted, [&](const auto &a, const auto &b) {
    if (byTime && a.second.microseconds != b.second.microseconds)
      return a.second.microseconds > b.second.microseconds;
    return a.second.count != b.second.count ? a.second.count > b.second.count
                                            : a.first < b.first;
  });
  return sorted;
}
} // namespace

std::string
onyx::run::countDispatchesByKernel(ArrayRef<runtime::DispatchTiming> profile) {
  std::string text;
  for (auto [name, totals] : totalsByKind(profile, /*byTime=*/false))
    text +=
        fmt::format("{}{} {}", text.empty() ? "" : ", ", name, totals.count);
  return text;
}

std::string
onyx::run::timeDispatchesByKernel(ArrayRef<runtime::DispatchTiming> profile) {
  std::string text;
  for (auto [name, totals] : totalsByKind(profile, /*byTime=*/true))
    text += fmt::format(
        "{}{} {:.3f} ms ({:.1f} us each)", text.empty() ? "" : ", ", name,
        totals.microseconds / 1000, totals.microseconds / totals.count);
  return text;
}

ArenaUse onyx::run::measureArena(FuncOp func) {
  ArenaUse use;
  func->walkOps<gpu::BufferOp>([&](gpu::BufferOp buffer) {
    if (buffer.getKind() != gpu::BufferKind::Arena)
      return;
    use.arenaBytes += buffer.getType().getSize();
    for (Operation *user : buffer->getUsers())
      if (auto view = dyn_cast<gpu::ViewOp>(user))
        use.tensorBytes += view.getType().getSizeInBytes();
  });
  return use;
}

void onyx::run::printArenaUse(const ArenaUse &use) {
  if (use.tensorBytes == 0) {
    llvm::outs() << fmt::format("arena: {} bytes, holding no tensors\n",
                                use.arenaBytes);
    return;
  }
  llvm::outs() << fmt::format(
      "arena: {} bytes for {} bytes of intermediates ({:.1f}%)\n",
      use.arenaBytes, use.tensorBytes,
      100.0 * double(use.arenaBytes) / double(use.tensorBytes));
}

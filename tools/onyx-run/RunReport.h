//===- RunReport.h - What onyx-run prints about a run -----------*- C++ -*-===//
//
// The outputs (printed, or written to .npy files), their comparison with
// expected values or with the reference backend, the latencies of
// --benchmark and the per-dispatch profile and arena use of --profile.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"
#include "dialect/onnx/io/TensorComparison.h"
#include "runtime/Executable.h"

#include <string>

namespace onyx::run {

/// Prints `onyx-run: error: <message>` for errors that have no location.
void reportError(const llvm::Twine &message);

/// Writes the outputs that have a file (`@FILE.npy`) and prints the others.
LogicalResult emitOutputs(ArrayRef<onnx::Tensor> results,
                          ArrayRef<std::string> files, Context &ctx);

/// Compares each output with its expected value, printing one line each
/// (`output 0<label>: max abs error ..., max rel error ...: PASS`);
/// succeeds if all match.
LogicalResult checkOutputs(ArrayRef<onnx::Tensor> results,
                           ArrayRef<onnx::Tensor> expected,
                           onnx::Tolerance tolerance, StringRef label = "");

/// Latencies in milliseconds of the runs of --benchmark.
struct BenchmarkTimes {
  /// The untimed runs of --warmup-seconds and how long they took.
  unsigned warmupRuns = 0;
  double warmupSeconds = 0;
  std::vector<double> wallMs;
  /// Sums of the dispatch times of each run; empty without timestamps.
  std::vector<double> gpuMs;
  /// First dispatch start to last dispatch end of each run.
  std::vector<double> spanMs;
};
void printBenchmark(const BenchmarkTimes &times);

/// The per-dispatch table of the last run.
void printProfile(ArrayRef<runtime::DispatchTiming> profile);

/// The dispatches of `profile` that ran counted by kernel, the kernels'
/// numbered variants (`@matmul_3`) counted with their kind (`matmul`), most
/// first: "matmul 5, attention 2, ...".
std::string countDispatchesByKernel(ArrayRef<runtime::DispatchTiming> profile);

/// The device time of the dispatches of `profile` that ran, summed by kind
/// of kernel, longest first: "matmul 1.204 ms (24.6 us each), ...".
std::string timeDispatchesByKernel(ArrayRef<runtime::DispatchTiming> profile);

/// How well buffer planning packed @main's intermediates: the size of the
/// arena buffer against the sum of the sizes of the views placed directly
/// in it (aliases of those views are not counted again).
struct ArenaUse {
  uint64_t arenaBytes = 0;
  uint64_t tensorBytes = 0;
};
ArenaUse measureArena(FuncOp func);
void printArenaUse(const ArenaUse &use);

} // namespace onyx::run

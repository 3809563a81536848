//===- Options.h - What onyx-run's command line asks for --------*- C++ -*-===//
//
// The parsed command line, handed to the front half and the backends so
// that running needs no globals.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/gpu/Target.h"
#include "dialect/onnx/io/TensorComparison.h"

#include <optional>
#include <string>
#include <vector>

namespace onyx::run {

enum class Backend { Reference, Vulkan };

struct Options {
  std::string modelPath;
  Backend backend = Backend::Vulkan;
  std::vector<std::string> inputs;
  /// Each a whole set of inputs, `;`-separated, run in turn by one loaded
  /// model.
  std::vector<std::string> inputSets;
  std::vector<std::string> expectedOutputs;
  std::vector<std::string> outputs;
  onnx::Tolerance tolerance;
  std::string bindDims;
  /// --max-dims: upper bounds of symbolic dimensions, NAME=N,...
  std::string maxDims;
  bool printIRAfterAll = false;
  std::optional<unsigned> device;
  /// --kernels-for: the kind of processor kernels are shaped for in place of
  /// the device's own (a GPU's kernels run on lavapipe in tests).
  std::optional<gpu::DeviceKind> kernelKind;
  /// --precision: of the products of f32 models (lowering::LoweringOptions).
  std::string precision = "f32";
  bool listDevices = false;
  bool validate = false;
  bool check = false;
  unsigned benchmarkRuns = 0;
  /// --warmup-seconds: how long --benchmark runs the model, untimed, right
  /// before the timed runs, or --generate generates before the measured
  /// generation.
  double warmupSeconds = 0;
  bool profile = false;
  std::string vulkanLoader;
  /// Where compiled kernels and the pipeline cache persist between runs
  /// (--cache-dir; empty: nowhere).
  std::string cacheDirectory;
  /// --max-memory in bytes; 0 for each backend's default.
  uint64_t maxMemory = 0;
  /// --gpu-timeout: how long a wait for the device may take, in seconds.
  uint64_t gpuTimeoutSeconds = 30 * 60;
  // --generate: decode this many tokens after the prompt.
  unsigned generate = 0;
  /// One per --prompt-ids, each ID,ID,...: the sequences of a batch.
  std::vector<std::string> promptIds;
  int64_t maxSeq = 0;
  std::optional<int64_t> eosId;
  double temperature = 0;
  unsigned topK = 0;
  double topP = 1;
  uint64_t seed = 0;
  /// --host-sampling: greedy tokens are picked on the host from the last
  /// logits, one step at a time, instead of on the device.
  bool hostSampling = false;
};

} // namespace onyx::run

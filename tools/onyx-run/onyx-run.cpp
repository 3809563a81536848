//===- onyx-run.cpp - Run a model and print or check its outputs ----------===//
//
// onyx-run MODEL.onnx|MODULE.mlir [--backend=ref|vulkan] [--input=...]...
//     [--expected-output=...]... [--rtol=R] [--atol=A] [--output=@F.npy]...
//     [--bind-dims=NAME=N,...] [--print-ir-after-all] [--device=N]
//     [--list-devices] [--validate] [--check] [--benchmark=N]
//     [--warmup-seconds=S] [--profile]
// onyx-run DECODER.onnx --generate=N --prompt-ids=ID,... [--prompt-ids=...]...
//     [--max-seq=N] [--eos-id=ID] [--temperature=T] [--top-k=K] [--top-p=P]
//     [--seed=S] [--backend=...]
//
// An ONNX model is imported with its symbolic dimensions bound (from
// --bind-dims, else from the inputs' shapes) and canonicalized; a .mlir
// module is parsed and verified. On the Vulkan backend (the default) an
// onnx-dialect module is then lowered for the selected device and runs
// there; a gpu-dialect module runs as it is. On the reference backend
// `@main` runs op by op on the CPU. Inputs are checked against @main's
// argument types first. Outputs are printed, written to .npy files, or
// compared with expected ones. Tools and tests depend on this command line:
// extend it, do not change it.
//
//===----------------------------------------------------------------------===//

#include "tools/onyx-run/FrontEnd.h"
#include "tools/onyx-run/GenerateCommand.h"
#include "tools/onyx-run/Options.h"
#include "tools/onyx-run/RunReport.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "dialect/gpu/GpuDialect.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/reference/ReferenceBackend.h"
#include "lowering/Passes.h"

#include "ir/Context.h"
#include "ir/SourceMgrDiagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;
namespace cl = llvm::cl;

static constexpr const char *kOverview = R"(onyx model runner

Runs the function @main of an ONNX model or of an onnx-dialect module and
prints its outputs, writes them to .npy files, or compares them with
expected ones (exit status 0 only if every output matches). On the Vulkan
backend (the default) the model is lowered to GPU kernels for the device
it runs on; a gpu-dialect module runs as it is.

A tensor is given as @FILE.npy (NumPy), @FILE.pb (ONNX TensorProto) or
inline as SHAPExTYPE=VALUES with IR type names, one value for all elements
or one per element in row-major order:
  --input=2x3xf32=1,2,3,4,5,6   --input=1x3x224x224xf32=0.5   --input=i64=7

Examples:
  onyx-run model.onnx --input=@x.npy --expected-output=@y.npy --rtol=1e-4
  onyx-run model.onnx --input=@x.npy --check --benchmark=20 --profile
  onyx-run model.onnx --input-set='1x7x64xf32=0.5' --input-set='1x16x64xf32=0.5'
  onyx-run --list-devices
  onyx-run decoder.onnx --generate=32 --prompt-ids=1,15,27 --backend=ref
  onyx-run decoder.onnx --generate=32 --prompt-ids=1,15,27 --prompt-ids=4,9 \
      --eos-id=2
)";

/// `SIZE` of --max-memory: a positive integer with an optional K, M, G or
/// T suffix (powers of 1024); nullopt if malformed or beyond 64 bits.
static std::optional<uint64_t> parseByteSize(StringRef text) {
  uint64_t scale = 1;
  if (!text.empty()) {
    size_t suffix = StringRef("KMGT").find(llvm::toUpper(text.back()));
    if (suffix != StringRef::npos) {
      scale = uint64_t(1) << (10 * (suffix + 1));
      text = text.drop_back();
    }
  }
  uint64_t value;
  if (text.getAsInteger(10, value) || value == 0 || value > UINT64_MAX / scale)
    return std::nullopt;
  return value * scale;
}

/// The cache directory --cache-dir names, else the environment's default;
/// "" where caching is off ('none').
static std::string getCacheDirectory(StringRef flag) {
  std::string directory = flag.str();
  if (directory.empty()) {
    if (const char *env = std::getenv("ONYX_CACHE_DIR")) {
      directory = env;
    } else {
      llvm::SmallString<256> path;
      if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        path = xdg;
      else if (const char *home = std::getenv("HOME"); home && *home)
        llvm::sys::path::append(path, home, ".cache");
      else
        return "";
      llvm::sys::path::append(path, "onyx");
      directory = std::string(path);
    }
  }
  return directory == "none" ? "" : directory;
}

static Options parseCommandLine(int argc, char **argv) {
  static cl::OptionCategory category("onyx-run options");
  static cl::opt<std::string> modelPath(cl::Positional, cl::Optional,
                                        cl::desc("<MODEL.onnx | MODULE.mlir>"),
                                        cl::cat(category));
  static cl::opt<Backend> backend(
      "backend", cl::desc("Where to run the model (default: vulkan)"),
      cl::values(clEnumValN(Backend::Reference, "ref",
                            "the reference evaluator on the CPU"),
                 clEnumValN(Backend::Vulkan, "vulkan", "a Vulkan device")),
      cl::init(Backend::Vulkan), cl::cat(category));
  static cl::list<std::string> inputs(
      "input",
      cl::desc("A graph input, in order: @FILE.npy, @FILE.pb or "
               "SHAPExTYPE=VALUES (repeat for each input)"),
      cl::value_desc("tensor"), cl::cat(category));
  static cl::list<std::string> inputSets(
      "input-set",
      cl::desc("All inputs of one run, ';'-separated in the forms of "
               "--input; repeat to run one loaded model at several shapes "
               "(compiled once: symbolic dimensions stay symbolic)"),
      cl::value_desc("tensor;tensor..."), cl::cat(category));
  static cl::list<std::string> expectedOutputs(
      "expected-output",
      cl::desc("The expected value of an output, in order: @FILE.npy, "
               "@FILE.pb or SHAPExTYPE=VALUES; prints PASS or FAIL per output"),
      cl::value_desc("tensor"), cl::cat(category));
  static cl::opt<double> rtol(
      "rtol",
      cl::desc("Relative tolerance: |actual - expected| <= atol + rtol * "
               "|expected| (default 1e-3)"),
      cl::init(Tolerance().rtol), cl::cat(category));
  static cl::opt<double> atol("atol",
                              cl::desc("Absolute tolerance (default 1e-7)"),
                              cl::init(Tolerance().atol), cl::cat(category));
  static cl::list<std::string> outputs(
      "output",
      cl::desc("Write an output to a .npy file instead of printing it, in "
               "order: @FILE.npy"),
      cl::value_desc("@file"), cl::cat(category));
  static cl::opt<std::string> bindDims(
      "bind-dims",
      cl::desc("Sizes of symbolic dimensions of an ONNX model's inputs "
               "(default: the sizes of the given inputs)"),
      cl::value_desc("NAME=N,..."), cl::cat(category));
  static cl::opt<std::string> maxDims(
      "max-dims",
      cl::desc("With --input-set, the largest sizes of an ONNX model's "
               "symbolic dimensions (each one the model leaves symbolic "
               "needs one): the tensors placed at run time are planned once "
               "for them, so that no run within them plans memory again; a "
               "run above a bound is an error naming the dimension"),
      cl::value_desc("NAME=N,..."), cl::cat(category));
  static cl::opt<bool> printIRAfterAll(
      "print-ir-after-all",
      cl::desc("Print the IR after the import and after each pass"),
      cl::cat(category));
  static cl::opt<int> device(
      "device",
      cl::desc("The Vulkan device to run on, by its number in "
               "--list-devices (default: a discrete GPU first, the CPU last)"),
      cl::value_desc("N"), cl::init(-1), cl::cat(category));
  static cl::opt<std::string> kernelsFor(
      "kernels-for",
      cl::desc("Shape the kernels for this kind of processor, gpu or cpu, "
               "in place of the device's own (default): to run a GPU's "
               "kernels on lavapipe"),
      cl::value_desc("KIND"), cl::cat(category));
  static cl::opt<std::string> precision(
      "precision",
      cl::desc("f16: run the MatMuls, Gemms and Convs of an f32 model on f16 "
               "operands (weights stored as f16) with f32 accumulation, the "
               "rest in f32; --check reports the error against the f32 "
               "reference (default f32)"),
      cl::value_desc("f32|f16"), cl::init("f32"), cl::cat(category));
  static cl::opt<bool> listDevices("list-devices",
                                   cl::desc("List the Vulkan devices and exit"),
                                   cl::cat(category));
  static cl::opt<bool> validate(
      "validate",
      cl::desc("Run with the Khronos validation layer; any message it "
               "reports fails the run (also ONYX_VULKAN_VALIDATION=1)"),
      cl::cat(category));
  static cl::opt<bool> check(
      "check",
      cl::desc("Also run the model on the reference backend and compare "
               "the outputs with --rtol and --atol"),
      cl::cat(category));
  static cl::opt<unsigned> benchmark(
      "benchmark",
      cl::desc("After a warm-up run, run N times and print the median, "
               "minimum and maximum latency"),
      cl::value_desc("N"), cl::init(0), cl::cat(category));
  static cl::opt<double> warmupSeconds(
      "warmup-seconds",
      cl::desc("With --benchmark, run the model untimed for S seconds right "
               "before the timed runs; with --generate, generate (unprinted) "
               "for S seconds before the measured generation: so that they "
               "start at the clocks of a busy GPU rather than an idle one"),
      cl::value_desc("S"), cl::init(0), cl::cat(category));
  static cl::opt<bool> profile(
      "profile",
      cl::desc("Print each dispatch's device time and the arena's size "
               "against the intermediates it holds"),
      cl::cat(category));
  static cl::opt<std::string> maxMemory(
      "max-memory",
      cl::desc("The most bytes a run may hold: the live tensors on the "
               "reference backend (default: the machine's memory), the "
               "arena and weights on Vulkan (default: the device's "
               "device-local heap); a suffix K, M, G or T multiplies by "
               "1024, 1024^2, ..."),
      cl::value_desc("SIZE"), cl::cat(category));
  static cl::opt<uint64_t> gpuTimeout(
      "gpu-timeout",
      cl::desc("How long one wait for the Vulkan device may take before the "
               "run fails with the device treated as lost (a hung kernel); "
               "default 1800"),
      cl::value_desc("SECONDS"), cl::init(30 * 60), cl::cat(category));
  static cl::opt<std::string> cacheDir(
      "cache-dir",
      cl::desc("Where compiled kernels and the Vulkan pipeline cache persist "
               "between runs, so that a second run compiles nothing "
               "('none': nowhere; default: $ONYX_CACHE_DIR, else "
               "$XDG_CACHE_HOME/onyx, else ~/.cache/onyx)"),
      cl::value_desc("DIR"), cl::cat(category));
  static cl::opt<std::string> vulkanLoader(
      "vulkan-loader", cl::desc("The Vulkan loader library to open"),
      cl::init(runtime::InstanceOptions().loaderLibrary), cl::Hidden,
      cl::cat(category));

  static cl::OptionCategory generation("text generation (--generate)");
  static cl::opt<unsigned> generate(
      "generate",
      cl::desc("Generate N tokens with a decoder model in the cache "
               "interface of ONNX exporters: one prefill pass over "
               "--prompt-ids yields the first, each decode step one more; "
               "prints the ids as they come, then the times"),
      cl::value_desc("N"), cl::init(0), cl::cat(generation));
  static cl::list<std::string> promptIds(
      "prompt-ids",
      cl::desc("A prompt's token ids; repeated, the prompts run as one batch "
               "(left-padded to the longest) and each sequence's ids are "
               "printed on a line of its own, in the order of the prompts"),
      cl::value_desc("ID,ID,..."), cl::cat(generation));
  static cl::opt<int64_t> eosId(
      "eos-id",
      cl::desc("The end id: a sequence that emits it stops (the id is "
               "printed), the others continue"),
      cl::value_desc("ID"), cl::cat(generation));
  static cl::opt<int64_t> maxSeq(
      "max-seq",
      cl::desc("The most positions the cache holds, prompt included; "
               "generation stops there; on Vulkan the cache is allocated for "
               "that many positions at once (default: no limit)"),
      cl::value_desc("N"), cl::init(0), cl::cat(generation));
  static cl::opt<double> temperature(
      "temperature",
      cl::desc("Sample from softmax(logits / T) (default 0: greedy, the "
               "largest logit)"),
      cl::value_desc("T"), cl::init(0), cl::cat(generation));
  static cl::opt<unsigned> topK(
      "top-k", cl::desc("Sample among the K largest logits (default 0: all)"),
      cl::value_desc("K"), cl::init(0), cl::cat(generation));
  static cl::opt<double> topP(
      "top-p",
      cl::desc("Sample among the fewest tokens whose probability reaches P "
               "(default 1: all)"),
      cl::value_desc("P"), cl::init(1), cl::cat(generation));
  static cl::opt<uint64_t> seed(
      "seed", cl::desc("The sampler's random seed (default 0)"),
      cl::value_desc("S"), cl::init(0), cl::cat(generation));
  static cl::opt<bool> hostSampling(
      "host-sampling",
      cl::desc("Greedy decoding on Vulkan: read the last logits back and "
               "pick each token on the host, one step at a time (by default "
               "the device picks it and runs the next step before the host "
               "reads it); the same ids"),
      cl::init(false), cl::cat(generation));

  cl::HideUnrelatedOptions({&category, &generation});
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  Options options;
  options.modelPath = modelPath;
  options.backend = backend;
  options.inputs = inputs;
  options.inputSets = inputSets;
  options.expectedOutputs = expectedOutputs;
  options.outputs = outputs;
  // An f16 model's outputs compare with its f32 original's.
  options.tolerance = {rtol, atol, /*acrossFloatWidths=*/true};
  options.bindDims = bindDims;
  options.maxDims = maxDims;
  options.printIRAfterAll = printIRAfterAll;
  if (device >= 0)
    options.device = unsigned(device);
  if (!kernelsFor.empty()) {
    options.kernelKind = gpu::parseDeviceKind(kernelsFor);
    if (!options.kernelKind) {
      reportError("--kernels-for expects gpu or cpu, got '" + kernelsFor + "'");
      std::exit(1);
    }
  }
  if (precision != "f32" && precision != "f16") {
    reportError("--precision expects f32 or f16, got '" + precision + "'");
    std::exit(1);
  }
  options.precision = precision;
  options.listDevices = listDevices;
  options.validate = validate;
  options.check = check;
  options.benchmarkRuns = benchmark;
  // (NaN fails both comparisons.)
  if (!(warmupSeconds >= 0 && warmupSeconds <= 3600)) {
    reportError("--warmup-seconds must be between 0 and 3600");
    std::exit(1);
  }
  if (warmupSeconds > 0 && !benchmark && !generate) {
    reportError("--warmup-seconds applies to --benchmark and --generate");
    std::exit(1);
  }
  options.warmupSeconds = warmupSeconds;
  options.profile = profile;
  options.vulkanLoader = vulkanLoader;
  options.cacheDirectory = getCacheDirectory(cacheDir);
  if (!maxMemory.empty()) {
    std::optional<uint64_t> bytes = parseByteSize(maxMemory);
    if (!bytes) {
      reportError("--max-memory expects a positive number of bytes with an "
                  "optional K, M, G or T suffix, got '" +
                  maxMemory + "'");
      std::exit(1);
    }
    options.maxMemory = *bytes;
  }
  if (gpuTimeout == 0) {
    reportError("--gpu-timeout must be at least 1 second");
    std::exit(1);
  }
  options.gpuTimeoutSeconds = gpuTimeout;
  options.generate = generate;
  options.promptIds.assign(promptIds.begin(), promptIds.end());
  if (eosId.getNumOccurrences())
    options.eosId = eosId;
  options.maxSeq = maxSeq;
  options.temperature = temperature;
  options.topK = topK;
  options.topP = topP;
  options.seed = seed;
  options.hostSampling = hostSampling;
  return options;
}

/// Prints every Vulkan device with its number and whether onyx can use it.
static LogicalResult listDevices(const Options &options) {
  Context ctx;
  VulkanOptions vulkanOptions;
  vulkanOptions.validation = options.validate;
  vulkanOptions.loaderLibrary = options.vulkanLoader;
  FailureOr<std::vector<ListedDevice>> devices =
      run::listDevices(&ctx, vulkanOptions);
  if (failed(devices))
    return failure();
  if (devices->empty()) {
    llvm::outs() << "no Vulkan device\n";
    return success();
  }
  for (const ListedDevice &device : *devices) {
    const runtime::DeviceInfo &info = device.info;
    llvm::outs() << info.index << ": " << info.describe() << ": ";
    if (!info.isUsable())
      llvm::outs() << "unusable: " << info.unusableReason << '\n';
    else
      llvm::outs() << "usable" << (device.isDefault ? " (default)" : "")
                   << '\n';
  }
  return success();
}

/// Runs `exe` once to warm up, and again untimed for `warmupSeconds`, then
/// `runs` times, timing each run. A GPU that was idle (between processes,
/// say) runs at low clocks at first; warming up by time in the measuring
/// process, right before the timed runs, makes two measurements comparable.
static FailureOr<BenchmarkTimes>
benchmark(runtime::Executable &exe, ArrayRef<runtime::HostTensor> hostInputs,
          unsigned runs, double warmupSeconds) {
  BenchmarkTimes times;
  if (failed(exe.run(hostInputs)))
    return failure();
  auto warmupStart = std::chrono::steady_clock::now();
  while (warmupSeconds > 0) {
    if (failed(exe.run(hostInputs)))
      return failure();
    ++times.warmupRuns;
    times.warmupSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - warmupStart)
                              .count();
    if (times.warmupSeconds >= warmupSeconds)
      break;
  }
  for (unsigned i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (failed(exe.run(hostInputs)))
      return failure();
    auto end = std::chrono::steady_clock::now();
    times.wallMs.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
    ArrayRef<runtime::DispatchTiming> profile = exe.getProfile();
    if (profile.empty())
      continue;
    double microseconds = 0;
    for (const runtime::DispatchTiming &timing : profile)
      microseconds += timing.microseconds;
    times.gpuMs.push_back(microseconds / 1000);
    times.spanMs.push_back(exe.getProfileSpan() / 1000);
  }
  return times;
}

/// Prints or writes the outputs and compares them with the expected ones;
/// fails if any comparison does.
static LogicalResult report(const Options &options, ArrayRef<Tensor> results,
                            ArrayRef<Tensor> expected, Context &ctx) {
  if (failed(emitOutputs(results, options.outputs, ctx)))
    return failure();
  if (expected.empty())
    return success();
  return checkOutputs(results, expected, options.tolerance);
}

static LogicalResult runOnReference(const Options &options, Context &ctx,
                                    llvm::SourceMgr &sourceMgr) {
  FailureOr<Prepared> prepared = prepare(options, ctx, sourceMgr);
  if (failed(prepared))
    return failure();
  for (auto [i, set] : llvm::enumerate(prepared->inputSets)) {
    llvm::outs() << "input set " << i << ":\n";
    FailureOr<SmallVector<Tensor>> results = runReference(prepared->main, set);
    if (failed(results) || failed(emitOutputs(*results, {}, ctx)))
      return failure();
  }
  if (!prepared->inputSets.empty())
    return success();
  FailureOr<SmallVector<Tensor>> results =
      runReference(prepared->main, prepared->inputs, {options.maxMemory});
  if (failed(results))
    return failure();
  return report(options, *results, prepared->expected, ctx);
}

/// Kernels compiled (and, with a cache directory, read from it) since the
/// counts `before` were taken.
struct KernelWork {
  unsigned compiledBefore = lowering::getNumKernelsCompiled();
  unsigned readBefore = lowering::getNumKernelsFromDiskCache();

  unsigned compiled() const {
    return lowering::getNumKernelsCompiled() - compiledBefore;
  }
  /// "N kernels compiled", with ", M read from the cache" when caching.
  std::string describe(const Options &options) const {
    std::string text = fmt::format("{} kernels compiled", compiled());
    if (!options.cacheDirectory.empty())
      text += fmt::format(", {} read from the cache",
                          lowering::getNumKernelsFromDiskCache() - readBefore);
    return text;
  }
};

/// What compiling and loading created, and the tensors the runtime placed
/// for the last run's dims.
static void printRuntimeWork(const runtime::Executable &exe,
                             StringRef compiled) {
  const runtime::ExecutableCounters &counters = exe.getCounters();
  llvm::outs() << fmt::format(
      "work: {}, {} pipelines created, {} recordings made "
      "({:.0f} us), {} reused, {} placements\n",
      compiled.str(), counters.pipelinesCreated, counters.recordings,
      counters.recordMicroseconds, counters.recordingHits, counters.placements);
  const runtime::RecordingStats &stats = exe.getStats();
  if (stats.runtimeTensorBytes)
    llvm::outs() << fmt::format("runtime arena: {} bytes for {} bytes of "
                                "tensors sized by this run's dims\n",
                                stats.runtimeArenaBytes,
                                stats.runtimeTensorBytes);
}

static double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Lowers the model once (symbolic dimensions stay symbolic), loads it once
/// and runs each input set, reporting compile and load time apart from each
/// run's, and what each run compiled or created (nothing, after the load).
static LogicalResult runInputSets(const Options &options, Context &ctx,
                                  Prepared &prepared,
                                  const VulkanBackend &backend) {
  ModuleOp module = *prepared.module;
  SmallVector<SmallVector<Tensor>> references;
  bool isGpu = isGpuModule(module);
  if (options.check && isGpu) {
    reportError("--check needs an onnx-dialect model to run on the "
                "reference backend; '" +
                options.modelPath + "' is a gpu-dialect module");
    return failure();
  }
  for (ArrayRef<Tensor> set : prepared.inputSets) {
    if (!options.check)
      break;
    FailureOr<SmallVector<Tensor>> results = runReference(prepared.main, set);
    if (failed(results))
      return failure();
    references.push_back(std::move(*results));
  }
  auto start = std::chrono::steady_clock::now();
  KernelWork work;
  if (!isGpu && failed(backend.lower(
                    module, options.printIRAfterAll ? &llvm::errs() : nullptr)))
    return failure();
  double compileMs = millisecondsSince(start);
  std::string compiled = work.describe(options);

  start = std::chrono::steady_clock::now();
  runtime::LoadOptions loadOptions;
  loadOptions.maxMemory = options.maxMemory;
  loadOptions.profile =
      options.profile ||
      (options.benchmarkRuns && backend.getDeviceInfo().hasTimestamps);
  FailureOr<std::unique_ptr<runtime::Executable>> loaded =
      runtime::Executable::load(backend.getDevice(), module, loadOptions);
  if (failed(loaded))
    return failure();
  runtime::Executable &exe = **loaded;
  if (!options.maxDims.empty()) {
    FailureOr<std::vector<runtime::DimBound>> bounds =
        getDimBounds(options, prepared.main, ctx);
    if (failed(bounds) || failed(exe.planForBounds(*bounds)))
      return failure();
  }
  llvm::outs() << fmt::format("compile: {:.1f} ms ({}), load: {:.1f} ms ({} "
                              "pipelines created)\n",
                              compileMs, compiled, millisecondsSince(start),
                              exe.getCounters().pipelinesCreated);

  bool passed = true;
  for (auto [i, set] : llvm::enumerate(prepared.inputSets)) {
    runtime::ExecutableCounters before = exe.getCounters();
    unsigned compiledBefore = lowering::getNumKernelsCompiled();
    start = std::chrono::steady_clock::now();
    FailureOr<SmallVector<Tensor>> results = runExecutable(exe, set);
    double runMs = millisecondsSince(start);
    if (failed(results))
      return failure();
    const runtime::ExecutableCounters &after = exe.getCounters();
    std::string recording =
        after.recordings > before.recordings
            ? fmt::format("recorded in {:.0f} us", after.lastRecordMicroseconds)
            : std::string("recording reused");
    llvm::outs() << fmt::format(
        "input set {}: run {:.3f} ms ({}), {} kernels compiled, {} pipelines "
        "created\n",
        i, runMs, recording, lowering::getNumKernelsCompiled() - compiledBefore,
        after.pipelinesCreated - before.pipelinesCreated);
    if (failed(emitOutputs(*results, {}, ctx)))
      return failure();
    if (options.check)
      passed &= succeeded(
          checkOutputs(*results, references[i], options.tolerance, " vs ref"));
    if (options.benchmarkRuns) {
      FailureOr<BenchmarkTimes> times =
          benchmark(exe, toHostTensors(exe.getFunction(), set),
                    options.benchmarkRuns, options.warmupSeconds);
      if (failed(times))
        return failure();
      printBenchmark(*times);
    }
    if (options.profile) {
      printProfile(exe.getProfile());
      printRuntimeWork(exe, compiled);
    }
  }
  return success(passed);
}

/// Everything of a Vulkan run up to the validation report: the Executable
/// and the module are gone when it returns.
static LogicalResult runOnVulkan(const Options &options, Context &ctx,
                                 llvm::SourceMgr &sourceMgr,
                                 const VulkanBackend &backend) {
  FailureOr<Prepared> prepared = prepare(options, ctx, sourceMgr);
  if (failed(prepared))
    return failure();
  if (!prepared->inputSets.empty())
    return runInputSets(options, ctx, *prepared, backend);
  ModuleOp module = *prepared->module;

  std::string compiled = "0 kernels compiled";
  SmallVector<Tensor> reference;
  if (isGpuModule(module)) {
    if (options.check) {
      reportError("--check needs an onnx-dialect model to run on the "
                  "reference backend; '" +
                  options.modelPath + "' is a gpu-dialect module");
      return failure();
    }
  } else {
    if (options.check) {
      FailureOr<SmallVector<Tensor>> results =
          runReference(prepared->main, prepared->inputs, {options.maxMemory});
      if (failed(results))
        return failure();
      reference = std::move(*results);
    }
    refineArgumentTypes(prepared->main, prepared->inputs);
    KernelWork work;
    if (failed(backend.lower(module, options.printIRAfterAll ? &llvm::errs()
                                                             : nullptr)))
      return failure();
    compiled = work.describe(options);
  }

  runtime::LoadOptions loadOptions;
  loadOptions.maxMemory = options.maxMemory;
  // Benchmarks report device time too where the device has timestamps.
  loadOptions.profile =
      options.profile ||
      (options.benchmarkRuns && backend.getDeviceInfo().hasTimestamps);
  FailureOr<std::unique_ptr<runtime::Executable>> exe =
      runtime::Executable::load(backend.getDevice(), module, loadOptions);
  if (failed(exe))
    return failure();
  FailureOr<SmallVector<Tensor>> results =
      runExecutable(**exe, prepared->inputs);
  if (failed(results))
    return failure();

  bool passed = succeeded(report(options, *results, prepared->expected, ctx));
  if (options.check)
    passed &= succeeded(
        checkOutputs(*results, reference, options.tolerance, " vs ref"));
  if (options.benchmarkRuns) {
    // Converted once, so that only the runs are timed.
    FailureOr<BenchmarkTimes> times =
        benchmark(**exe, toHostTensors((*exe)->getFunction(), prepared->inputs),
                  options.benchmarkRuns, options.warmupSeconds);
    if (failed(times))
      return failure();
    printBenchmark(*times);
  }
  if (options.profile) {
    printProfile((*exe)->getProfile());
    printArenaUse(measureArena((*exe)->getFunction()));
    printRuntimeWork(**exe, compiled);
  }
  return success(passed);
}

/// Fails, listing them, if the validation layer reported anything.
static LogicalResult reportValidation(const VulkanBackend &backend) {
  std::vector<std::string> messages = backend.getValidationMessages();
  if (messages.empty())
    return success();
  reportError(fmt::format("the Vulkan validation layer reported {} "
                          "message(s):",
                          messages.size()));
  for (const std::string &message : messages)
    llvm::errs() << "  " << message << '\n';
  return failure();
}

static LogicalResult runModel(const Options &options) {
  if (options.listDevices)
    return listDevices(options);
  if (options.modelPath.empty()) {
    reportError("no model given (onyx-run MODEL.onnx|MODULE.mlir, or "
                "--list-devices; --help lists the options)");
    return failure();
  }
  if (!options.maxDims.empty() &&
      (options.inputSets.empty() || options.backend != Backend::Vulkan ||
       options.generate ||
       !llvm::StringRef(options.modelPath).ends_with(".onnx"))) {
    reportError("--max-dims applies to --input-set runs of an ONNX model on "
                "Vulkan");
    return failure();
  }
  bool generationFlags =
      !options.promptIds.empty() || options.maxSeq || options.eosId;
  if (!options.generate && generationFlags)
    reportError("--prompt-ids, --max-seq and --eos-id apply to --generate");
  if (!options.generate && options.hostSampling) {
    reportError("--host-sampling applies to --generate");
    return failure();
  }
  if (options.maxSeq < 0)
    reportError("--max-seq must not be negative");
  if ((!options.generate && generationFlags) || options.maxSeq < 0)
    return failure();
  if (options.generate && options.backend == Backend::Reference) {
    if (options.validate || options.device) {
      reportError("--validate and --device apply to --backend=vulkan");
      return failure();
    }
    return runGeneration(options, nullptr);
  }
  for (StringRef file : options.outputs) {
    if (!file.starts_with("@") || !file.ends_with(".npy")) {
      reportError("--output=" + file + ": expected --output=@FILE.npy");
      return failure();
    }
  }

  Context ctx;
  ctx.loadDialect<OnnxDialect>();
  ctx.loadDialect<gpu::GpuDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);

  if (options.backend == Backend::Reference) {
    if (options.check || options.benchmarkRuns || options.profile ||
        options.validate || options.device || options.kernelKind ||
        options.precision != "f32") {
      reportError("--check, --benchmark, --profile, --validate, --device, "
                  "--kernels-for and --precision apply to --backend=vulkan");
      return failure();
    }
    return runOnReference(options, ctx, sourceMgr);
  }

  VulkanOptions vulkanOptions;
  vulkanOptions.deviceIndex = options.device;
  vulkanOptions.validation = options.validate;
  vulkanOptions.loaderLibrary = options.vulkanLoader;
  vulkanOptions.pipelineCacheDirectory = options.cacheDirectory;
  vulkanOptions.waitTimeoutSeconds = options.gpuTimeoutSeconds;
  vulkanOptions.kernelKind = options.kernelKind;
  vulkanOptions.precision = options.precision;
  if (!options.cacheDirectory.empty()) {
    llvm::SmallString<256> kernels(options.cacheDirectory);
    llvm::sys::path::append(kernels, "kernels");
    lowering::setKernelCacheDirectory(kernels);
  }
  FailureOr<std::unique_ptr<VulkanBackend>> backend =
      VulkanBackend::create(&ctx, vulkanOptions);
  if (failed(backend))
    return failure();
  LogicalResult result = options.generate
                             ? runGeneration(options, backend->get())
                             : runOnVulkan(options, ctx, sourceMgr, **backend);
  // Destroying the device is when the validation layer reports any object
  // of it that was not freed, on success and on every error path alike.
  (*backend)->closeDevice();
  if (failed(reportValidation(**backend)))
    return failure();
  return result;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options options = parseCommandLine(argc, argv);
  return failed(runModel(options)) ? 1 : 0;
}

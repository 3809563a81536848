//===- onyx-run.cpp - Run a model and print or check its outputs ----------===//
//
// onyx-run MODEL.onnx|MODULE.mlir [--backend=ref|vulkan] [--input=...]...
//     [--expected-output=...]... [--rtol=R] [--atol=A] [--output=@F.npy]...
//     [--bind-dims=NAME=N,...] [--print-ir-after-all] [--device=N]
//     [--list-devices] [--validate] [--check] [--benchmark=N] [--profile]
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

#include "tools/onyx-run/RunReport.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "dialect/gpu/GpuDialect.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Importer.h"
#include "dialect/onnx/io/ModelLoader.h"
#include "dialect/onnx/io/NpyFile.h"
#include "dialect/onnx/io/SignatureCheck.h"
#include "dialect/onnx/io/TensorLiteral.h"
#include "dialect/onnx/reference/ReferenceBackend.h"

#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/SourceMgrDiagnostics.h"
#include "ir/Verifier.h"
#include "rewrite/PassManager.h"
#include "rewrite/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;
namespace cl = llvm::cl;

namespace {

enum class Backend { Reference, Vulkan };

/// What the command line asks for, so that running needs no globals.
struct Options {
  std::string modelPath;
  Backend backend = Backend::Vulkan;
  std::vector<std::string> inputs;
  std::vector<std::string> expectedOutputs;
  std::vector<std::string> outputs;
  Tolerance tolerance;
  std::string bindDims;
  bool printIRAfterAll = false;
  std::optional<unsigned> device;
  bool listDevices = false;
  bool validate = false;
  bool check = false;
  unsigned benchmarkRuns = 0;
  bool profile = false;
  std::string vulkanLoader;
};

} // namespace

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
  onyx-run --list-devices
)";

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
  static cl::opt<bool> printIRAfterAll(
      "print-ir-after-all",
      cl::desc("Print the IR after the import and after each pass"),
      cl::cat(category));
  static cl::opt<int> device(
      "device",
      cl::desc("The Vulkan device to run on, by its number in "
               "--list-devices (default: a discrete GPU first, the CPU last)"),
      cl::value_desc("N"), cl::init(-1), cl::cat(category));
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
  static cl::opt<bool> profile(
      "profile",
      cl::desc("Print each dispatch's device time and the arena's size "
               "against the intermediates it holds"),
      cl::cat(category));
  static cl::opt<std::string> vulkanLoader(
      "vulkan-loader", cl::desc("The Vulkan loader library to open"),
      cl::init(runtime::InstanceOptions().loaderLibrary), cl::Hidden,
      cl::cat(category));

  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  Options options;
  options.modelPath = modelPath;
  options.backend = backend;
  options.inputs = inputs;
  options.expectedOutputs = expectedOutputs;
  options.outputs = outputs;
  options.tolerance = {rtol, atol};
  options.bindDims = bindDims;
  options.printIRAfterAll = printIRAfterAll;
  if (device >= 0)
    options.device = unsigned(device);
  options.listDevices = listDevices;
  options.validate = validate;
  options.check = check;
  options.benchmarkRuns = benchmark;
  options.profile = profile;
  options.vulkanLoader = vulkanLoader;
  return options;
}

static void reportError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "onyx-run") << message << '\n';
}

/// Reads a tensor given as @FILE.npy, @FILE.pb or a literal. `what` names
/// it in errors ("input 0"). Problems with .pb files are reported by their
/// reader through `ctx`.
static FailureOr<Tensor> readTensorArgument(StringRef text, StringRef what,
                                            Context &ctx) {
  std::string error;
  FailureOr<Tensor> tensor = failure();
  if (text.consume_front("@")) {
    StringRef extension = llvm::sys::path::extension(text);
    if (extension == ".npy")
      tensor = readNpyFile(text, error);
    else if (extension == ".pb")
      return readTensorProtoFile(text, &ctx);
    else
      error = fmt::format("'{}' is neither a .npy nor a .pb file", text);
  } else {
    tensor = parseTensorLiteral(text, error);
  }
  if (failed(tensor))
    reportError(what + ": " + error);
  return tensor;
}

static FailureOr<SmallVector<Tensor>>
readTensorArguments(ArrayRef<std::string> texts, StringRef what, Context &ctx) {
  SmallVector<Tensor> tensors;
  for (auto [i, text] : llvm::enumerate(texts)) {
    FailureOr<Tensor> tensor =
        readTensorArgument(text, (what + " " + llvm::Twine(i)).str(), ctx);
    if (failed(tensor))
      return failure();
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

/// Canonicalizes and CSEs an onnx-dialect module read from text, as the
/// import does for ONNX models, so that both reach lowering alike.
static LogicalResult canonicalize(ModuleOp module, llvm::raw_ostream *irDump) {
  PassManager pm(module->getContext());
  if (irDump) {
    PassManager::IRPrinting printing;
    printing.afterAll = true;
    printing.os = irDump;
    pm.enableIRPrinting(std::move(printing));
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  return pm.run(module);
}

/// Imports and canonicalizes an ONNX model, or parses and verifies a module
/// (and canonicalizes it if it is in the onnx dialect and `lowered`, that
/// is, bound for the Vulkan backend).
static OwningOpRef<ModuleOp> loadModule(const Options &options,
                                        ArrayRef<Tensor> inputs, Context &ctx,
                                        llvm::SourceMgr &sourceMgr) {
  llvm::raw_ostream *irDump = options.printIRAfterAll ? &llvm::errs() : nullptr;
  StringRef extension = llvm::sys::path::extension(options.modelPath);
  if (extension == ".onnx") {
    ModelLoadOptions loadOptions;
    std::string error;
    if (failed(parseDimBindings(options.bindDims, loadOptions.dimBindings,
                                error))) {
      reportError("--bind-dims: " + error);
      return nullptr;
    }
    loadOptions.irDump = irDump;
    return loadOnnxModel(options.modelPath, &ctx, inputs, loadOptions);
  }
  if (extension != ".mlir") {
    reportError("'" + options.modelPath +
                "' is neither an ONNX model (.onnx) nor a module (.mlir)");
    return nullptr;
  }
  if (!options.bindDims.empty()) {
    reportError("--bind-dims applies to ONNX models only");
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(options.modelPath);
  if (!buffer) {
    reportError("cannot read '" + options.modelPath +
                "': " + buffer.getError().message());
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile(sourceMgr, &ctx);
  if (!module || failed(verify(*module)))
    return nullptr;
  if (options.backend == Backend::Vulkan && !isGpuModule(*module) &&
      failed(canonicalize(*module, irDump)))
    return nullptr;
  return module;
}

/// Prints every Vulkan device with its number and whether onyx can use it.
static LogicalResult listDevices(const Options &options) {
  Context ctx;
  runtime::InstanceOptions instanceOptions;
  instanceOptions.validation = options.validate;
  instanceOptions.loaderLibrary = options.vulkanLoader;
  FailureOr<std::unique_ptr<runtime::Instance>> instance =
      runtime::Instance::create(&ctx, instanceOptions);
  if (failed(instance))
    return failure();
  ArrayRef<runtime::DeviceInfo> devices = (*instance)->getDevices();
  if (devices.empty()) {
    llvm::outs() << "no Vulkan device\n";
    return success();
  }
  const runtime::DeviceInfo *chosen = nullptr;
  {
    // Without a usable device, selectDevice reports why; the list says it.
    ScopedDiagnosticCollector quiet(&ctx);
    FailureOr<const runtime::DeviceInfo *> selected =
        (*instance)->selectDevice();
    if (succeeded(selected))
      chosen = *selected;
  }
  for (const runtime::DeviceInfo &info : devices) {
    llvm::outs() << info.index << ": " << info.describe() << ": ";
    if (!info.isUsable())
      llvm::outs() << "unusable: " << info.unusableReason << '\n';
    else
      llvm::outs() << "usable" << (&info == chosen ? " (default)" : "") << '\n';
  }
  return success();
}

/// Converts the inputs once, so that --benchmark times only the runs.
static std::vector<runtime::HostTensor> toHostTensors(FuncOp func,
                                                      ArrayRef<Tensor> inputs) {
  std::vector<runtime::HostTensor> hostInputs;
  for (auto [input, type] :
       llvm::zip(inputs, func.getFunctionType().getInputs()))
    hostInputs.push_back(toHostTensor(input, cast<RankedTensorType>(type)));
  return hostInputs;
}

/// Runs `exe` once to warm up, then `runs` times, timing each run.
static FailureOr<BenchmarkTimes>
benchmark(runtime::Executable &exe, ArrayRef<runtime::HostTensor> hostInputs,
          unsigned runs) {
  BenchmarkTimes times;
  if (failed(exe.run(hostInputs)))
    return failure();
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
  }
  return times;
}

/// What the front half hands to a backend: the module, @main and the
/// tensors of the command line, checked against @main's signature.
struct Prepared {
  OwningOpRef<ModuleOp> module;
  FuncOp main;
  SmallVector<Tensor> inputs;
  SmallVector<Tensor> expected;
};

static FailureOr<Prepared> prepare(const Options &options, Context &ctx,
                                   llvm::SourceMgr &sourceMgr) {
  Prepared prepared;
  FailureOr<SmallVector<Tensor>> inputs =
      readTensorArguments(options.inputs, "input", ctx);
  if (failed(inputs))
    return failure();
  FailureOr<SmallVector<Tensor>> expected =
      readTensorArguments(options.expectedOutputs, "expected output", ctx);
  if (failed(expected))
    return failure();
  prepared.inputs = std::move(*inputs);
  prepared.expected = std::move(*expected);

  prepared.module = loadModule(options, prepared.inputs, ctx, sourceMgr);
  if (!prepared.module)
    return failure();
  prepared.main =
      dyn_cast_or_null<FuncOp>(prepared.module.get().lookupSymbol("main"));
  if (!prepared.main) {
    reportError("'" + options.modelPath + "' has no func.func @main");
    return failure();
  }
  FunctionType type = prepared.main.getFunctionType();
  std::string error;
  if (failed(checkInputs(type.getInputs(), prepared.inputs, error))) {
    reportError(error);
    return failure();
  }
  size_t numResults = type.getResults().size();
  if (!prepared.expected.empty() && prepared.expected.size() != numResults) {
    reportError("got " + llvm::Twine(prepared.expected.size()) +
                " expected outputs for the " + llvm::Twine(numResults) +
                " outputs of @main");
    return failure();
  }
  if (options.outputs.size() > numResults) {
    reportError("got " + llvm::Twine(options.outputs.size()) +
                " --output files for the " + llvm::Twine(numResults) +
                " outputs of @main");
    return failure();
  }
  return prepared;
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
  FailureOr<SmallVector<Tensor>> results =
      runReference(prepared->main, prepared->inputs);
  if (failed(results))
    return failure();
  return report(options, *results, prepared->expected, ctx);
}

/// Everything of a Vulkan run up to the validation report: the Executable
/// and the module are gone when it returns.
static LogicalResult runOnVulkan(const Options &options, Context &ctx,
                                 llvm::SourceMgr &sourceMgr,
                                 const VulkanBackend &backend) {
  FailureOr<Prepared> prepared = prepare(options, ctx, sourceMgr);
  if (failed(prepared))
    return failure();
  ModuleOp module = *prepared->module;

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
          runReference(prepared->main, prepared->inputs);
      if (failed(results))
        return failure();
      reference = std::move(*results);
    }
    refineArgumentTypes(prepared->main, prepared->inputs);
    if (failed(backend.lower(module, options.printIRAfterAll ? &llvm::errs()
                                                             : nullptr)))
      return failure();
  }

  runtime::LoadOptions loadOptions;
  // Benchmarks report device time too where the device has timestamps.
  loadOptions.profile =
      options.profile ||
      (options.benchmarkRuns && backend.getDeviceInfo().hasTimestamps);
  FailureOr<std::unique_ptr<runtime::Executable>> exe =
      runtime::Executable::load(backend.getDevice(), module, loadOptions);
  if (failed(exe))
    return failure();
  std::vector<runtime::HostTensor> hostInputs =
      toHostTensors((*exe)->getFunction(), prepared->inputs);
  FailureOr<std::vector<runtime::HostTensor>> hostResults =
      (*exe)->run(hostInputs);
  if (failed(hostResults))
    return failure();
  SmallVector<Tensor> results;
  for (auto [i, hostResult] : llvm::enumerate(*hostResults)) {
    FailureOr<Tensor> result = fromHostTensor(hostResult);
    if (failed(result)) {
      std::string type;
      llvm::raw_string_ostream(type) << Type(hostResult.type);
      reportError("output " + llvm::Twine(i) + " has type " + type +
                  ", which onyx-run cannot print or compare");
      return failure();
    }
    results.push_back(std::move(*result));
  }

  bool passed = succeeded(report(options, results, prepared->expected, ctx));
  if (options.check)
    passed &= succeeded(
        checkOutputs(results, reference, options.tolerance, " vs ref"));
  if (options.benchmarkRuns) {
    FailureOr<BenchmarkTimes> times =
        benchmark(**exe, hostInputs, options.benchmarkRuns);
    if (failed(times))
      return failure();
    printBenchmark(*times);
  }
  if (options.profile) {
    printProfile((*exe)->getProfile());
    printArenaUse(measureArena((*exe)->getFunction()));
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
        options.validate || options.device) {
      reportError("--check, --benchmark, --profile, --validate and --device "
                  "apply to --backend=vulkan");
      return failure();
    }
    return runOnReference(options, ctx, sourceMgr);
  }

  VulkanOptions vulkanOptions;
  vulkanOptions.deviceIndex = options.device;
  vulkanOptions.validation = options.validate;
  vulkanOptions.loaderLibrary = options.vulkanLoader;
  FailureOr<std::unique_ptr<VulkanBackend>> backend =
      VulkanBackend::create(&ctx, vulkanOptions);
  if (failed(backend))
    return failure();
  LogicalResult result = runOnVulkan(options, ctx, sourceMgr, **backend);
  if (failed(reportValidation(**backend)))
    return failure();
  return result;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options options = parseCommandLine(argc, argv);
  return failed(runModel(options)) ? 1 : 0;
}

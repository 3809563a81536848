//===- GenerateCommand.cpp - onyx-run --generate --------------------------===//
//
// Generation from the command line: the decoder interface is found in the
// ONNX model's signature, each step runs on the chosen backend, ids are
// printed as they come and the times at the end.
//
// On Vulkan the model is lowered once with its symbolic dimensions and the
// cache stays on the device (DeviceCacheSession); for greedy decoding the
// model is given a result with each step's argmax token before it is
// lowered, so that the device picks the tokens and runs a step ahead of the
// host (--host-sampling reads the logits back instead). A model with an op that
// has no kernel for sizes known only at run time, and the reference
// backend, run each step imported (and on Vulkan lowered and loaded) for its
// own shapes, the cache going through the host (HostCacheSession).
//
//===----------------------------------------------------------------------===//

#include "tools/onyx-run/GenerateCommand.h"
#include "tools/onyx-run/DeviceCacheSession.h"
#include "tools/onyx-run/Generation.h"
#include "tools/onyx-run/RunReport.h"
#include "tools/onyx-run/VulkanBackend.h"

#include "dialect/gpu/GpuDialect.h"
#include "dialect/onnx/OnnxDialect.h"
#include "dialect/onnx/import/Signature.h"
#include "dialect/onnx/io/ModelLoader.h"
#include "dialect/onnx/reference/ReferenceBackend.h"
#include "lowering/Passes.h"

#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/SourceMgrDiagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <numeric>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;

/// Parses one `--prompt-ids=ID,ID,...`; nothing (or blanks) is an empty
/// prompt, which checkPrompts reports.
static FailureOr<SmallVector<int64_t>> parsePromptIds(StringRef text) {
  SmallVector<int64_t> ids;
  if (text.trim().empty())
    return ids;
  SmallVector<StringRef> items;
  text.split(items, ',');
  for (StringRef item : items) {
    int64_t id;
    if (llvm::to_integer(item.trim(), id, 10)) {
      ids.push_back(id);
      continue;
    }
    reportError("--prompt-ids: expected integers separated by commas, got '" +
                item + "'");
    return failure();
  }
  return ids;
}

/// Parses every --prompt-ids: the sequences of the batch.
static FailureOr<SmallVector<SmallVector<int64_t>>>
parsePrompts(ArrayRef<std::string> texts) {
  SmallVector<SmallVector<int64_t>> prompts;
  for (const std::string &text : texts) {
    FailureOr<SmallVector<int64_t>> prompt = parsePromptIds(text);
    if (failed(prompt))
      return failure();
    prompts.push_back(std::move(*prompt));
  }
  return prompts;
}

/// The flags --generate runs with; the others would be ignored.
static LogicalResult checkFlags(const Options &options) {
  if (!options.inputs.empty() || !options.expectedOutputs.empty() ||
      !options.outputs.empty() || options.check || options.benchmarkRuns ||
      !options.bindDims.empty()) {
    reportError("--generate feeds the model itself: it does not take "
                "--input, --expected-output, --output, --check, "
                "--benchmark or --bind-dims");
    return failure();
  }
  if (options.promptIds.empty()) {
    reportError("--generate needs --prompt-ids=ID,ID,...");
    return failure();
  }
  if (llvm::sys::path::extension(options.modelPath) != ".onnx") {
    reportError("--generate needs an ONNX model (.onnx) with the decoder "
                "cache interface; '" +
                options.modelPath + "' is not one");
    return failure();
  }
  if (options.topP <= 0 || options.topP > 1 || options.temperature < 0) {
    reportError("--top-p must be in (0, 1] and --temperature at least 0");
    return failure();
  }
  return success();
}

/// One step: the model imported for the shapes of `inputs` in a Context of
/// its own (so that nothing of a step outlives it but its outputs), run on
/// the reference backend or lowered and run on `vulkan`.
static FailureOr<SmallVector<Tensor>> runStep(const Options &options,
                                              const VulkanBackend *vulkan,
                                              ArrayRef<Tensor> inputs) {
  Context ctx;
  ctx.loadDialect<OnnxDialect>();
  ctx.loadDialect<gpu::GpuDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module =
      loadOnnxModel(options.modelPath, &ctx, inputs, ModelLoadOptions());
  if (!module)
    return failure();
  auto main = dyn_cast_or_null<FuncOp>(module.get().lookupSymbol("main"));
  if (!main) {
    reportError("'" + options.modelPath + "' has no func.func @main");
    return failure();
  }
  if (!vulkan)
    return runReference(main, inputs, {options.maxMemory});

  refineArgumentTypes(main, inputs);
  if (failed(vulkan->lower(*module, nullptr)))
    return failure();
  runtime::LoadOptions loadOptions;
  loadOptions.maxMemory = options.maxMemory;
  FailureOr<std::unique_ptr<runtime::Executable>> exe =
      runtime::Executable::load(vulkan->getDevice(), *module, loadOptions);
  if (failed(exe))
    return failure();
  return runExecutable(**exe, inputs);
}

namespace {
/// The decoder lowered and loaded once, with its symbolic dimensions.
struct CompiledDecoder {
  Context ctx;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<runtime::Executable> exe;
  unsigned kernelsCompiled = 0;
  /// The result with each step's greedy tokens (appendGreedyTokens), if
  /// the device picks them.
  std::optional<unsigned> tokenResult;
  /// The process's count of compiled kernels once this one was lowered.
  unsigned kernelsAfterCompile = 0;
  double compileMs = 0;
};
} // namespace

/// Marks the cache's past arguments as kept in states, so that the lowering
/// writes each present in place into its past's memory
/// (lowering/CacheAppend.cpp) where the model's shape allows.
static void markCacheArguments(ModuleOp module,
                               const DecoderInterface &interface) {
  for (Operation &op : *module.getBody()) {
    auto func = dyn_cast<FuncOp>(&op);
    if (!func || func.isExternal())
      continue;
    for (const DecoderInterface::CacheEntry &entry : interface.cache)
      if (entry.input < func.getNumArguments())
        func.setArgAttr(entry.input, "gpu.state",
                        UnitAttr::get(module->getContext()));
  }
}

/// Lowers the model once for every step, with a result of each step's
/// greedy tokens if `pickOnDevice`; null, with the first reason in `why`, if
/// some op needs its sizes bound (then each step is compiled).
static std::unique_ptr<CompiledDecoder>
compileDecoder(const Options &options, const DecoderInterface &interface,
               const VulkanBackend &vulkan, bool pickOnDevice,
               std::string &why) {
  auto start = std::chrono::steady_clock::now();
  auto compiled = std::make_unique<CompiledDecoder>();
  Context &ctx = compiled->ctx;
  ctx.loadDialect<OnnxDialect>();
  ctx.loadDialect<gpu::GpuDialect>();
  unsigned kernelsBefore = lowering::getNumKernelsCompiled();
  {
    ScopedDiagnosticCollector diags(&ctx);
    compiled->module =
        loadOnnxModel(options.modelPath, &ctx, {}, ModelLoadOptions());
    if (compiled->module)
      markCacheArguments(*compiled->module, interface);
    auto main = compiled->module
                    ? dyn_cast_or_null<FuncOp>(
                          compiled->module.get().lookupSymbol("main"))
                    : FuncOp();
    if (main && pickOnDevice) {
      FailureOr<unsigned> tokens = appendGreedyTokens(main, interface);
      if (failed(tokens)) {
        why = diags.getDiagnostics().empty()
                  ? "the greedy tokens cannot be added to it"
                  : diags.getDiagnostics().front().str();
        return nullptr;
      }
      compiled->tokenResult = *tokens;
    }
    if (compiled->module &&
        failed(vulkan.lower(*compiled->module,
                            options.printIRAfterAll ? &llvm::errs() : nullptr)))
      compiled->module = nullptr;
    if (!compiled->module) {
      why = diags.getDiagnostics().empty()
                ? "it does not import without its inputs"
                : diags.getDiagnostics().front().str();
      return nullptr;
    }
  }
  compiled->kernelsAfterCompile = lowering::getNumKernelsCompiled();
  compiled->kernelsCompiled = compiled->kernelsAfterCompile - kernelsBefore;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  runtime::LoadOptions loadOptions;
  loadOptions.profile = options.profile;
  loadOptions.maxMemory = options.maxMemory;
  FailureOr<std::unique_ptr<runtime::Executable>> exe =
      runtime::Executable::load(vulkan.getDevice(), *compiled->module,
                                loadOptions);
  if (failed(exe)) {
    why = "it does not load";
    return nullptr;
  }
  compiled->exe = std::move(*exe);
  compiled->compileMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  return compiled;
}

/// Where recording time went, and how much of it the device hid.
static void printRecordingProfile(const runtime::Executable &exe) {
  const runtime::ExecutableCounters &c = exe.getCounters();
  if (!c.recordings)
    return;
  unsigned critical = c.recordings - c.recordingsAhead;
  auto each = [](double us, unsigned n) { return n ? us / n : 0.0; };
  llvm::outs() << fmt::format(
      "recordings: {} ahead of their step, while the device ran the step "
      "before ({:.1f} us each); {} on the critical path ({:.1f} us each); {} "
      "kept, {} evicted\n",
      c.recordingsAhead, each(c.aheadMicroseconds, c.recordingsAhead), critical,
      each(c.recordMicroseconds - c.aheadMicroseconds, critical),
      exe.getNumRecordings(), c.recordingsEvicted);
  llvm::outs() << fmt::format(
      "per recording: {:.1f} us of CPU; host ops {:.1f} us, placement {:.1f} "
      "us, descriptor "
      "sets {:.1f} us ({} written, {} reused in all), commands {:.1f} us "
      "(barrier placement {:.1f} us); {:.2f} us per dispatch; buffers grown "
      "{} times ({:.1f} us each, waits for the device included)\n",
      each(c.recordCpuMicroseconds, c.recordings),
      each(c.hostOpsMicroseconds, c.recordings),
      each(c.placeMicroseconds, c.recordings),
      each(c.descriptorMicroseconds, c.recordings), c.descriptorSetsWritten,
      c.descriptorSetsReused, each(c.commandMicroseconds, c.recordings),
      each(c.hazardMicroseconds, c.recordings),
      each(c.recordMicroseconds - c.growMicroseconds, c.recordedDispatches),
      c.bufferGrowths, each(c.growMicroseconds, c.bufferGrowths));
}

/// Prints the ids of a batch of several sequences (one prints its ids as
/// they come): one line per sequence in the order of the prompts.
static void printIds(const GenerationResult &result, bool live) {
  if (live)
    return;
  for (ArrayRef<int64_t> ids : result.ids)
    llvm::outs() << fmt::format("{}\n", fmt::join(ids, " "));
}

static void printTimes(const GenerationResult &result,
                       ArrayRef<SmallVector<int64_t>> prompts) {
  if (prompts.size() == 1) {
    llvm::outs() << fmt::format("prefill: {} tokens in {:.3f} ms\n",
                                prompts.front().size(), result.prefillMs);
  } else {
    SmallVector<size_t> lengths;
    for (ArrayRef<int64_t> prompt : prompts)
      lengths.push_back(prompt.size());
    llvm::outs() << fmt::format(
        "prefill: {} sequences of {} tokens (left-padded to {}) in {:.3f} "
        "ms\n",
        prompts.size(), fmt::join(lengths, ", "),
        *std::max_element(lengths.begin(), lengths.end()), result.prefillMs);
  }
  if (!result.decodeMs.empty()) {
    double total =
        std::accumulate(result.decodeMs.begin(), result.decodeMs.end(), 0.0);
    double perStep = total / double(result.decodeMs.size());
    if (prompts.size() == 1)
      llvm::outs() << fmt::format(
          "decode: {} tokens, {:.3f} ms/token, {:.2f} tokens/s\n",
          result.decodeMs.size(), perStep, 1000 / perStep);
    else
      llvm::outs() << fmt::format(
          "decode: {} steps, {:.3f} ms/step, {} tokens of all sequences, "
          "{:.2f} tokens/s\n",
          result.decodeMs.size(), perStep, result.decodedTokens,
          1000 * double(result.decodedTokens) / total);
  }
  if (result.stoppedAtMaxSeq)
    llvm::outs() << "stopped: the cache is full (--max-seq)\n";
  if (result.allEnded)
    llvm::outs() << fmt::format("stopped: {} emitted the end id (--eos-id)\n",
                                prompts.size() == 1 ? "the sequence"
                                                    : "every sequence");
}

LogicalResult onyx::run::runGeneration(const Options &options,
                                       const VulkanBackend *vulkan) {
  if (failed(checkFlags(options)))
    return failure();
  FailureOr<SmallVector<SmallVector<int64_t>>> prompts =
      parsePrompts(options.promptIds);
  if (failed(prompts))
    return failure();

  FailureOr<ModelSignature> signature = failure();
  {
    Context ctx;
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
    signature = readOnnxSignature(options.modelPath, &ctx);
  }
  if (failed(signature))
    return failure();
  std::string error;
  FailureOr<DecoderInterface> interface =
      DecoderInterface::find(*signature, error);
  if (failed(interface)) {
    reportError(options.modelPath + ": " + error);
    return failure();
  }

  GenerationOptions generation;
  generation.newTokens = options.generate;
  generation.maxSeq = options.maxSeq;
  generation.sampling.temperature = options.temperature;
  generation.sampling.topK = options.topK;
  generation.sampling.topP = options.topP;
  generation.sampling.seed = options.seed;
  generation.eosId = options.eosId;
  generation.hostSampling = options.hostSampling;
  if (failed(checkPrompts(*interface, *prompts, generation, error))) {
    reportError("--prompt-ids: " + error);
    return failure();
  }
  if (failed(checkEndId(*interface, generation, error))) {
    reportError("--eos-id: " + error);
    return failure();
  }

  // A batch of one prints its ids as they come; several sequences print
  // theirs at the end, a line each.
  bool live = prompts->size() == 1;
  bool printed = false;
  auto printId = [&](unsigned, int64_t id) {
    if (!live)
      return;
    llvm::outs() << (printed ? " " : "") << id;
    llvm::outs().flush();
    printed = true;
  };
  auto reportMessage = [](const std::string &message) { reportError(message); };
  // The measured generation: the ids as they come (one prompt), then all of
  // them and the times.
  auto printGeneration = [&](DecoderSession &session) -> LogicalResult {
    FailureOr<GenerationResult> result =
        generate(session, *prompts, generation, printId);
    if (printed)
      llvm::outs() << '\n';
    if (failed(result))
      return failure();
    printIds(*result, live);
    printTimes(*result, *prompts);
    return success();
  };

  // One compiled plan for every step, with the cache on the device.
  std::string why;
  std::unique_ptr<CompiledDecoder> compiled;
  bool pickOnDevice = options.temperature <= 0 && !options.hostSampling;
  if (vulkan)
    compiled = compileDecoder(options, *interface, *vulkan, pickOnDevice, why);
  if (compiled) {
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &compiled->ctx);
    // Whole generations, unprinted, until the warm-up time has passed: the
    // device's clocks ramp from idle, and the load left it idle.
    auto warmupStart = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         warmupStart)
               .count() < options.warmupSeconds) {
      FailureOr<std::unique_ptr<DeviceCacheSession>> warmup =
          DeviceCacheSession::create(*interface, *compiled->exe, options.maxSeq,
                                     reportMessage, int64_t(prompts->size()),
                                     compiled->tokenResult);
      if (failed(warmup) ||
          failed(generate(**warmup, *prompts, generation, nullptr)))
        return failure();
    }
    // --profile's counters are the measured generation's.
    unsigned pipelinesAtLoad = compiled->exe->getCounters().pipelinesCreated;
    compiled->exe->resetRunCounters();
    FailureOr<std::unique_ptr<DeviceCacheSession>> session =
        DeviceCacheSession::create(*interface, *compiled->exe, options.maxSeq,
                                   reportMessage, int64_t(prompts->size()),
                                   compiled->tokenResult);
    if (failed(session) || failed(printGeneration(**session)))
      return failure();
    const runtime::ExecutableCounters &counters = compiled->exe->getCounters();
    llvm::outs() << fmt::format(
        "compiled once: {} kernels in {:.1f} ms, {} pipelines; {} "
        "recordings ({:.1f} us each on average), {} compiles and {} pipelines "
        "created after the load; the cache stayed on the device\n",
        compiled->kernelsCompiled, compiled->compileMs,
        counters.pipelinesCreated, counters.recordings,
        counters.recordings ? counters.recordMicroseconds / counters.recordings
                            : 0.0,
        lowering::getNumKernelsCompiled() - compiled->kernelsAfterCompile,
        counters.pipelinesCreated - pipelinesAtLoad);
    if (options.profile) {
      // The last step's: a decode step's where there was one.
      const runtime::RecordingStats &stats = compiled->exe->getStats();
      // The copies between states and the arena are the cache's, or the
      // tokens' where the device picks them (into their state, and from it
      // into the next step's input_ids).
      unsigned tokenCopies = (*session)->getLastStepTokenCopies();
      std::string tokens =
          (*session)->picksOnDevice()
              ? fmt::format(", {} of the tokens picked on the device",
                            tokenCopies)
              : "";
      llvm::outs() << fmt::format(
          "last step: {} dispatches, {} barriers, {} copies ({} of the "
          "cache{}); GPU span {:.3f} ms; recorded in {:.1f} us\n",
          stats.dispatches, stats.barriers, stats.copies,
          stats.stateCopies - tokenCopies, tokens,
          compiled->exe->getProfileSpan() / 1000,
          counters.lastRecordMicroseconds);
      llvm::outs() << "last step by kernel: "
                   << countDispatchesByKernel(compiled->exe->getProfile())
                   << '\n';
      llvm::outs() << "last step device time by kernel: "
                   << timeDispatchesByKernel(compiled->exe->getProfile())
                   << '\n';
      printRecordingProfile(*compiled->exe);
      // Each dispatch of the last step, as --profile prints a plain run's.
      printProfile(compiled->exe->getProfile());
      const DeviceCacheSession::StepTimes &t = (*session)->getStepTimes();
      if (t.steps && (*session)->picksOnDevice())
        llvm::outs() << fmt::format(
            "decode step on the host, the tokens picked on the device and "
            "the next step launched before they are read: launch (recording "
            "included, while the step before runs) {:.1f} us, waiting for "
            "the oldest step in flight {:.1f} us, reading its tokens {:.1f} "
            "us (averages of {} steps)\n",
            t.launch / t.steps, t.wait / t.steps, t.logits / t.steps, t.steps);
      else if (t.steps)
        llvm::outs() << fmt::format(
            "decode step on the host: launch {:.1f} us, recording the next "
            "{:.1f} us, waiting for the device {:.1f} us, logits {:.1f} us "
            "(averages of {} steps)\n",
            t.launch / t.steps, t.prepare / t.steps, t.wait / t.steps,
            t.logits / t.steps, t.steps);
    }
    return success();
  }

  if (options.profile) {
    reportError("--profile with --generate needs a model that lowers with "
                "symbolic dimensions on Vulkan");
    return failure();
  }
  HostCacheSession session(
      *interface,
      [&](ArrayRef<Tensor> inputs) { return runStep(options, vulkan, inputs); },
      reportMessage);
  if (failed(printGeneration(session)))
    return failure();
  llvm::outs() << "note: each step was imported"
               << (vulkan ? ", compiled and loaded" : "")
               << " for its own shapes, the cache passing through the host";
  if (vulkan)
    llvm::outs() << " (the model does not lower with symbolic dimensions: "
                 << why << ")";
  llvm::outs() << "; the times include that\n";
  return success();
}

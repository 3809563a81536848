//===- Generation.cpp - Token-by-token decoding of a decoder model --------===//

#include "tools/onyx-run/Generation.h"

#include "dialect/onnx/import/Signature.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <vector>

using namespace onyx;
using namespace onyx::onnx;
using namespace onyx::run;

//===----------------------------------------------------------------------===//
// DecoderInterface
//===----------------------------------------------------------------------===//

static std::optional<unsigned> findByName(ArrayRef<ValueSignature> values,
                                          StringRef name) {
  for (auto [i, value] : llvm::enumerate(values))
    if (value.name == name)
      return unsigned(i);
  return std::nullopt;
}

static std::string describeShape(const ValueSignature &value) {
  if (!value.hasShape)
    return "no declared shape";
  SmallVector<std::string> dims;
  for (auto [size, name] : llvm::zip(value.shape, value.dimNames))
    dims.push_back(!name.empty()                 ? name
                   : ShapedType::isDynamic(size) ? "?"
                                                 : std::to_string(size));
  return fmt::format("[{}]", llvm::join(dims, ", "));
}

/// Checks that `value` is a rank-`rank` tensor of an integer (or float)
/// element type; `error` names it otherwise.
static LogicalResult checkValue(const ValueSignature &value, int64_t rank,
                                bool wantFloat, StringRef kind,
                                std::string &error) {
  bool typeOk = value.elementType && (wantFloat ? isFloat(*value.elementType)
                                                : !isFloat(*value.elementType));
  if (!typeOk || !value.hasShape || int64_t(value.shape.size()) != rank) {
    error = fmt::format("{} '{}' must be a rank-{} {} tensor, got {} of {}",
                        kind, value.name, rank, wantFloat ? "float" : "integer",
                        describeShape(value),
                        value.elementType ? getTypeName(*value.elementType)
                                          : StringRef("an unsupported type"));
    return failure();
  }
  return success();
}

FailureOr<DecoderInterface>
DecoderInterface::find(const ModelSignature &signature, std::string &error) {
  DecoderInterface interface;
  interface.numInputs = signature.inputs.size();
  SmallVector<std::string> missing;
  auto input = [&](StringRef name) {
    std::optional<unsigned> index = findByName(signature.inputs, name);
    if (!index)
      missing.push_back(fmt::format("input '{}'", name));
    return index;
  };
  auto output = [&](StringRef name) {
    std::optional<unsigned> index = findByName(signature.outputs, name);
    if (!index)
      missing.push_back(fmt::format("output '{}'", name));
    return index;
  };
  std::optional<unsigned> ids = input("input_ids");
  std::optional<unsigned> mask = input("attention_mask");
  std::optional<unsigned> logits = output("logits");
  interface.positionIds = findByName(signature.inputs, "position_ids");

  SmallVector<std::pair<unsigned, unsigned>> cache;
  for (unsigned layer = 0;; ++layer) {
    bool any = false;
    for (StringRef kind : {"key", "value"}) {
      std::string past = fmt::format("past_key_values.{}.{}", layer, kind);
      std::string present = fmt::format("present.{}.{}", layer, kind);
      std::optional<unsigned> in = findByName(signature.inputs, past);
      std::optional<unsigned> out = findByName(signature.outputs, present);
      any |= in || out;
      if (!in)
        missing.push_back(fmt::format("input '{}'", past));
      if (!out)
        missing.push_back(fmt::format("output '{}'", present));
      if (in && out)
        cache.emplace_back(*in, *out);
    }
    if (!any) {
      // The layer after the last one: what it lacks is not missing.
      missing.resize(missing.size() - 4);
      if (layer == 0)
        missing.push_back("input 'past_key_values.0.key'");
      break;
    }
  }
  if (!missing.empty()) {
    error = "the model does not have the decoder cache interface "
            "(input_ids, attention_mask, past_key_values.{i}.key/value in; "
            "logits, present.{i}.key/value out): missing " +
            llvm::join(missing, ", ");
    return failure();
  }

  // Every input must be one the loop can feed.
  for (auto [i, value] : llvm::enumerate(signature.inputs)) {
    bool known = i == *ids || i == *mask || i == interface.positionIds ||
                 llvm::any_of(cache, [&](auto entry) {
                   return entry.first == unsigned(i);
                 });
    if (!known) {
      error = fmt::format("the model has input '{}', which is not part of "
                          "the decoder cache interface",
                          value.name);
      return failure();
    }
  }

  const ValueSignature &idsValue = signature.inputs[*ids];
  const ValueSignature &maskValue = signature.inputs[*mask];
  const ValueSignature &logitsValue = signature.outputs[*logits];
  if (failed(checkValue(idsValue, 2, false, "input", error)) ||
      failed(checkValue(maskValue, 2, false, "input", error)) ||
      failed(checkValue(logitsValue, 3, true, "output", error)))
    return failure();
  interface.inputIds = *ids;
  interface.attentionMask = *mask;
  interface.idType = *idsValue.elementType;
  interface.maskType = *maskValue.elementType;
  interface.logits = *logits;
  if (!ShapedType::isDynamic(idsValue.shape[0]))
    interface.batchSize = idsValue.shape[0];
  if (!ShapedType::isDynamic(logitsValue.shape[2]))
    interface.vocabSize = logitsValue.shape[2];
  if (interface.positionIds) {
    const ValueSignature &value = signature.inputs[*interface.positionIds];
    if (failed(checkValue(value, 2, false, "input", error)))
      return failure();
    interface.positionType = *value.elementType;
  }

  for (auto [in, out] : cache) {
    const ValueSignature &past = signature.inputs[in];
    const ValueSignature &present = signature.outputs[out];
    if (failed(checkValue(past, 4, true, "input", error)) ||
        failed(checkValue(present, 4, true, "output", error)))
      return failure();
    if (ShapedType::isDynamic(past.shape[1]) ||
        ShapedType::isDynamic(past.shape[3])) {
      error = fmt::format("input '{}' is {}: the cache needs fixed head and "
                          "head-size dimensions ([batch, heads, past, "
                          "head_size])",
                          past.name, describeShape(past));
      return failure();
    }
    if (past.elementType != present.elementType) {
      error = fmt::format("input '{}' and output '{}' differ in element type",
                          past.name, present.name);
      return failure();
    }
    CacheEntry entry;
    entry.pastName = past.name;
    entry.input = in;
    entry.output = out;
    entry.elementType = *past.elementType;
    entry.heads = past.shape[1];
    entry.headDim = past.shape[3];
    interface.cache.push_back(std::move(entry));
  }
  return interface;
}

//===----------------------------------------------------------------------===//
// HostCacheSession
//===----------------------------------------------------------------------===//

DecoderSession::~DecoderSession() = default;

LogicalResult DecoderSession::launchGreedy(const DecoderStep &, bool) {
  llvm_unreachable("the session does not pick tokens on the device");
}

FailureOr<SmallVector<int64_t>> DecoderSession::finishGreedy() {
  llvm_unreachable("the session does not pick tokens on the device");
}

HostCacheSession::HostCacheSession(DecoderInterface interface,
                                   StepFunction step, ErrorFunction report)
    : interface(std::move(interface)), step(std::move(step)),
      report(std::move(report)) {}

static std::string formatShape(ArrayRef<int64_t> shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

FailureOr<SmallVector<float>>
HostCacheSession::forward(const DecoderStep &tokens, unsigned) {
  int64_t seq = tokens.seq;
  int64_t total = pastLength + seq;
  if (pastLength == 0) {
    // The first step sets the batch; the cache starts empty.
    batch = tokens.batch;
    cache.clear();
    for (const DecoderInterface::CacheEntry &entry : interface.cache)
      cache.emplace_back(
          entry.elementType,
          ArrayRef<int64_t>{batch, entry.heads, 0, entry.headDim});
  }
  assert(tokens.batch == batch && "the batch changed during a generation");
  assert(int64_t(tokens.ids.size()) == batch * seq &&
         int64_t(tokens.mask.size()) == batch * total &&
         int64_t(tokens.positions.size()) == batch * seq &&
         "step inputs of the wrong size");
  SmallVector<Tensor> inputs(interface.numInputs);
  inputs[interface.inputIds] =
      Tensor::fromInts(interface.idType, {batch, seq}, tokens.ids);
  inputs[interface.attentionMask] =
      Tensor::fromInts(interface.maskType, {batch, total}, tokens.mask);
  if (interface.positionIds)
    inputs[*interface.positionIds] = Tensor::fromInts(
        interface.positionType, {batch, seq}, tokens.positions);
  for (auto [entry, tensor] : llvm::zip(interface.cache, cache))
    inputs[entry.input] = tensor;

  FailureOr<SmallVector<Tensor>> outputs = step(inputs);
  if (failed(outputs))
    return failure();

  const Tensor &logits = (*outputs)[interface.logits];
  ArrayRef<int64_t> shape = logits.getShape();
  if (shape.size() != 3 || shape[0] != batch || shape[1] != seq) {
    report(fmt::format("output 'logits' is {}, expected [{}, {}, vocab]",
                       formatShape(shape), batch, seq));
    return failure();
  }
  int64_t vocab = shape[2];
  SmallVector<float> last(batch * vocab);
  for (int64_t row = 0; row < batch; ++row) {
    int64_t offset = (row * seq + seq - 1) * vocab;
    for (int64_t i = 0; i < vocab; ++i)
      last[row * vocab + i] = float(logits.getDouble(offset + i));
  }

  for (auto [entry, tensor] : llvm::zip(interface.cache, cache)) {
    const Tensor &present = (*outputs)[entry.output];
    SmallVector<int64_t> expected = {batch, entry.heads, total, entry.headDim};
    if (present.getShape() != ArrayRef<int64_t>(expected)) {
      report(fmt::format("the present of '{}' is {}, expected {}",
                         entry.pastName, formatShape(present.getShape()),
                         formatShape(expected)));
      return failure();
    }
    tensor = present;
  }
  pastLength = total;
  return last;
}

//===----------------------------------------------------------------------===//
// Sampling
//===----------------------------------------------------------------------===//

/// The index of the first largest element, as std::max_element gives it
/// (a NaN counts only as the first element), in two passes that vectorize:
/// the largest value over eight independent lanes, then the first element
/// equal to it. A greedy step spends this on a vocabulary of 50,000 logits
/// every token: std::max_element's single chain of compares took ten times
/// as long for 50,257 of them (x86-64, -O2).
static int64_t argmax(ArrayRef<float> logits) {
  float best = logits.front();
  if (std::isnan(best))
    return 0;
  constexpr size_t kLanes = 8;
  float lanes[kLanes];
  std::fill(std::begin(lanes), std::end(lanes), best);
  size_t n = logits.size(), i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (size_t l = 0; l < kLanes; ++l)
      lanes[l] = logits[i + l] > lanes[l] ? logits[i + l] : lanes[l];
  for (float lane : lanes)
    best = lane > best ? lane : best;
  for (; i < n; ++i)
    best = logits[i] > best ? logits[i] : best;
  return std::find(logits.begin(), logits.end(), best) - logits.begin();
}

Sampler::Sampler(const SamplingOptions &options)
    : options(options), rng(options.seed) {}

int64_t Sampler::sample(ArrayRef<float> logits) {
  assert(!logits.empty() && "no logits to sample from");
  if (options.temperature <= 0)
    return argmax(logits);

  SmallVector<int64_t> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  // Largest first; equal logits keep the lower id first.
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return logits[a] > logits[b]; });
  if (options.topK && options.topK < order.size())
    order.resize(options.topK);

  SmallVector<double> probs;
  double top = logits[order.front()] / options.temperature, sum = 0;
  for (int64_t id : order) {
    probs.push_back(std::exp(logits[id] / options.temperature - top));
    sum += probs.back();
  }
  // The smallest prefix whose probability reaches top-p (at least one).
  size_t keep = probs.size();
  if (options.topP < 1) {
    double cumulative = 0;
    for (size_t i = 0; i < probs.size(); ++i) {
      cumulative += probs[i] / sum;
      if (cumulative >= options.topP) {
        keep = i + 1;
        break;
      }
    }
  }
  double kept = std::accumulate(probs.begin(), probs.begin() + keep, 0.0);
  double draw = std::uniform_real_distribution<double>(0, kept)(rng);
  for (size_t i = 0; i < keep; ++i) {
    draw -= probs[i];
    if (draw < 0)
      return order[i];
  }
  return order[keep - 1];
}

//===----------------------------------------------------------------------===//
// The loop
//===----------------------------------------------------------------------===//

/// Checks one prompt; `error` says what is wrong.
static LogicalResult checkPrompt(const DecoderInterface &interface,
                                 ArrayRef<int64_t> prompt,
                                 const GenerationOptions &options,
                                 std::string &error) {
  if (prompt.empty()) {
    error = "the prompt is empty";
    return failure();
  }
  if (options.maxSeq && int64_t(prompt.size()) > options.maxSeq) {
    error = fmt::format("the prompt has {} tokens, more than --max-seq={}",
                        prompt.size(), options.maxSeq);
    return failure();
  }
  for (auto [i, id] : llvm::enumerate(prompt)) {
    if (id < 0 || (interface.vocabSize && id >= *interface.vocabSize)) {
      error = fmt::format(
          "prompt id {} (at index {}) is outside the vocabulary{}", id, i,
          interface.vocabSize
              ? fmt::format(" of {} tokens (0 to {})", *interface.vocabSize,
                            *interface.vocabSize - 1)
              : "");
      return failure();
    }
  }
  return success();
}

LogicalResult onyx::run::checkPrompts(const DecoderInterface &interface,
                                      ArrayRef<SmallVector<int64_t>> prompts,
                                      const GenerationOptions &options,
                                      std::string &error) {
  if (prompts.empty()) {
    error = "there is no prompt";
    return failure();
  }
  if (interface.batchSize && *interface.batchSize != int64_t(prompts.size())) {
    error = fmt::format("the model's input_ids has a fixed batch of {}; {} "
                        "prompt{} given",
                        *interface.batchSize, prompts.size(),
                        prompts.size() == 1 ? " is" : "s are");
    return failure();
  }
  for (auto [i, prompt] : llvm::enumerate(prompts)) {
    if (succeeded(checkPrompt(interface, prompt, options, error)))
      continue;
    if (prompts.size() > 1)
      error = fmt::format("prompt {} of {}: {}", i + 1, prompts.size(), error);
    return failure();
  }
  return success();
}

LogicalResult onyx::run::checkEndId(const DecoderInterface &interface,
                                    const GenerationOptions &options,
                                    std::string &error) {
  if (!options.eosId ||
      (*options.eosId >= 0 &&
       !(interface.vocabSize && *options.eosId >= *interface.vocabSize)))
    return success();
  error =
      fmt::format("the end id {} is outside the vocabulary{}", *options.eosId,
                  interface.vocabSize ? fmt::format(" of {} tokens (0 to {})",
                                                    *interface.vocabSize,
                                                    *interface.vocabSize - 1)
                                      : "");
  return failure();
}

static double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Greedy generation with the tokens picked on the device, from the prefill
/// `step` on: each decode step is launched before the host reads the tokens
/// of the step before (which it reads on the device), so two steps are in
/// flight and the device goes from one to the next without waiting for the
/// host. The host learns that a sequence ended one step late: that step
/// was launched as if it went on (its row's result is dropped, and rows do
/// not mix), and if every sequence ended it is waited for and discarded.
/// The ids are those generate()'s host loop picks, and so are the
/// stopping rules.
static FailureOr<GenerationResult>
generateAhead(DecoderSession &session, const GenerationOptions &options,
              DecoderStep step, SmallVector<int64_t> nextPosition,
              SmallVector<bool> active,
              const std::function<void(unsigned, int64_t)> &onToken,
              GenerationResult result) {
  result.pickedOnDevice = true;
  int64_t batch = step.batch;
  // The decode steps that may run: the tokens asked for, and those whose
  // positions fit in --max-seq.
  int64_t cacheLength = session.getPastLength() + step.seq;
  int64_t maxSteps = int64_t(options.newTokens) - 1;
  if (options.maxSeq)
    maxSteps =
        std::min(maxSteps, std::max<int64_t>(0, options.maxSeq - cacheLength));
  // Launches the next decode step; a row is fed as active unless the host
  // already knows it ended. Its ids are the tokens the step before picked
  // on the device, or with `fromHost` those the host has.
  int64_t launched = 0;
  auto launchNext = [&](bool fromHost) -> LogicalResult {
    SmallVector<int64_t> mask;
    for (int64_t row = 0; row < batch; ++row) {
      mask.append(step.mask.begin() + row * cacheLength,
                  step.mask.begin() + (row + 1) * cacheLength);
      mask.push_back(active[row] ? 1 : 0);
    }
    step.seq = 1;
    step.mask = std::move(mask);
    step.ids.clear();
    for (int64_t row = 0; row < batch; ++row)
      step.ids.push_back(fromHost && active[row] ? result.ids[row].back()
                                                 : options.padId);
    step.positions.clear();
    for (int64_t row = 0; row < batch; ++row) {
      step.positions.push_back(nextPosition[row]);
      if (active[row])
        ++nextPosition[row];
    }
    ++cacheLength;
    ++launched;
    return session.launchGreedy(step, /*idsFromDevice=*/!fromHost);
  };
  // Takes the oldest step's tokens for the active rows; false once no row
  // is active.
  auto takeTokens = [&]() -> FailureOr<bool> {
    FailureOr<SmallVector<int64_t>> tokens = session.finishGreedy();
    if (failed(tokens))
      return failure();
    bool any = false;
    for (int64_t row = 0; row < batch; ++row) {
      if (!active[row])
        continue;
      int64_t token = (*tokens)[row];
      result.ids[row].push_back(token);
      if (onToken)
        onToken(unsigned(row), token);
      if (options.eosId && token == *options.eosId)
        active[row] = false;
      any |= active[row];
    }
    return any;
  };

  auto start = std::chrono::steady_clock::now();
  // A prefill of one position picks its tokens on the device, and the
  // first decode step reads them there; a longer one's are picked on the
  // host from its logits, which that step waits for.
  bool prefillPicks = step.seq == 1;
  if (failed(session.launchGreedy(step, /*idsFromDevice=*/false)) ||
      (prefillPicks && launched < maxSteps &&
       failed(launchNext(/*fromHost=*/false))))
    return failure();
  FailureOr<bool> any = takeTokens();
  if (failed(any))
    return failure();
  result.prefillMs = millisecondsSince(start);

  for (unsigned produced = 1; produced < options.newTokens; ++produced) {
    if (!*any) {
      result.allEnded = true;
      break;
    }
    if (produced > maxSteps) {
      result.stoppedAtMaxSeq = true;
      break;
    }
    start = std::chrono::steady_clock::now();
    // Step `produced` is in flight (launched now, after a prefill picked on
    // the host): the one after it goes in behind it.
    if (launched < produced && failed(launchNext(/*fromHost=*/true)))
      return failure();
    if (launched < maxSteps && failed(launchNext(/*fromHost=*/false)))
      return failure();
    int64_t activeRows = llvm::count(active, true);
    any = takeTokens();
    if (failed(any))
      return failure();
    result.decodeMs.push_back(millisecondsSince(start));
    result.decodedTokens += activeRows;
  }
  // A step launched for sequences that all ended meanwhile.
  while (session.getNumStepsInFlight()) {
    if (failed(session.finishGreedy()))
      return failure();
    ++result.discardedSteps;
  }
  return result;
}

FailureOr<GenerationResult>
onyx::run::generate(DecoderSession &session,
                    ArrayRef<SmallVector<int64_t>> prompts,
                    const GenerationOptions &options,
                    const std::function<void(unsigned, int64_t)> &onToken) {
  assert(!prompts.empty() && "no prompt to generate from");
  GenerationResult result;
  auto batch = int64_t(prompts.size());
  result.ids.resize(batch);
  if (options.newTokens == 0)
    return result;
  std::vector<Sampler> samplers;
  for (int64_t row = 0; row < batch; ++row) {
    SamplingOptions sampling = options.sampling;
    sampling.seed += uint64_t(row);
    samplers.emplace_back(sampling);
  }

  // The prefill: every prompt left-padded to the longest. Positions count
  // a row's real tokens only (the padding sits at position 1, as Hugging
  // Face's generate puts it).
  int64_t longest = 0;
  for (ArrayRef<int64_t> prompt : prompts)
    longest = std::max(longest, int64_t(prompt.size()));
  int64_t past = session.getPastLength();
  DecoderStep step;
  step.batch = batch;
  step.seq = longest;
  // Per row: the next position, and whether the row still generates.
  SmallVector<int64_t> nextPosition(batch);
  SmallVector<bool> active(batch, true);
  for (auto [row, prompt] : llvm::enumerate(prompts)) {
    int64_t padding = longest - int64_t(prompt.size());
    step.ids.append(padding, options.padId);
    step.ids.append(prompt.begin(), prompt.end());
    step.mask.append(past, 1);
    step.mask.append(padding, 0);
    step.mask.append(prompt.size(), 1);
    step.positions.append(padding, 1);
    for (int64_t i = 0; i < int64_t(prompt.size()); ++i)
      step.positions.push_back(past + i);
    nextPosition[row] = past + int64_t(prompt.size());
  }

  // Samples each active row's token from `logits` [batch, vocab]; false
  // once no row is active.
  auto sampleRows = [&](ArrayRef<float> logits) {
    int64_t vocab = int64_t(logits.size()) / batch;
    bool any = false;
    for (int64_t row = 0; row < batch; ++row) {
      if (!active[row])
        continue;
      int64_t token = samplers[row].sample(logits.slice(row * vocab, vocab));
      result.ids[row].push_back(token);
      if (onToken)
        onToken(unsigned(row), token);
      if (options.eosId && token == *options.eosId)
        active[row] = false;
      any |= active[row];
    }
    return any;
  };
  // The next step: each row's last token, padding for a row that ended.
  auto nextStep = [&] {
    step.seq = 1;
    SmallVector<int64_t> mask;
    int64_t total = session.getPastLength() + 1;
    for (int64_t row = 0; row < batch; ++row) {
      mask.append(step.mask.begin() + row * (total - 1),
                  step.mask.begin() + (row + 1) * (total - 1));
      mask.push_back(active[row] ? 1 : 0);
    }
    step.mask = std::move(mask);
    step.ids.clear();
    step.positions.clear();
    for (int64_t row = 0; row < batch; ++row) {
      step.ids.push_back(active[row] ? result.ids[row].back() : options.padId);
      step.positions.push_back(nextPosition[row]);
      if (active[row])
        ++nextPosition[row];
    }
  };

  if (session.picksOnDevice() && options.sampling.temperature <= 0 &&
      !options.hostSampling)
    return generateAhead(session, options, step, nextPosition, active, onToken,
                         std::move(result));

  auto start = std::chrono::steady_clock::now();
  // The cache holds the prompts once the prefill ran: a decode step follows
  // if one more token fits.
  bool prefillFollowed =
      options.newTokens > 1 &&
      !(options.maxSeq && past + longest + 1 > options.maxSeq);
  FailureOr<SmallVector<float>> logits =
      session.forward(step, prefillFollowed ? 1 : 0);
  if (failed(logits))
    return failure();
  bool any = sampleRows(*logits);
  result.prefillMs = millisecondsSince(start);

  for (unsigned produced = 1; produced < options.newTokens; ++produced) {
    if (!any) {
      result.allEnded = true;
      break;
    }
    if (options.maxSeq && session.getPastLength() + 1 > options.maxSeq) {
      result.stoppedAtMaxSeq = true;
      break;
    }
    start = std::chrono::steady_clock::now();
    nextStep();
    // After this step the cache holds one more position. (A step prepared
    // for a batch whose every row then ends is not run.)
    bool followed =
        produced + 1 < options.newTokens &&
        !(options.maxSeq && session.getPastLength() + 2 > options.maxSeq);
    int64_t activeRows = llvm::count(active, true);
    logits = session.forward(step, followed ? 1 : 0);
    if (failed(logits))
      return failure();
    any = sampleRows(*logits);
    result.decodeMs.push_back(millisecondsSince(start));
    result.decodedTokens += activeRows;
  }
  return result;
}

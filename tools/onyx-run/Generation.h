//===- Generation.h - Token-by-token decoding of a decoder model -*- C++
//-*-===//
//
// Text generation with a decoder-only model in the cache interface of ONNX
// exporters (input_ids, attention_mask, position_ids and
// past_key_values.{i}.key/value in; logits and present.{i}.key/value out):
// one prefill pass over the prompts, then one decode step per new token,
// each sampled from the last position's logits.
//
// Several prompts run as one batch, left-padded as Hugging Face's generate
// pads them for decoder-only models: a shorter prompt's row starts with
// padding (attention_mask 0, position_ids 1), its real tokens at positions
// 0, 1, ..., so that every row's last prompt token is the prefill's last
// position and every row gains one position per decode step. A sequence
// that emits the end id (GenerationOptions::eosId) stops: its row is fed
// padding (attention_mask 0) while the others continue.
//
// The loop knows nothing of backends. A DecoderSession runs the model: it
// owns the cache and turns a step's token inputs into each row's last
// logits. HostCacheSession keeps the cache in host tensors and feeds each
// step's present back as the next step's past through a StepFunction (how
// the reference backend, and a backend that compiles each step's shapes,
// run the model); a session that keeps the cache on the device implements
// DecoderSession itself.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialect/onnx/Tensor.h"

#include <functional>
#include <memory>
#include <random>
#include <string>

namespace onyx::onnx {
struct ModelSignature;
} // namespace onyx::onnx

namespace onyx::run {

/// Where a decoder's cache interface sits in a model's signature.
struct DecoderInterface {
  struct CacheEntry {
    /// "past_key_values.3.value" and the matching "present.3.value".
    std::string pastName;
    unsigned input = 0;
    unsigned output = 0;
    onnx::ElementType elementType = onnx::ElementType::F32;
    /// [batch, heads, past, headDim]: the fixed sizes.
    int64_t heads = 0;
    int64_t headDim = 0;
  };

  unsigned numInputs = 0;
  unsigned inputIds = 0;
  unsigned attentionMask = 0;
  /// Models with rotary or learned positions take them; absent otherwise.
  std::optional<unsigned> positionIds;
  onnx::ElementType idType = onnx::ElementType::I64;
  onnx::ElementType maskType = onnx::ElementType::I64;
  onnx::ElementType positionType = onnx::ElementType::I64;
  /// The batch input_ids declares; nullopt if symbolic.
  std::optional<int64_t> batchSize;
  unsigned logits = 0;
  /// The vocabulary size, the last dimension of logits; nullopt if symbolic.
  std::optional<int64_t> vocabSize;
  SmallVector<CacheEntry> cache;

  /// Finds the interface in `signature`, or says in `error` what is missing
  /// or malformed (every missing name at once).
  static FailureOr<DecoderInterface> find(const onnx::ModelSignature &signature,
                                          std::string &error);
};

/// Runs the model once on host tensors (one per input of the interface's
/// signature, in order) and returns every output.
/// It reports its errors itself before failing.
using StepFunction =
    std::function<FailureOr<SmallVector<onnx::Tensor>>(ArrayRef<onnx::Tensor>)>;
/// Reports an error that has no location.
using ErrorFunction = std::function<void(const std::string &)>;

/// The token inputs of one step, for every row of the batch (row-major).
struct DecoderStep {
  int64_t batch = 1;
  /// New positions per row.
  int64_t seq = 0;
  /// input_ids [batch, seq].
  SmallVector<int64_t> ids;
  /// attention_mask [batch, past + seq]: 1 for a real token, 0 for padding.
  SmallVector<int64_t> mask;
  /// position_ids [batch, seq].
  SmallVector<int64_t> positions;
};

/// A decoder with its cache: feeds tokens, returns logits.
class DecoderSession {
public:
  virtual ~DecoderSession();
  /// Runs `step` after the getPastLength() positions the cache holds, adds
  /// its keys and values to the cache and returns the logits of each row's
  /// last position, [batch, vocab] row-major. The batch is the first step's
  /// for the whole generation. `nextTokens` is how many tokens per row the
  /// next call will feed (0: none follows), so that a session may prepare
  /// that step while this one runs. Errors are reported before failing.
  virtual FailureOr<SmallVector<float>> forward(const DecoderStep &step,
                                                unsigned nextTokens) = 0;
  /// How many positions the cache holds (once the steps launched ran).
  virtual int64_t getPastLength() const = 0;

  /// Whether the session picks greedy tokens itself, on the device, and
  /// runs a step ahead: then greedy generation goes through launchGreedy()
  /// and finishGreedy() instead of forward(), and no logits reach the host.
  virtual bool picksOnDevice() const { return false; }
  /// Starts `step` without waiting for it, after the steps launched before
  /// it. A step of one position picks its tokens on the device; a longer
  /// one (a prefill) has them picked from its logits when it finishes. With
  /// `idsFromDevice`, the step's input_ids are the tokens the step before
  /// picked on the device (`step.ids` is not read): it may be launched
  /// before that step finished. Errors are reported before failing.
  virtual LogicalResult launchGreedy(const DecoderStep &step,
                                     bool idsFromDevice);
  /// Waits for the oldest step launched and returns each row's greedy token
  /// (the first largest logit of its last position, as Sampler picks it).
  virtual FailureOr<SmallVector<int64_t>> finishGreedy();
  /// Steps launched and not finished.
  virtual unsigned getNumStepsInFlight() const { return 0; }
};

/// A session whose cache lives in host tensors, starting empty.
class HostCacheSession : public DecoderSession {
public:
  /// `report` tells of outputs that do not fit the interface.
  HostCacheSession(DecoderInterface interface, StepFunction step,
                   ErrorFunction report);
  FailureOr<SmallVector<float>> forward(const DecoderStep &step,
                                        unsigned nextTokens) override;
  int64_t getPastLength() const override { return pastLength; }

private:
  DecoderInterface interface;
  StepFunction step;
  ErrorFunction report;
  /// One per cache entry, [batch, heads, pastLength, headDim].
  SmallVector<onnx::Tensor> cache;
  int64_t pastLength = 0;
  int64_t batch = 0;
};

/// How the next token is picked from the logits. Greedy (the first largest
/// logit) unless temperature > 0; then the logits are divided by the
/// temperature, cut to the topK largest (0: all) and to the smallest set
/// whose probability reaches topP (1: all), and one is drawn.
struct SamplingOptions {
  double temperature = 0;
  unsigned topK = 0;
  double topP = 1;
  uint64_t seed = 0;
};

class Sampler {
public:
  explicit Sampler(const SamplingOptions &options);
  int64_t sample(ArrayRef<float> logits);

private:
  SamplingOptions options;
  std::mt19937_64 rng;
};

struct GenerationOptions {
  /// New tokens to generate per sequence: the prefill yields the first,
  /// each decode step one more.
  unsigned newTokens = 0;
  /// Positions the cache may hold, the longest prompt included (0: no
  /// limit); generation stops when the next token would not fit.
  int64_t maxSeq = 0;
  /// The end id: a sequence that emits it stops (the id is kept).
  std::optional<int64_t> eosId;
  /// The id fed where a row is padding (attention_mask 0): before a shorter
  /// prompt, and after a sequence's end. Masked, it changes no sequence.
  int64_t padId = 0;
  /// Sequence i samples with the seed sampling.seed + i.
  SamplingOptions sampling;
  /// Greedy tokens are picked on the host from the logits even where the
  /// session could pick them on the device (onyx-run --host-sampling).
  bool hostSampling = false;
};

struct GenerationResult {
  /// The new ids of each sequence, in the order of the prompts; one that
  /// ended stops at its end id.
  SmallVector<SmallVector<int64_t>> ids;
  double prefillMs = 0;
  /// One per decode step.
  SmallVector<double> decodeMs;
  /// Tokens the decode steps produced, over all sequences.
  int64_t decodedTokens = 0;
  /// Whether --max-seq stopped the generation early.
  bool stoppedAtMaxSeq = false;
  /// Whether every sequence emitted the end id before the last token.
  bool allEnded = false;
  /// Whether the tokens were picked on the device, a step running ahead
  /// (DecoderSession::picksOnDevice), and the steps launched whose tokens
  /// were not needed (at most one: the sequences ended before it).
  bool pickedOnDevice = false;
  unsigned discardedSteps = 0;
};

/// Checks the prompts (at least one) against the vocabulary and
/// `options.maxSeq`; `error` says what is wrong, naming the prompt ("prompt 2
/// of 3: ...") when there are several.
LogicalResult checkPrompts(const DecoderInterface &interface,
                           ArrayRef<SmallVector<int64_t>> prompts,
                           const GenerationOptions &options,
                           std::string &error);

/// Checks `options.eosId` (if any) against the vocabulary; `error` says
/// what is wrong.
LogicalResult checkEndId(const DecoderInterface &interface,
                         const GenerationOptions &options, std::string &error);

/// Prefills `prompts` as one left-padded batch, then decodes; `onToken`
/// sees each id as it comes with the number of its sequence. Greedy
/// decoding with a session that picksOnDevice() keeps two steps in flight:
/// step t + 1 is launched, reading step t's tokens on the device, before
/// the host reads them, so the device does not wait for the host between
/// steps; the ids are those of the host's pick.
FailureOr<GenerationResult>
generate(DecoderSession &session, ArrayRef<SmallVector<int64_t>> prompts,
         const GenerationOptions &options,
         const std::function<void(unsigned, int64_t)> &onToken = {});

} // namespace onyx::run

//===- Generation.h - Token-by-token decoding of a decoder model -*- C++
//-*-===//
//
// Text generation with a decoder-only model in the cache interface of ONNX
// exporters (input_ids, attention_mask, position_ids and
// past_key_values.{i}.key/value in; logits and present.{i}.key/value out):
// one prefill pass over the prompt, then one decode step per new token,
// each sampled from the last position's logits.
//
// The loop knows nothing of backends. A DecoderSession runs the model: it
// owns the cache and turns new token ids into the last position's logits.
// HostCacheSession keeps the cache in host tensors and feeds each step's
// present back as the next step's past through a StepFunction (how the
// reference backend, and a backend that compiles each step's shapes, run
// the model); a session that keeps the cache on the device implements
// DecoderSession itself. Batch 1.
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

/// A decoder with its cache: feeds tokens, returns logits.
class DecoderSession {
public:
  virtual ~DecoderSession();
  /// Runs `ids` at positions getPastLength() ... + ids.size() - 1, adds their
  /// keys and values to the cache and returns the logits of the last one.
  /// `nextTokens` is how many tokens the next call will feed (0: none
  /// follows), so that a session may prepare that step while this one
  /// runs. Errors are reported before failing.
  virtual FailureOr<SmallVector<float>> forward(ArrayRef<int64_t> ids,
                                                unsigned nextTokens) = 0;
  /// How many positions the cache holds.
  virtual int64_t getPastLength() const = 0;
};

/// A session whose cache lives in host tensors, starting empty.
class HostCacheSession : public DecoderSession {
public:
  /// `report` tells of outputs that do not fit the interface.
  HostCacheSession(DecoderInterface interface, StepFunction step,
                   ErrorFunction report);
  FailureOr<SmallVector<float>> forward(ArrayRef<int64_t> ids,
                                        unsigned nextTokens) override;
  int64_t getPastLength() const override { return pastLength; }

private:
  DecoderInterface interface;
  StepFunction step;
  ErrorFunction report;
  /// One per cache entry, [1, heads, pastLength, headDim].
  SmallVector<onnx::Tensor> cache;
  int64_t pastLength = 0;
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
  /// New tokens to generate: the prefill yields the first, each decode step
  /// one more.
  unsigned newTokens = 0;
  /// Positions the cache may hold, prompt included (0: no limit);
  /// generation stops when the next token would not fit.
  int64_t maxSeq = 0;
  SamplingOptions sampling;
};

struct GenerationResult {
  SmallVector<int64_t> ids;
  double prefillMs = 0;
  /// One per decode step.
  SmallVector<double> decodeMs;
  /// Whether --max-seq stopped the generation early.
  bool stoppedAtMaxSeq = false;
};

/// Checks the prompt against the vocabulary and `options.maxSeq`; `error`
/// says what is wrong.
LogicalResult checkPrompt(const DecoderInterface &interface,
                          ArrayRef<int64_t> prompt,
                          const GenerationOptions &options, std::string &error);

/// Prefills `prompt`, then decodes; `onToken` sees each id as it comes.
FailureOr<GenerationResult>
generate(DecoderSession &session, ArrayRef<int64_t> prompt,
         const GenerationOptions &options,
         const std::function<void(int64_t)> &onToken = {});

} // namespace onyx::run

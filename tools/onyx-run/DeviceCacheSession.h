//===- DeviceCacheSession.h - A decoder whose cache stays on the GPU -*- C++
//-*-===//
//
// Generation with one compiled plan: the model is lowered once with its
// symbolic dimensions (batch, sequence, past length), and each step runs the
// same Executable at new shapes, which compiles nothing and creates no
// pipeline. The key/value cache never goes through the host: each present
// output is kept in a runtime state (Executable.h) that the next step's past
// input reads, device to device, and only the last position's logits are
// read back. A batch of sequences shares the states: the cache is laid out
// positions outermost (lowering/CacheAppend.cpp), every row one position
// longer per step. While the device runs a decode step, the host records the
// next one (its shapes are known before its token), so that the token's
// critical path is the input copy, the submission and the wait.
//
// Greedy decoding goes further where the model was given a token result
// (appendGreedyTokens): each step picks its tokens on the device and leaves
// them in a state that the next step's input_ids reads, so the next step is
// launched before the host has read them, and the host reads one id per
// sequence instead of the logits (DecoderSession::launchGreedy).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/onyx-run/Generation.h"

#include "runtime/Executable.h"

#include <deque>

namespace onyx::run {

/// Adds to `main`, the decoder's imported function, a result that holds each
/// sequence's greedy next token, [batch, 1] in input_ids' element type: the
/// argmax of its last position's logits, ties and NaNs going as Sampler's
/// greedy pick has them (the first largest; a NaN only where it is the
/// first logit). Returns its result number. Errors are reported at the
/// function.
FailureOr<unsigned> appendGreedyTokens(FuncOp main,
                                       const DecoderInterface &interface);

class DeviceCacheSession : public DecoderSession {
public:
  /// `exe` runs the decoder's @main, whose signature `interface` describes;
  /// it must outlive the session. Every step feeds `batch` rows. With
  /// `maxSeq` (not 0) the cache's states are allocated for that many
  /// positions of every row at once; otherwise they grow by doubling.
  /// `report` tells of outputs that do not fit the interface.
  /// With `tokenResult` (appendGreedyTokens' result), the session picks
  /// greedy tokens on the device, if the Executable can keep two runs in
  /// flight.
  static FailureOr<std::unique_ptr<DeviceCacheSession>>
  create(DecoderInterface interface, runtime::Executable &exe, int64_t maxSeq,
         ErrorFunction report, int64_t batch = 1,
         std::optional<unsigned> tokenResult = std::nullopt);

  FailureOr<SmallVector<float>> forward(const DecoderStep &step,
                                        unsigned nextTokens) override;
  int64_t getPastLength() const override { return pastLength; }
  bool picksOnDevice() const override { return tokenResult.has_value(); }
  LogicalResult launchGreedy(const DecoderStep &step,
                             bool idsFromDevice) override;
  FailureOr<SmallVector<int64_t>> finishGreedy() override;
  unsigned getNumStepsInFlight() const override { return launched.size(); }

  /// Host time of the decode steps (those after the first forward), summed
  /// in microseconds: launching a step (host program, inputs, submission),
  /// recording the next one while the device runs, waiting for the device
  /// after that, and reading the logits back. Where tokens are picked on
  /// the device, a launch records its step itself (while the step before
  /// runs), the wait is for the oldest step in flight, and `logits` is
  /// reading its tokens.
  struct StepTimes {
    unsigned steps = 0;
    double launch = 0, prepare = 0, wait = 0, logits = 0;
  };
  const StepTimes &getStepTimes() const { return times; }
  /// Copies between the tokens' state and the arena in the last step
  /// launched: its tokens into the state, and the step before's out of it.
  unsigned getLastStepTokenCopies() const { return lastTokenCopies; }

private:
  DeviceCacheSession(DecoderInterface interface, runtime::Executable &exe,
                     ErrorFunction report, int64_t batch,
                     std::optional<unsigned> tokenResult)
      : interface(std::move(interface)), exe(exe), report(std::move(report)),
        batch(batch), tokenResult(tokenResult) {}
  /// The inputs and options of a step of `seq` new tokens at the current
  /// past length: the token inputs (ids, mask, positions, in that order)
  /// from `tokens`, or shapes only where `tokens` has none. With
  /// `idsFromDevice`, `tokens` starts at the mask and input_ids comes from
  /// the token result's state; with `picking`, the tokens are picked on the
  /// device and the logits stay there.
  std::vector<runtime::HostTensorRef>
  makeStep(int64_t seq, runtime::RunOptions &options,
           ArrayRef<runtime::HostTensor> tokens, bool picking = false,
           bool idsFromDevice = false) const;
  /// Each row's last logits from a step of `seq` positions, [batch, vocab].
  FailureOr<SmallVector<float>>
  readLastLogits(ArrayRef<runtime::HostTensor> outputs, int64_t seq) const;
  /// Checks that the cache came back from a step of `total` positions.
  LogicalResult checkCache(ArrayRef<runtime::HostTensor> outputs,
                           int64_t total) const;

  /// Whether a step of `seq` positions reads back only the last
  /// batch * vocab elements of the logits: they are each row's last.
  bool lastOnly(int64_t seq) const {
    return interface.vocabSize && (seq == 1 || batch == 1);
  }

  DecoderInterface interface;
  runtime::Executable &exe;
  ErrorFunction report;
  int64_t batch;
  std::optional<unsigned> tokenResult;
  int64_t pastLength = 0;
  /// Each step launched and not finished: the cache length after it, its
  /// positions and whether it picks its tokens on the device.
  struct Launched {
    int64_t total = 0, seq = 0;
    bool picking = false;
  };
  std::deque<Launched> launched;
  unsigned finishedSteps = 0;
  unsigned lastTokenCopies = 0;
  StepTimes times;
};

} // namespace onyx::run

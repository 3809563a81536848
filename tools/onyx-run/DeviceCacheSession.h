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
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/onyx-run/Generation.h"

#include "runtime/Executable.h"

namespace onyx::run {

class DeviceCacheSession : public DecoderSession {
public:
  /// `exe` runs the decoder's @main, whose signature `interface` describes;
  /// it must outlive the session. Every step feeds `batch` rows. With
  /// `maxSeq` (not 0) the cache's states are allocated for that many
  /// positions of every row at once; otherwise they grow by doubling.
  /// `report` tells of outputs that do not fit the interface.
  static FailureOr<std::unique_ptr<DeviceCacheSession>>
  create(DecoderInterface interface, runtime::Executable &exe, int64_t maxSeq,
         ErrorFunction report, int64_t batch = 1);

  FailureOr<SmallVector<float>> forward(const DecoderStep &step,
                                        unsigned nextTokens) override;
  int64_t getPastLength() const override { return pastLength; }

  /// Host time of the decode steps (those after the first forward), summed
  /// in microseconds: launching a step (host program, inputs, submission),
  /// recording the next one while the device runs, waiting for the device
  /// after that, and reading the logits back.
  struct StepTimes {
    unsigned steps = 0;
    double launch = 0, prepare = 0, wait = 0, logits = 0;
  };
  const StepTimes &getStepTimes() const { return times; }

private:
  DeviceCacheSession(DecoderInterface interface, runtime::Executable &exe,
                     ErrorFunction report, int64_t batch)
      : interface(std::move(interface)), exe(exe), report(std::move(report)),
        batch(batch) {}
  /// The inputs and options of a step of `seq` new tokens at the current
  /// past length: the token inputs (ids, mask, positions, in that order)
  /// from `tokens`, or shapes only where `tokens` has none.
  std::vector<runtime::HostTensorRef>
  makeStep(int64_t seq, runtime::RunOptions &options,
           ArrayRef<runtime::HostTensor> tokens) const;

  /// Whether a step of `seq` positions reads back only the last
  /// batch * vocab elements of the logits: they are each row's last.
  bool lastOnly(int64_t seq) const {
    return interface.vocabSize && (seq == 1 || batch == 1);
  }

  DecoderInterface interface;
  runtime::Executable &exe;
  ErrorFunction report;
  int64_t batch;
  int64_t pastLength = 0;
  StepTimes times;
};

} // namespace onyx::run

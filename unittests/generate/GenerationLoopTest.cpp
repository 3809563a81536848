//===- GenerationLoopTest.cpp - The decode loop with tokens picked ahead --===//
//
// generate() with a session that picks greedy tokens on the device and runs
// a step ahead must give the ids, stops and counts of the host loop, which
// samples each step's logits before it feeds the next: checked with a
// session whose model is a small function of each row's last token and
// position, over batches, end ids and cache limits.
//
//===----------------------------------------------------------------------===//

#include "tools/onyx-run/Generation.h"

#include <gtest/gtest.h>

#include <deque>

using namespace onyx;
using namespace onyx::run;

namespace {

constexpr int64_t kVocab = 11;

/// Row `row`'s next token after `token` at `position`: one logit stands
/// out, ties elsewhere.
SmallVector<float> modelLogits(int64_t row, int64_t token, int64_t position) {
  SmallVector<float> logits(kVocab, 0);
  logits[(3 * token + position + row) % kVocab] = 1;
  return logits;
}

class FakeSession : public DecoderSession {
public:
  explicit FakeSession(bool onDevice) : onDevice(onDevice) {}

  FailureOr<SmallVector<float>> forward(const DecoderStep &step,
                                        unsigned) override {
    past += step.seq;
    SmallVector<float> all;
    for (int64_t row = 0; row < step.batch; ++row) {
      int64_t last = row * step.seq + step.seq - 1;
      llvm::append_range(
          all, modelLogits(row, step.ids[last], step.positions[last]));
    }
    return all;
  }
  int64_t getPastLength() const override { return past; }
  bool picksOnDevice() const override { return onDevice; }

  LogicalResult launchGreedy(const DecoderStep &step,
                             bool idsFromDevice) override {
    EXPECT_LT(inFlight.size(), 2u) << "more than two steps in flight";
    EXPECT_EQ(int64_t(step.mask.size()), step.batch * (past + step.seq));
    SmallVector<int64_t> picked;
    for (int64_t row = 0; row < step.batch; ++row) {
      int64_t last = row * step.seq + step.seq - 1;
      int64_t token = step.ids[last];
      if (idsFromDevice) {
        EXPECT_EQ(step.seq, 1);
        EXPECT_TRUE(lastPickedOnDevice) << "no tokens on the device to read";
        token = devicePicks[row];
      }
      SmallVector<float> logits = modelLogits(row, token, step.positions[last]);
      picked.push_back(Sampler(SamplingOptions{}).sample(logits));
    }
    // A step of one position leaves its tokens on the device.
    lastPickedOnDevice = step.seq == 1;
    devicePicks = picked;
    inFlight.push_back(picked);
    past += step.seq;
    ++launches;
    return success();
  }
  FailureOr<SmallVector<int64_t>> finishGreedy() override {
    EXPECT_FALSE(inFlight.empty());
    SmallVector<int64_t> tokens = inFlight.front();
    inFlight.pop_front();
    return tokens;
  }
  unsigned getNumStepsInFlight() const override { return inFlight.size(); }

  unsigned launches = 0;

private:
  bool onDevice;
  int64_t past = 0;
  bool lastPickedOnDevice = false;
  SmallVector<int64_t> devicePicks;
  std::deque<SmallVector<int64_t>> inFlight;
};

TEST(GenerationLoopTest, PickingAheadGivesTheHostLoopsIds) {
  SmallVector<SmallVector<SmallVector<int64_t>>> batches = {
      {{5, 7, 2}}, {{4}}, {{1, 2}, {9, 3, 3, 8}}, {{6}, {2}, {10, 0, 4}}};
  unsigned compared = 0, discarded = 0;
  for (const auto &prompts : batches) {
    for (unsigned newTokens : {1u, 2u, 3u, 9u}) {
      for (std::optional<int64_t> eos :
           {std::optional<int64_t>(), std::optional<int64_t>(3),
            std::optional<int64_t>(7)}) {
        for (int64_t maxSeq : {0, 6, 9}) {
          GenerationOptions options;
          options.newTokens = newTokens;
          options.eosId = eos;
          options.maxSeq = maxSeq;
          FakeSession host(false), device(true);
          FailureOr<GenerationResult> expected =
              generate(host, prompts, options);
          FailureOr<GenerationResult> got = generate(device, prompts, options);
          ASSERT_TRUE(succeeded(expected) && succeeded(got));
          std::string what = "prompts " + std::to_string(prompts.size()) +
                             ", " + std::to_string(newTokens) +
                             " tokens, eos " +
                             (eos ? std::to_string(*eos) : "none") +
                             ", max-seq " + std::to_string(maxSeq);
          EXPECT_TRUE(got->pickedOnDevice);
          EXPECT_FALSE(expected->pickedOnDevice);
          EXPECT_EQ(got->ids, expected->ids) << what;
          EXPECT_EQ(got->allEnded, expected->allEnded) << what;
          EXPECT_EQ(got->stoppedAtMaxSeq, expected->stoppedAtMaxSeq) << what;
          EXPECT_EQ(got->decodedTokens, expected->decodedTokens) << what;
          EXPECT_EQ(got->decodeMs.size(), expected->decodeMs.size()) << what;
          // At most one step more than the host loop ran, and only when
          // every sequence ended.
          EXPECT_LE(got->discardedSteps, 1u) << what;
          EXPECT_EQ(device.launches,
                    1 + got->decodeMs.size() + got->discardedSteps)
              << what;
          EXPECT_TRUE(!got->discardedSteps || got->allEnded) << what;
          EXPECT_EQ(device.getNumStepsInFlight(), 0u) << what;
          discarded += got->discardedSteps;
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 4u * 4 * 3 * 3);
  // Some generation ended with a step in flight.
  EXPECT_GT(discarded, 0u);
}

// Sampling at a temperature, and greedy decoding with --host-sampling, go
// through the host loop even where the session could pick on the device.
TEST(GenerationLoopTest, SamplingAndHostSamplingStayOnTheHost) {
  SmallVector<SmallVector<int64_t>> prompts = {{5, 7, 2}};
  GenerationOptions options;
  options.newTokens = 5;
  options.hostSampling = true;
  FakeSession device(true);
  FailureOr<GenerationResult> result = generate(device, prompts, options);
  ASSERT_TRUE(succeeded(result));
  EXPECT_FALSE(result->pickedOnDevice);
  EXPECT_EQ(device.launches, 0u);
  options.hostSampling = false;
  options.sampling.temperature = 0.7;
  result = generate(device, prompts, options);
  ASSERT_TRUE(succeeded(result));
  EXPECT_FALSE(result->pickedOnDevice);
  EXPECT_EQ(device.launches, 0u);
  EXPECT_EQ(result->ids[0].size(), 5u);
}

} // namespace

//===- RuntimeRecordingTest.cpp - Command recordings kept and reused ------===//
//
// A run's commands are recorded once per set of shapes and state use and
// kept: recordings share descriptor sets whose bindings did not change,
// can be prepared ahead of their run, and are evicted least recently used
// beyond LoadOptions::maxRecordings.
//
//===----------------------------------------------------------------------===//

#include "unittests/runtime/RuntimeTestFixture.h"

using namespace onyx;
using namespace onyx::gpu;
using namespace onyx::gpu::testing;
using namespace onyx::runtime;

// Recordings of the same shapes with different state use bind the same
// bytes in their dispatch: the second takes the first's descriptor set
// instead of writing its own.
TEST_F(RuntimeTest, RecordingsShareDescriptorSetsOfUnchangedBindings) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  HostTensor a = tensor({300}, iota(300, 0)), b = tensor({300}, iota(300, 10));
  ASSERT_TRUE(succeeded(exe->run({a, b})));
  EXPECT_EQ(exe->getCounters().descriptorSetsWritten, 1u);
  EXPECT_EQ(exe->getCounters().descriptorSetsReused, 0u);
  RunOptions tail;
  tail.lastElements = {{0, 2}};
  FailureOr<std::vector<HostTensor>> out =
      exe->runViews({{a.type, a.data}, {b.type, b.data}}, tail);
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[0]), (std::vector<float>{606, 608}));
  EXPECT_EQ(exe->getCounters().recordings, 2u);
  EXPECT_EQ(exe->getCounters().descriptorSetsWritten, 1u);
  EXPECT_EQ(exe->getCounters().descriptorSetsReused, 1u);
  // Other sizes bind other bytes.
  HostTensor c = tensor({200}, iota(200, 0)), d = tensor({200}, iota(200, 10));
  ASSERT_TRUE(succeeded(exe->run({c, d})));
  EXPECT_EQ(exe->getCounters().descriptorSetsWritten, 2u);
}

// A recording prepared ahead (from shapes alone, while another run is in
// flight) is the one its run uses; a prepare that must grow a buffer waits
// for the run in flight first, whose outputs finish() still returns.
TEST_F(RuntimeTest, RecordingsArePreparedAheadOfTheirRun) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  std::unique_ptr<Executable> exe = load(*module);
  ASSERT_TRUE(exe);
  auto check = [&](int64_t size, const std::vector<HostTensor> &out) {
    std::vector<float> c = floats(out[0]);
    ASSERT_EQ(c.size(), size_t(size));
    for (int64_t i = 0; i < size; ++i)
      ASSERT_EQ(c[i], 2 * i + 10) << "element " << i << " of " << size;
  };
  auto shapes = [&](int64_t size) {
    return std::vector<HostTensorRef>{{f32Type({size}), {}},
                                      {f32Type({size}), {}}};
  };
  HostTensor a = tensor({300}, iota(300, 0)), b = tensor({300}, iota(300, 10));
  ASSERT_TRUE(succeeded(exe->launch({{a.type, a.data}, {b.type, b.data}})));
  // Smaller: no buffer grows, the run stays in flight.
  ASSERT_TRUE(succeeded(exe->prepare(shapes(100))));
  // Larger: the arena grows after the run in flight finished.
  ASSERT_TRUE(succeeded(exe->prepare(shapes(5000))));
  FailureOr<std::vector<HostTensor>> out = exe->finish();
  ASSERT_TRUE(succeeded(out));
  check(300, *out);
  EXPECT_EQ(exe->getCounters().recordingsAhead, 2u);
  EXPECT_GE(exe->getCounters().bufferGrowths, 1u);
  unsigned made = exe->getCounters().recordings;
  HostTensor x = tensor({5000}, iota(5000, 0)),
             y = tensor({5000}, iota(5000, 10));
  out = exe->run({x, y});
  ASSERT_TRUE(succeeded(out));
  check(5000, *out);
  EXPECT_EQ(exe->getCounters().recordings, made);
  EXPECT_EQ(exe->getCounters().recordingHits, 1u);

  // Two runs in flight at a time, each copying through its own staging
  // memory (the second launch's inputs do not overwrite the first's before
  // it ran), finished oldest first; finish() only after a launch.
  ScopedDiagnosticCollector diags(ctx);
  HostTensor z = tensor({5000}, iota(5000, 100));
  ASSERT_TRUE(succeeded(exe->launch({{x.type, x.data}, {y.type, y.data}})));
  ASSERT_TRUE(succeeded(exe->launch({{x.type, x.data}, {z.type, z.data}})));
  EXPECT_EQ(exe->getNumRunsInFlight(), 2u);
  EXPECT_TRUE(failed(exe->launch({{x.type, x.data}, {y.type, y.data}})));
  out = exe->finish();
  ASSERT_TRUE(succeeded(out));
  check(5000, *out);
  out = exe->finish();
  ASSERT_TRUE(succeeded(out));
  EXPECT_EQ(floats((*out)[0])[4999], 2 * 4999 + 100);
  EXPECT_TRUE(failed(exe->finish()));
  ASSERT_EQ(diags.getDiagnostics().size(), 2u);
  EXPECT_NE(diags.getDiagnostics()[0].str().find("is in flight"),
            std::string::npos);
  EXPECT_NE(diags.getDiagnostics()[1].str().find("no run of @main"),
            std::string::npos);
}

// A generation's shapes never repeat: the recordings kept stay at
// LoadOptions::maxRecordings, the least recently used going first, and
// their descriptor sets and command buffers serve the new ones.
TEST_F(RuntimeTest, RecordingsAreEvictedBeyondTheLimit) {
  OwningOpRef<ModuleOp> module = makeDynamicAdd();
  LoadOptions options;
  options.maxRecordings = 3;
  FailureOr<std::unique_ptr<Executable>> exe =
      Executable::load(*device, *module, options);
  ASSERT_TRUE(succeeded(exe));
  // Largest first, so that no buffer grows (which drops every recording).
  for (int64_t size = 1000; size > 980; --size) {
    FailureOr<std::vector<HostTensor>> out = (*exe)->run(
        {tensor({size}, iota(size, 0)), tensor({size}, iota(size, 10))});
    ASSERT_TRUE(succeeded(out)) << "size " << size;
    std::vector<float> c = floats((*out)[0]);
    ASSERT_EQ(c.size(), size_t(size));
    EXPECT_EQ(c.back(), 2 * (size - 1) + 10) << "size " << size;
    EXPECT_LE((*exe)->getNumRecordings(), 3u);
  }
  const ExecutableCounters &counters = (*exe)->getCounters();
  EXPECT_EQ(counters.recordings, 20u);
  EXPECT_EQ(counters.recordingsEvicted, 17u);
  // The most recent sizes are still there.
  ASSERT_TRUE(succeeded((*exe)->run(
      {tensor({982}, iota(982, 0)), tensor({982}, iota(982, 10))})));
  EXPECT_EQ(counters.recordingHits, 1u);
  EXPECT_EQ(counters.recordings, 20u);
}

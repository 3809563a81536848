//===- HazardTrackerTest.cpp - Barriers only where a dependency is --------===//
#include "runtime/HazardTracker.h"

#include <gtest/gtest.h>

using namespace onyx::runtime;

namespace {

MemoryAccess read(unsigned buffer, uint64_t begin, uint64_t end) {
  return {buffer, begin, end, false};
}
MemoryAccess write(unsigned buffer, uint64_t begin, uint64_t end) {
  return {buffer, begin, end, true};
}

TEST(HazardTrackerTest, ReadAfterWriteNeedsABarrier) {
  HazardTracker t;
  EXPECT_FALSE(t.addCommand({read(0, 0, 16), write(0, 16, 32)}));
  EXPECT_TRUE(t.addCommand({read(0, 24, 28), write(0, 64, 80)}));
}

TEST(HazardTrackerTest, WriteAfterReadAndWriteAfterWriteNeedOne) {
  HazardTracker war;
  EXPECT_FALSE(war.addCommand({read(0, 0, 16), write(0, 16, 32)}));
  EXPECT_TRUE(war.addCommand({write(0, 8, 12)}));
  HazardTracker waw;
  EXPECT_FALSE(waw.addCommand({write(1, 0, 16)}));
  EXPECT_TRUE(waw.addCommand({write(1, 15, 16)}));
}

TEST(HazardTrackerTest, IndependentCommandsRunBackToBack) {
  HazardTracker t;
  EXPECT_FALSE(t.addCommand({read(0, 0, 16), write(0, 16, 32)}));
  // Reads of the same bytes, writes to other bytes or another buffer.
  EXPECT_FALSE(t.addCommand({read(0, 0, 16), write(0, 32, 48)}));
  EXPECT_FALSE(t.addCommand({read(0, 0, 8), write(1, 16, 32)}));
  // Touching ranges do not overlap.
  EXPECT_FALSE(t.addCommand({write(0, 48, 64)}));
}

TEST(HazardTrackerTest, ABarrierOrdersEverythingBeforeIt) {
  HazardTracker t;
  EXPECT_FALSE(t.addCommand({write(0, 0, 16)}));
  EXPECT_TRUE(t.addCommand({read(0, 0, 16), write(0, 16, 32)}));
  // The first write is ordered by the barrier already; only the second
  // command's accesses are pending.
  EXPECT_FALSE(t.addCommand({read(0, 0, 16)}));
  EXPECT_TRUE(t.addCommand({read(0, 20, 24)}));
  t.addBarrier();
  EXPECT_FALSE(t.addCommand({write(0, 0, 32)}));
}

} // namespace

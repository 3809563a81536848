//===- SamplerTest.cpp - Greedy and random choice of the next token -------===//

#include "tools/onyx-run/Generation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace onyx::run;

namespace {

int64_t greedy(const std::vector<float> &logits) {
  Sampler sampler{SamplingOptions{}};
  return sampler.sample(logits);
}

// The greedy choice is std::max_element's: the first of equal maxima, and
// a NaN only where it is the first element; the vectorized search covers
// lengths that are not a multiple of its lanes.
TEST(SamplerTest, GreedyIsTheFirstLargest) {
  for (size_t n : {1, 7, 8, 9, 31, 50257}) {
    for (size_t at : {size_t(0), n / 2, n - 1}) {
      std::vector<float> logits(n);
      for (size_t i = 0; i < n; ++i)
        logits[i] = std::sin(float(i)) - 2;
      logits[at] = 3;
      EXPECT_EQ(greedy(logits), int64_t(at)) << n << " logits, max at " << at;
      if (at + 1 < n) {
        logits[n - 1] = 3; // a later equal maximum loses
        EXPECT_EQ(greedy(logits), int64_t(at));
      }
    }
  }
  float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(greedy({nan, 1, 5, 2}), 0);
  EXPECT_EQ(greedy({1, nan, 5, 2, nan, 0, 0, 0, 0, 0, 4}), 2);
  EXPECT_EQ(greedy({-0.0f, 0.0f}), 0);
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(greedy({-inf, -inf, -inf}), 0);
  EXPECT_EQ(greedy({1, 2, 3, 4, 5, 6, 7, 8, 9, inf, 11}), 9);
}

} // namespace

// tests/test_lookback_trace.cpp — the decoupled look-back's lesson (lesson/lookback_trace.h),
// run by the rule the kernel runs (satdof/lookback_rule.h): whatever the tiles' speeds, every
// tile stores the exclusive scan of its elements and publishes the inclusive prefix through
// it; a status only goes X -> A -> P (the row's first tile X -> P); a tile publishes P only
// once every tile before it had published something; and the window's rule picks the
// nearest Prefix.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "lesson/lookback_trace.h"
#include "satdof/lookback_rule.h"

namespace {

using satdof::lesson::LookbackTrace;
using satdof::lesson::traceLookback;
using satdof::lookback::TileFlag;

std::vector<std::uint32_t> randomInput(int n, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::uint32_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = random() % 10;
  return v;
}

TEST(LookbackTrace, EveryTileStoresItsScanAndPublishesItsPrefixWhateverTheSpeeds) {
  long long waits = 0;
  for (int n : {1, 2, 31, 32, 33, 64})
    for (int tiles : {1, 2, 3, 8})
      for (unsigned seed = 1; seed <= 20; ++seed) {
        const int tile = (n + tiles - 1) / tiles;
        const std::vector<std::uint32_t> in = randomInput(n, seed);
        const LookbackTrace t = traceLookback(in, tile, seed);
        SCOPED_TRACE("n " + std::to_string(n) + " tile " + std::to_string(tile) + " seed " + std::to_string(seed));
        std::vector<std::uint32_t> expected(in.size());
        std::exclusive_scan(in.begin(), in.end(), expected.begin(), 0u);
        EXPECT_EQ(t.result, expected);
        const auto& last = t.steps.back().tiles;
        for (int b = 0; b < t.tiles; ++b) {
          const std::size_t end = std::min<std::size_t>(std::size_t(b + 1) * tile, in.size());
          EXPECT_EQ(last[std::size_t(b)].flag, TileFlag::Prefix);
          EXPECT_EQ(last[std::size_t(b)].value, std::accumulate(in.begin(), in.begin() + std::ptrdiff_t(end), 0u));
          EXPECT_TRUE(last[std::size_t(b)].done);
        }
        for (std::size_t k = 1; k < t.steps.size(); ++k)
          for (int b = 0; b < t.tiles; ++b) {
            const TileFlag before = t.steps[k - 1].tiles[std::size_t(b)].flag, now = t.steps[k].tiles[std::size_t(b)].flag;
            EXPECT_GE(now, before) << "a status never goes back";
            if (b > 0 && before == TileFlag::NotReady) {
              EXPECT_NE(now, TileFlag::Prefix) << "X -> A first";
            }
            if (before != TileFlag::Prefix && now == TileFlag::Prefix) {
              for (int p = 0; p < b; ++p)
                EXPECT_NE(t.steps[k - 1].tiles[std::size_t(p)].flag, TileFlag::NotReady) << "P only after every predecessor published";
            }
          }
        waits += t.waits;
      }
  EXPECT_GT(waits, 0) << "some tile waited on a predecessor: the wait is exercised";
}

TEST(LookbackTrace, TheWindowStopsAtTheNearestPrefix) {
  EXPECT_EQ(satdof::lookback::lastCombinedLane(0u), satdof::lookback::kWindow - 1);
  EXPECT_EQ(satdof::lookback::lastCombinedLane(0b100u), 2);
  EXPECT_EQ(satdof::lookback::lastCombinedLane(0b10100u), 2);
  EXPECT_EQ(satdof::lookback::lastCombinedLane(1u << 31), 31);
  EXPECT_EQ(satdof::lookback::windowPredecessor(40, 3), 37);
}

TEST(LookbackTrace, BadSizesAreRefused) {
  const std::vector<std::uint32_t> in(64, 1);
  EXPECT_THROW(traceLookback({}, 4, 1), std::invalid_argument);
  EXPECT_THROW(traceLookback(in, 0, 1), std::invalid_argument);
  EXPECT_THROW(traceLookback(in, 2, 1), std::invalid_argument);  // 32 tiles: more than the lesson draws
}

}  // namespace

// tests/test_support.h — shared by every test: fresh random seeds, random RGBA8 images,
// and the skips that a run can require to run instead (skip_support.h). A test's seed is
// recorded in the test report and printed with its first failure ("replay:
// SATDOF_SEED=N"); SATDOF_SEED=N in the environment makes every fresh generator start
// from N, so the failing run can be replayed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include "satdof/reference/image.h"
#include "skip_support.h"

namespace satdof::test {

// The seed the current test drew last, for the failure printer below.
inline std::optional<unsigned> lastSeed;

// Prints the replay line once per failing test.
class SeedPrinter : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override {
    lastSeed.reset();
    said_ = false;
  }
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed() || said_ || !lastSeed) return;
    said_ = true;
    std::fprintf(stderr, "replay: SATDOF_SEED=%u\n", *lastSeed);
  }
  bool said_ = false;
};
inline const bool kSeedPrinterInstalled = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new SeedPrinter);  // gtest owns it
  return true;
}();

// SATDOF_SEED, else a fresh one.
inline unsigned freshSeed() {
  unsigned seed = 0;
  if (const char* text = std::getenv("SATDOF_SEED"); text && *text) seed = unsigned(std::strtoul(text, nullptr, 10));
  else seed = std::random_device{}();
  lastSeed = seed;
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

inline std::mt19937 freshRng() { return std::mt19937(freshSeed()); }

inline reference::ImageRgba8 randomImage(int width, int height, std::mt19937& rng) {
  reference::ImageRgba8 img(width, height);
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& p : img.pixels) p = std::uint8_t(byte(rng));
  return img;
}

}  // namespace satdof::test

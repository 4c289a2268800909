// tests/test_support.h — shared by every test: fresh random seeds (recorded in the test
// report, so a failure can be replayed), random RGBA8 images, and the skips that a run can
// require to run instead (skip_support.h).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "satdof/reference/image.h"
#include "skip_support.h"

namespace satdof::test {

inline std::mt19937 freshRng() {
  const unsigned seed = std::random_device{}();
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return std::mt19937(seed);
}

inline reference::ImageRgba8 randomImage(int width, int height, std::mt19937& rng) {
  reference::ImageRgba8 img(width, height);
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& p : img.pixels) p = std::uint8_t(byte(rng));
  return img;
}

}  // namespace satdof::test

// tests/test_reference_parallel.cpp — the reference SAT and convolutions give the same
// bytes on 1, 2, 3 and 7 threads (and with the automatic count), on odd sizes including
// 1x1, 1xN and Nx1, so the CPU backend's output never depends on the machine's cores.
// An explicit thread count splits even a 2-row image (see minRowsPerThread), so these
// small images do exercise the bands and the carries between them. (Totals that wrap
// past 2^32 need no test of their own here: every step adds modulo 2^32, and addition
// modulo 2^32 does not care about order; test_reference checks a wrapping table, built
// on every core, against brute force.)
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "satdof/reference/conv.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;

using satdof::Border;
using satdof::ConvMath;
using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

const std::vector<std::pair<int, int>> kSizes = {{1, 1},  {1, 2},  {2, 1},  {1, 37},
                                                 {37, 1}, {3, 5},  {7, 13}, {31, 33},
                                                 {100, 7}, {129, 67}};
const unsigned kThreads[] = {2, 3, 7, 0};

std::string where(int w, int h, unsigned t) {
  return std::to_string(w) + "x" + std::to_string(h) + " threads=" + std::to_string(t);
}

}  // namespace

TEST(ReferenceParallel, SatSameBytesForAnyThreadCount) {
  auto rng = freshRng();
  for (auto [w, h] : kSizes) {
    const auto img = randomImage(w, h, rng);
    const ref::Sat one = ref::computeSat(img, 1);
    for (unsigned t : kThreads) {
      const ref::Sat many = ref::computeSat(img, t);
      EXPECT_EQ(many.width, w);
      EXPECT_EQ(many.height, h);
      EXPECT_EQ(many.values, one.values) << where(w, h, t);
    }
  }
}

TEST(ReferenceParallel, SatIntoAnExistingTable) {
  auto rng = freshRng();
  ref::Sat sat;  // reused across sizes: grown, shrunk, and refilled at the same size
  for (auto [w, h] : {std::pair{31, 33}, {31, 33}, {129, 67}, {1, 37}, {0, 0}, {100, 7}}) {
    const auto img = randomImage(w, h, rng);
    for (auto& v : sat.values) v = 0xdeadbeef;  // stale contents must not leak through
    ref::computeSat(img, sat, 3);
    EXPECT_EQ(sat.width, w);
    EXPECT_EQ(sat.height, h);
    EXPECT_EQ(sat.values, ref::computeSat(img, 1).values) << where(w, h, 3);
  }
}

TEST(ReferenceParallel, ConvolutionSameBytesForAnyThreadCount) {
  auto rng = freshRng();
  const satdof::Filter filters[] = {satdof::gaussian(2, 1.0f), satdof::box(3), satdof::box(1),
                                    satdof::sharpen(1), satdof::emboss(2)};
  for (auto [w, h] : kSizes) {
    const auto img = randomImage(w, h, rng);
    for (const satdof::Filter& f : filters) {
      for (ConvMath m : {ConvMath::Direct, ConvMath::Separable, ConvMath::BoxSum}) {
        if (m == ConvMath::Separable && !f.separable) continue;
        if (m == ConvMath::BoxSum && f.kind != satdof::FilterKind::Box) continue;
        for (Border b : {Border::Zero, Border::Clamp}) {
          const ref::ImageRgba8 one = ref::convolve(img, f, b, m, 1);
          for (unsigned t : kThreads)
            EXPECT_EQ(ref::convolve(img, f, b, m, t).pixels, one.pixels)
                << f.name << " r=" << f.radius << " " << satdof::toString(m) << " "
                << satdof::toString(b) << " " << where(w, h, t);
        }
      }
    }
  }
}

TEST(ReferenceParallel, EmptyImages) {
  const ref::ImageRgba8 empty;
  for (unsigned t : {1u, 3u, 0u}) {
    EXPECT_TRUE(ref::computeSat(empty, t).values.empty());
    EXPECT_TRUE(ref::convolve(empty, satdof::box(1), Border::Zero, ConvMath::BoxSum, t).pixels.empty());
    EXPECT_TRUE(ref::convolve(empty, satdof::box(1), Border::Clamp, ConvMath::Separable, t)
                    .pixels.empty());
  }
}

TEST(ReferenceParallel, RowBandsHonourExplicitCounts) {
  EXPECT_EQ(ref::minRowsPerThread(1, 1920), 1u);
  EXPECT_EQ(ref::minRowsPerThread(7, 1), 1u);
  EXPECT_GE(ref::minRowsPerThread(0, 1920), 2u);  // automatic: no thread for a sliver
  EXPECT_GE(ref::minRowsPerThread(0, 0), 1u);
}

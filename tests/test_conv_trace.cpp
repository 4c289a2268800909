// tests/test_conv_trace.cpp — the convolution lesson's traces (lesson/conv_trace.h): each
// traced variant's block, run from the kernels' own tile arithmetic (satdof/conv_tiles.h),
// gives the reference convolution's outputs for that block on a random image and a random,
// lopsided filter, for both border rules and radii across the range; its loads and reads
// add up to what the kernel's loops issue, counted here from the shapes alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "lesson/conv_trace.h"
#include "satdof/conv_tiles.h"

namespace {

using namespace satdof;
using namespace satdof::lesson;

Filter lopsided(int radius, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> weight(-0.3f, 1.0f);
  std::vector<float> w(std::size_t(2 * radius + 1) * std::size_t(2 * radius + 1));
  for (float& x : w) x = weight(random);
  return custom(radius, w);
}

// The reference's outputs (channel 0) over the trace's output tile.
std::vector<std::uint8_t> referenceBlock(const ConvTrace& t, const reference::ImageRgba8& image) {
  const reference::ImageRgba8 all = reference::convolve2D(image, t.filter, t.border, 1);
  std::vector<std::uint8_t> block;
  for (int y = t.outY0; y < t.outY0 + t.outH; ++y)
    for (int x = t.outX0; x < t.outX0 + t.outW; ++x) block.push_back(all.at(x, y)[0]);
  return block;
}

long long sum(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0LL); }

TEST(ConvTrace, EveryTracedVariantGivesTheReferenceOutputsOfItsBlock) {
  unsigned seed = 1;
  for (const std::string& variant : tracedConvVariants())
    for (int radius : {1, 2, 3, 4, 7, 15})
      for (Border border : {Border::Zero, Border::Clamp}) {
        if (!whyNoConvTrace(variant, radius).empty()) continue;  // the tiled ones below r = 3
        const reference::ImageRgba8 image = convLessonImage(variant, radius, ++seed);
        const ConvTrace t = traceConv(variant, image, lopsided(radius, seed), border);
        SCOPED_TRACE(variant + " r " + std::to_string(radius) + (border == Border::Zero ? " zero" : " clamp"));
        ASSERT_EQ(t.result.size(), std::size_t(t.outW) * std::size_t(t.outH));
        EXPECT_EQ(t.result, referenceBlock(t, image));
        EXPECT_EQ(t.outputs, static_cast<long long>(t.outW) * t.outH);
        EXPECT_EQ(t.footW, t.outW + 2 * radius);
      }
}

TEST(ConvTrace, LoadsAndReadsAreTheKernelsLoops) {
  namespace ct = conv_tiles;
  constexpr int kThreads = ct::kTiledThreadsX * ct::kTiledThreadsY;
  for (int r : {3, 5, 15}) {
    const int n = 2 * r + 1;
    SCOPED_TRACE("r " + std::to_string(r));
    // basic: a thread a pixel, every in-image tap one global load (the block's footprint
    // lies inside the image up to r = 8 vertically; Clamp loads the edge pixel instead).
    const ConvTrace basic = traceConv("basic", convLessonImage("basic", r, 1), gaussian(r, 1.0f), Border::Clamp);
    EXPECT_EQ(basic.globalLoads, basic.outputs * n * n);
    EXPECT_EQ(basic.weightLoads, basic.outputs * n * n);
    EXPECT_EQ(basic.sharedWords, 0);
    EXPECT_EQ(basic.distinctPixels, std::min(96, 32 + 2 * r) * std::min(24, 8 + 2 * r));

    // tiled-halo: every cell of the (64 + 2r)^2 input tile loaded once, by the phase-1 loop;
    // each thread reads 8 + 2r window rows of 2r + 2 words.
    const ConvTrace tiled = traceConv("tiled-halo", convLessonImage("tiled-halo", r, 2), gaussian(r, 1.0f), Border::Zero);
    const int in = ct::tiledInputSide(ct::kTiledOutW, r);
    EXPECT_EQ(tiled.globalLoads, static_cast<long long>(in) * in);
    EXPECT_TRUE(std::all_of(tiled.tileLoads.begin(), tiled.tileLoads.end(), [](int k) { return k == 1; }));
    EXPECT_EQ(tiled.sharedWords, static_cast<long long>(kThreads) * (ct::kTiledRowsPerThread + 2 * r) * (2 * r + 2));
    EXPECT_EQ(sum(tiled.globalReads), 0);

    // tiled-cached-halo: the output tile loaded once; of each thread's (8 + 2r) x (2r + 1)
    // window reads, those in the tile from shared memory, the others global.
    const ConvTrace cached =
        traceConv("tiled-cached-halo", convLessonImage("tiled-cached-halo", r, 3), gaussian(r, 1.0f), Border::Zero);
    const long long window = static_cast<long long>(kThreads) * (ct::kCachedRowsPerThread + 2 * r) * n;
    EXPECT_EQ(sum(cached.tileLoads), cached.outputs);
    EXPECT_EQ(cached.sharedWords + sum(cached.globalReads), window);
    EXPECT_EQ(cached.globalLoads, cached.outputs + sum(cached.globalReads));
    for (int y = 0; y < cached.footH; ++y)
      for (int x = 0; x < cached.footW; ++x) {
        const std::size_t i = std::size_t(y) * std::size_t(cached.footW) + std::size_t(x);
        const bool inTile = ct::cachedTileHolds(y - r, x - r);
        EXPECT_EQ(cached.inTile[i] != 0, inTile);
        if (inTile) EXPECT_EQ(cached.globalReads[i], 0);
        else EXPECT_EQ(cached.sharedReads[i], 0);
      }
  }
}

TEST(ConvTrace, WhatHasNoTraceSaysWhy) {
  EXPECT_NE(whyNoConvTrace("separable", 3).find("no step-by-step trace yet"), std::string::npos);
  EXPECT_NE(whyNoConvTrace("no-such", 3).find("no such convolution variant"), std::string::npos);
  EXPECT_NE(whyNoConvTrace("tiled-halo", 2).find("strip path"), std::string::npos);
  EXPECT_NE(whyNoConvTrace("basic", 16).find("must be 1..15"), std::string::npos);
  EXPECT_EQ(whyNoConvTrace("basic", 1), "");
  EXPECT_THROW(traceConv("tiled-halo", convLessonImage("tiled-halo", 2, 1), box(2), Border::Zero), std::invalid_argument);
}

}  // namespace

// tests/test_conv_trace.cpp — the convolution lesson's traces (lesson/conv_trace.h): each
// traced variant's block, run from the kernels' own index arithmetic (satdof/conv_tiles.h)
// on the path its kernel takes at that radius, gives the reference's outputs for that block
// (Direct, Separable or BoxSum maths, as the variant) on a random image and a random,
// lopsided filter (sat-box: the box), for both border rules and every radius; its loads
// and reads add up to what the kernel's loops issue, counted here from the shapes alone.
// The same for the gl-compute backend's GLSL convolutions' work groups.
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
namespace ct = conv_tiles;

// `count` weights of both signs, adding up to about 1 (so that outputs spread over 0..255
// rather than saturate): any (2r+1)^2 of them, or rank one for separable, or the box for
// sat-box.
std::vector<float> weights(std::size_t count, std::mt19937& random) {
  std::uniform_real_distribution<float> weight(-0.3f, 1.0f);
  std::vector<float> w(count);
  float total = 0.0f;
  while (total < 0.2f * float(count)) {  // (0.35 on average: a smaller total is a near cancellation)
    for (float& x : w) x = weight(random);
    total = std::accumulate(w.begin(), w.end(), 0.0f);
  }
  for (float& x : w) x /= total;
  return w;
}

Filter lopsided(const std::string& variant, int radius, unsigned seed) {
  if (variant.ends_with("sat-box")) return box(radius);
  std::mt19937 random(seed);
  const std::size_t n = std::size_t(2 * radius + 1);
  if (!variant.ends_with("separable")) return custom(radius, weights(n * n, random));
  Filter f;
  f.name = "lopsided rank one";
  f.radius = radius;
  f.separable = true;
  f.rowWeights = weights(n, random);
  f.colWeights = weights(n, random);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) f.weights.push_back(f.colWeights[i] * f.rowWeights[j]);
  return f;
}

// The reference's outputs (channel 0) over the trace's output tile, in the variant's maths.
std::vector<std::uint8_t> referenceBlock(const ConvTrace& t, const reference::ImageRgba8& image) {
  const ConvMath math = t.variant.ends_with("separable") ? ConvMath::Separable
                        : t.variant.ends_with("sat-box") ? ConvMath::BoxSum
                                                         : ConvMath::Direct;
  const reference::ImageRgba8 all = reference::convolve(image, t.filter, t.border, math, 1);
  std::vector<std::uint8_t> block;
  for (int y = t.outY0; y < t.outY0 + t.outH; ++y)
    for (int x = t.outX0; x < t.outX0 + t.outW; ++x) block.push_back(all.at(x, y)[0]);
  return block;
}

long long sum(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0LL); }

ConvTrace traced(const std::string& variant, int r, Border border = Border::Zero) {
  return traceConv(variant, convLessonImage(variant, r, 7), lopsided(variant, r, 7), border);
}

TEST(ConvTrace, EveryTracedVariantGivesTheReferenceOutputsOfItsBlock) {
  unsigned seed = 1;
  for (const std::string& variant : tracedConvVariants())
    for (int radius = kMinFilterRadius; radius <= kMaxFilterRadius; ++radius)
      for (Border border : {Border::Zero, Border::Clamp}) {
        ASSERT_EQ(whyNoConvTrace(variant, radius), "");
        const reference::ImageRgba8 image = convLessonImage(variant, radius, ++seed);
        const ConvTrace t = traceConv(variant, image, lopsided(variant, radius, seed), border);
        SCOPED_TRACE(variant + " r " + std::to_string(radius) + (border == Border::Zero ? " zero" : " clamp"));
        ASSERT_EQ(t.result.size(), std::size_t(t.outW) * std::size_t(t.outH));
        EXPECT_EQ(t.result, referenceBlock(t, image));
        const auto saturated = std::count_if(t.result.begin(), t.result.end(), [](int v) { return v == 0 || v == 255; });
        EXPECT_LT(saturated, static_cast<long>(t.result.size() / 4)) << "outputs that tell little";
        EXPECT_EQ(t.outputs, static_cast<long long>(t.outW) * t.outH);
      }
}

// tiled-halo, tiled-cached-halo and separable run the strip engine below kTiledMinRadius,
// as strip::launchByRadius does, and their tile (separable: its strips) from there on.
TEST(ConvTrace, EachRadiusFollowsThePathItsKernelTakes) {
  for (const std::string variant : {"tiled-halo", "tiled-cached-halo", "separable"})
    for (int r = 1; r <= 4; ++r) {
      const ConvTrace t = traced(variant, r);
      EXPECT_EQ(t.path == "the strip engine", r < ct::kTiledMinRadius) << variant << " r " << r << ": " << t.path;
      if (r < ct::kTiledMinRadius) {
        EXPECT_EQ(t.outW, ct::kStripWidth);
        EXPECT_EQ(t.outH, ct::kStripWarpsPerBlock * ct::stripRows(r));
      }
    }
  EXPECT_EQ(traced("basic", 1).path, "one thread a pixel");
  EXPECT_EQ(traced("sat-box", 1).path, "one pass");
}

TEST(ConvTrace, LoadsAndReadsAreTheKernelsLoops) {
  constexpr int kThreads = ct::kTiledThreadsX * ct::kTiledThreadsY;
  for (int r : {3, 5, 15}) {
    const int n = 2 * r + 1;
    SCOPED_TRACE("r " + std::to_string(r));
    // basic: a thread a pixel, every in-image tap one global load (the block's footprint
    // lies inside the image up to r = 8 vertically; Clamp loads the edge pixel instead).
    const ConvTrace basic = traceConv("basic", convLessonImage("basic", r, 1), gaussian(r, 1.0f), Border::Clamp);
    EXPECT_EQ(basic.total().globalLoads, basic.outputs * n * n);
    EXPECT_EQ(basic.weightLoads, basic.outputs * n * n);
    EXPECT_EQ(basic.total().sharedReads, 0);
    EXPECT_EQ(basic.distinctPixels, std::min(96, 32 + 2 * r) * std::min(24, 8 + 2 * r));

    // tiled-halo: every cell of the (64 + 2r)^2 input tile loaded once, by the phase-1 loop;
    // each thread reads 8 + 2r window rows of 2r + 2 words.
    const ConvTrace tiled = traceConv("tiled-halo", convLessonImage("tiled-halo", r, 2), gaussian(r, 1.0f), Border::Zero);
    const int in = ct::tiledInputSide(ct::kTiledOutW, r);
    EXPECT_EQ(tiled.total().globalLoads, static_cast<long long>(in) * in);
    EXPECT_TRUE(std::all_of(tiled.input().tileLoads.begin(), tiled.input().tileLoads.end(), [](int k) { return k == 1; }));
    EXPECT_EQ(tiled.total().sharedReads, static_cast<long long>(kThreads) * (ct::kTiledRowsPerThread + 2 * r) * (2 * r + 2));
    EXPECT_EQ(sum(tiled.input().globalReads), 0);
    EXPECT_EQ(tiled.total().fmas, tiled.outputs * n * n);

    // tiled-cached-halo: the output tile loaded once; of each thread's (8 + 2r) x (2r + 1)
    // window reads, those in the tile from shared memory, the others global.
    const ConvTrace cached =
        traceConv("tiled-cached-halo", convLessonImage("tiled-cached-halo", r, 3), gaussian(r, 1.0f), Border::Zero);
    const ConvGrid& g = cached.input();
    const long long window = static_cast<long long>(kThreads) * (ct::kCachedRowsPerThread + 2 * r) * n;
    EXPECT_EQ(sum(g.tileLoads), cached.outputs);
    EXPECT_EQ(cached.total().sharedReads + sum(g.globalReads), window);
    EXPECT_EQ(cached.total().globalLoads, cached.outputs + sum(g.globalReads));
    for (int y = 0; y < g.h; ++y)
      for (int x = 0; x < g.w; ++x) {
        const std::size_t i = std::size_t(y) * std::size_t(g.w) + std::size_t(x);
        const bool inTile = ct::cachedTileHolds(y - r, x - r);
        EXPECT_EQ(g.inTile[i] != 0, inTile);
        if (inTile) EXPECT_EQ(g.globalReads[i], 0);
        else EXPECT_EQ(g.sharedReads[i], 0);
      }
  }
}

// The strip engine (r = 1, 2): a block's 4 warps each walk rows + 2r input rows; per row a
// lane copies its 4 pixels into the ring (tiled-halo's end lanes 4 more each), then reads
// 3 groups of 4 words (tiled-halo) or its own 4 and loads its 2r halo words (the others,
// a row ahead: one row more than it uses), and makes 4 (2r+1)^2 multiply-adds, or 4 (2r+1)
// in each pass.
TEST(ConvTrace, TheStripEnginesLoadsAndReadsAreItsLoops) {
  for (int r = 1; r < ct::kTiledMinRadius; ++r) {
    const int n = 2 * r + 1;
    const long long rows = static_cast<long long>(ct::kStripWarpsPerBlock) * (ct::stripRows(r) + 2 * r);
    const long long lanes = ct::kStripLanes, px = ct::kStripPixelsPerLane;
    SCOPED_TRACE("r " + std::to_string(r));

    const ConvTrace shared = traced("tiled-halo", r);
    EXPECT_EQ(shared.passes[0].counts.globalLoads, rows * (ct::kStripWidth + 2 * px));
    EXPECT_EQ(sum(shared.input().tileLoads), shared.passes[0].counts.globalLoads);
    EXPECT_EQ(shared.passes[1].counts.globalLoads, 0);
    EXPECT_EQ(shared.total().sharedReads, rows * lanes * 3 * px);
    EXPECT_EQ(shared.total().fmas, rows * lanes * px * n * n);

    for (const std::string variant : {"tiled-cached-halo", "separable"}) {
      const ConvTrace t = traced(variant, r);
      SCOPED_TRACE(variant);
      EXPECT_EQ(t.passes[0].counts.globalLoads, rows * ct::kStripWidth);
      EXPECT_EQ(t.passes[1].counts.globalLoads, (rows + ct::kStripWarpsPerBlock) * lanes * 2 * r);
      EXPECT_EQ(sum(t.input().globalReads), t.passes[1].counts.globalLoads);
      EXPECT_EQ(t.total().sharedReads, rows * lanes * px);
      if (variant == "separable") {
        EXPECT_EQ(t.passes[1].counts.fmas, rows * lanes * px * n);
        EXPECT_EQ(t.passes[2].counts.fmas, rows * lanes * px * n);
        EXPECT_EQ(t.passes[2].counts.registerReads, rows * lanes * px * n);
        EXPECT_EQ(t.total().sharedWrites, 0) << "the intermediate never leaves registers";
      } else {
        EXPECT_EQ(t.total().fmas, rows * lanes * px * n * n);
      }
      // The last row's halo is loaded and feeds no output.
      const ConvGrid& g = t.input();
      for (int x = 0; x < g.w; ++x) EXPECT_FALSE(g.used[std::size_t(g.h - 1) * std::size_t(g.w) + std::size_t(x)]);
    }
  }
}

// separable (r >= 3): each of the block's 4 warps runs separableSteps() steps; in each a
// lane loads separableWindowVecs() vectors of 4 words and writes 16 intermediate values
// (2r + 1 multiply-adds each); from the ring's last chunk on it reads 16 + 2r of them for
// 16 outputs (2r + 1 multiply-adds each).
TEST(ConvTrace, SeparablesLoadsAndReadsAreItsLoops) {
  for (int r = ct::kTiledMinRadius; r <= kMaxFilterRadius; ++r) {
    const int n = 2 * r + 1;
    const ConvTrace t = traced("separable", r);
    SCOPED_TRACE("r " + std::to_string(r));
    const long long lanes = static_cast<long long>(ct::kSeparableWarpsPerBlock) * 32, chunk = ct::kSeparableChunkRows;
    const long long steps = ct::separableSteps(t.outH, r), blocks = (t.outH + chunk - 1) / chunk;
    EXPECT_EQ(steps, blocks + ct::separableRingChunks(r) - 1);
    EXPECT_EQ(t.passes[0].counts.globalLoads, lanes * steps * 4 * ct::separableWindowVecs(r));
    EXPECT_EQ(t.passes[0].counts.sharedWrites, lanes * steps * chunk);
    EXPECT_EQ(t.passes[0].counts.fmas, lanes * steps * chunk * n);
    EXPECT_EQ(t.passes[1].counts.sharedReads, lanes * blocks * (chunk + 2 * r));
    EXPECT_EQ(t.passes[1].counts.fmas, lanes * blocks * chunk * n);
    EXPECT_EQ(t.passes[1].counts.globalLoads, 0);
    EXPECT_EQ(sum(t.grids[1].writes), t.passes[0].counts.sharedWrites);
    EXPECT_EQ(sum(t.grids[1].sharedReads), t.passes[1].counts.sharedReads);
    // Against the chapter's 2(2r+1) taps: the column pass makes them exactly, the row pass
    // also for the segment's 2r rows above and below (whole chunks).
    EXPECT_EQ(t.passes[1].counts.fmas, t.outputs * n);
    EXPECT_GE(t.passes[0].counts.fmas, t.outputs * n);
  }
}

// sat-box: the steps run the input rows in steps of 16, each row's 128 + 2r words loaded (a
// step ahead: one step more) and turned into 128 row windows by 2 prefix reads each; the
// column pass reads each row window as it enters and as it leaves the window: 4 reads an
// output at any radius, and a little more for the chunk's rows around it.
TEST(ConvTrace, SatBoxReadsFourTimesAnOutputAtAnyRadius) {
  for (int r = kMinFilterRadius; r <= kMaxFilterRadius; ++r) {
    const int n = 2 * r + 1;
    SCOPED_TRACE("r " + std::to_string(r));
    const ConvTrace t = traced("sat-box", r, Border::Clamp);
    const long long inRows = t.outH + 2 * r, stepRows = (inRows + ct::kSatStepRows - 1) / ct::kSatStepRows * ct::kSatStepRows;
    const long long columns = ct::kSatStripWidth;
    EXPECT_EQ(t.passes[0].counts.globalLoads, (stepRows + ct::kSatStepRows) * (columns + 2 * r));
    EXPECT_EQ(t.passes[1].counts.registerReads, stepRows * columns * 2);
    EXPECT_EQ(t.passes[1].counts.sharedWrites, stepRows * columns);
    EXPECT_EQ(t.passes[2].counts.sharedReads, columns * (stepRows + stepRows - n));
    const double reads = double(t.total().registerReads + t.total().sharedReads) / double(t.outputs);
    EXPECT_GE(reads, 4.0);
    EXPECT_LT(reads, 5.0);
    EXPECT_EQ(t.total().fmas, 0);

    // Zero border: the top-left block loads no pixel outside the image.
    const ConvTrace zero = traced("sat-box", r, Border::Zero);
    long long inside = 0;
    for (int row = 0; row < stepRows + ct::kSatStepRows; ++row)
      for (int pos = 0; pos < ct::kSatSpan; ++pos)
        inside += ct::satSpanLoads(pos, r) && ct::insideAxis(ct::satSpanColumn(t.outX0, r, pos), t.imageWidth) &&
                  ct::insideAxis(ct::satInputRow(t.outY0, r, row), t.imageHeight);
    EXPECT_EQ(zero.passes[0].counts.globalLoads, inside);
  }
}

// The top-left output's corners: the span starts r left of the strip and the running sums
// at the chunk's first input row, so three of its four are nothing there (0), the fourth
// added; an output inside the block has all four.
TEST(ConvTrace, SatBoxsCornersAreTheKernels) {
  const int r = 3;
  const ConvTrace t = traced("sat-box", r);
  const ConvStep& rowPass = t.steps.at(1);
  auto label = [&](int x, int y) {
    for (const ConvMark& m : rowPass.marks)
      if (m.x == x && m.y == y && !m.label.empty()) return m.label;
    return std::string("(none)");
  };
  const int x0 = t.outX0, y0 = t.outY0;
  EXPECT_EQ(label(x0 + r, y0 + r), "+");
  EXPECT_EQ(label(x0 - r - 1, y0 + r), "0");
  EXPECT_EQ(label(x0 + r, y0 - r - 1), "0");
  EXPECT_EQ(label(x0 - r - 1, y0 - r - 1), "0");
  EXPECT_EQ(ct::satSpanColumn(x0, r, ct::satLeftCorner(0)), x0 - r - 1);
  EXPECT_EQ(ct::satInputRow(y0, r, ct::satLeavingRow(2 * r, r)), y0 - r - 1);
  const int x = x0 + 64, y = y0 + 64;
  EXPECT_EQ(label(x + r, y + r), "+");
  EXPECT_EQ(label(x - r - 1, y + r), "-");
  EXPECT_EQ(label(x + r, y - r - 1), "-");
  EXPECT_EQ(label(x - r - 1, y - r - 1), "+");
}

// The gl-compute backend's GLSL convolutions: each one's work group gives the reference's
// outputs in the maths its shader follows (the backend's kConvolutions: glsl-basic and
// glsl-tiled-halo cpu-direct, glsl-separable cpu-separable, glsl-sat-box cpu-box-sum).
TEST(ConvTrace, EveryGlslTraceGivesTheReferenceOutputsOfItsGroup) {
  const std::vector<std::string> glsl = tracedConvVariants(ConvBackend::GlCompute);
  EXPECT_EQ(glsl, (std::vector<std::string>{"glsl-tiled-halo", "glsl-basic", "glsl-separable", "glsl-sat-box"}));
  unsigned seed = 100;
  for (const std::string& variant : glsl)
    for (int radius : {1, 2, 3, 7})
      for (Border border : {Border::Zero, Border::Clamp}) {
        SCOPED_TRACE(variant + " r " + std::to_string(radius) + (border == Border::Zero ? " zero" : " clamp"));
        ASSERT_EQ(whyNoConvTrace(variant, radius, ConvBackend::GlCompute), "");
        const reference::ImageRgba8 image = convLessonImage(variant, radius, ++seed);
        EXPECT_EQ(image.width, 48);
        EXPECT_EQ(image.height, 48);
        const ConvTrace t = traceConv(variant, image, lopsided(variant, radius, seed), border);
        EXPECT_EQ(t.outW * t.outH, 256);
        ASSERT_EQ(t.result.size(), std::size_t(256));
        EXPECT_EQ(t.result, referenceBlock(t, image));
        const auto saturated = std::count_if(t.result.begin(), t.result.end(), [](int v) { return v == 0 || v == 255; });
        EXPECT_LT(saturated, 64) << "outputs that tell little";
      }
  // The middle group's windows stay inside the image; sat-box's top-left group's do not.
  EXPECT_EQ(traced("glsl-basic", 15).outX0, 16);
  EXPECT_NE(traced("glsl-sat-box", 3, Border::Zero).result, traced("glsl-sat-box", 3, Border::Clamp).result);
}

// Their loads and reads are the shaders' loops: glsl-basic a fetch and a weight a tap;
// glsl-tiled-halo every cell of the (16 + 2r)^2 tile fetched once, (2r+1)^2 shared reads an
// output; glsl-separable 16 (16 + 2r) values of 2r + 1 fetches each, 2r + 1 shared reads an
// output; glsl-sat-box 4 table reads a rectangle: one rectangle an output under the zero
// border, and under clamp two along each axis where the window runs past the top or left.
TEST(ConvTrace, GlslLoadsAndReadsAreTheShadersLoops) {
  for (int r : {1, 3, 15}) {
    const long long n = 2 * r + 1, side = 16 + 2 * r;
    SCOPED_TRACE("r " + std::to_string(r));
    const ConvTrace basic = traced("glsl-basic", r, Border::Clamp);
    EXPECT_EQ(basic.total().globalLoads, 256 * n * n);
    EXPECT_EQ(basic.weightLoads, 256 * n * n);
    EXPECT_EQ(basic.distinctPixels, side * side);

    const ConvTrace tiled = traced("glsl-tiled-halo", r);
    EXPECT_EQ(tiled.passes[0].counts.globalLoads, side * side);
    EXPECT_TRUE(std::all_of(tiled.input().tileLoads.begin(), tiled.input().tileLoads.end(), [](int k) { return k == 1; }));
    EXPECT_EQ(tiled.passes[1].counts.sharedReads, 256 * n * n);
    EXPECT_EQ(tiled.passes[1].counts.globalLoads, 0);
    EXPECT_EQ(sum(tiled.input().sharedReads), 256 * n * n);

    const ConvTrace separable = traced("glsl-separable", r);
    EXPECT_EQ(separable.passes[0].counts.globalLoads, 16 * side * n);
    EXPECT_EQ(separable.passes[0].counts.sharedWrites, 16 * side);
    EXPECT_EQ(separable.passes[1].counts.sharedReads, 256 * n);
    EXPECT_EQ(separable.total().fmas, 16 * side * n + 256 * n);
    EXPECT_EQ(sum(separable.grids[1].sharedReads), 256 * n);

    EXPECT_EQ(traced("glsl-sat-box", r, Border::Zero).total().tableReads, 4 * 256);
    EXPECT_EQ(traced("glsl-sat-box", r, Border::Clamp).total().tableReads, 4 * (16 + r) * (16 + r));
  }
}

TEST(ConvTrace, WhatHasNoTraceSaysWhy) {
  EXPECT_NE(whyNoConvTrace("glsl-separable", 3).find("no such convolution variant"), std::string::npos);
  EXPECT_NE(whyNoConvTrace("basic", 16).find("must be 1..15"), std::string::npos);
  EXPECT_EQ(whyNoConvTrace("tiled-halo", 2), "");
  EXPECT_EQ(whyNoConvTrace("sat-box", 15), "");
  EXPECT_EQ(whyNoConvTrace("glsl-sat-box", 15, ConvBackend::GlCompute), "");
  EXPECT_NE(whyNoConvTrace("sat-box", 3, ConvBackend::GlCompute).find("no such convolution variant in gl-compute"),
            std::string::npos);
  EXPECT_THROW(traceConv("glsl-separable", convLessonImage("glsl-separable", 3, 1), lopsided("basic", 3, 1), Border::Zero),
               std::invalid_argument);
  EXPECT_THROW(traceConv("glsl-basic", convLessonImage("basic", 3, 1), gaussian(3, 1.5f), Border::Zero),
               std::invalid_argument);
  EXPECT_THROW(traceConv("separable", convLessonImage("separable", 3, 1), lopsided("basic", 3, 1), Border::Zero),
               std::invalid_argument);
  EXPECT_THROW(traceConv("sat-box", convLessonImage("sat-box", 3, 1), gaussian(3, 1.5f), Border::Zero), std::invalid_argument);
  EXPECT_THROW(traceConv("tiled-halo", convLessonImage("tiled-halo", 3, 1), box(2), Border::Zero), std::invalid_argument)
      << "an image of another radius's blocks";
  EXPECT_EQ(convLessonFilter("sat-box", 4).kind, FilterKind::Box);
  EXPECT_TRUE(convLessonFilter("separable", 4).separable);
}

}  // namespace

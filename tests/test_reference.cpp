// tests/test_reference.cpp — the CPU reference library against brute force: scans, the
// uint32 SAT (including running totals that overflow 2^32), box sums and means with
// border clipping, the circle-of-confusion function and the reference depth of field.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <tuple>
#include <cstdint>
#include <random>
#include <vector>

#include "satdof/reference/dof.h"
#include "satdof/reference/dof_ground_truth.h"
#include "satdof/reference/layered_dof.h"
#include "satdof/reference/scan.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;

using satdof::test::freshRng;
using satdof::test::randomImage;

TEST(ReferenceScan, MatchesDefinitionOnEdgeSizes) {
  auto rng = freshRng();
  for (std::size_t n : {0u, 1u, 2u, 31u, 32u, 33u, 257u, 1000u}) {
    std::vector<std::uint32_t> in(n);
    for (auto& v : in) v = rng();
    std::vector<std::uint32_t> inc(n), exc(n);
    ref::inclusiveScan<std::uint32_t>(in, inc);
    ref::exclusiveScan<std::uint32_t>(in, exc);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t s = 0;
      for (std::size_t j = 0; j < i; ++j) s += in[j];  // wraps, like the GPU
      ASSERT_EQ(exc[i], s) << "n=" << n << " i=" << i;
      ASSERT_EQ(inc[i], s + in[i]) << "n=" << n << " i=" << i;
    }
  }
}

TEST(ReferenceScan, InPlaceAndChapterExample) {
  std::vector<std::uint32_t> a{3, 1, 7, 0, 4, 1, 6, 3};
  ref::exclusiveScan<std::uint32_t>(a, a);
  EXPECT_EQ(a, (std::vector<std::uint32_t>{0, 3, 4, 11, 11, 15, 16, 22}));
  std::vector<std::uint32_t> b{3, 1, 7, 0, 4, 1, 6, 3};
  ref::inclusiveScan<std::uint32_t>(b, b);
  EXPECT_EQ(b, (std::vector<std::uint32_t>{3, 4, 11, 11, 15, 16, 22, 25}));
}

TEST(ReferenceScan, FloatWithDoubleAccumulator) {
  std::vector<float> in(1 << 20, 0.1f), out(in.size());
  ref::inclusiveScan<float, double>(in, out);
  EXPECT_NEAR(out.back(), double(0.1f) * in.size(), 1e-2);
}

TEST(ReferenceSat, BoxSumsMatchBruteForce) {
  auto rng = freshRng();
  for (auto [w, h] : {std::pair{1, 1}, {1, 37}, {37, 1}, {31, 33}, {64, 48}, {100, 7}}) {
    const auto img = randomImage(w, h, rng);
    const ref::Sat sat = ref::computeSat(img);
    // S(x, y) itself is the box from the origin.
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 4; ++c)
          ASSERT_EQ(sat.at(x, y, c), ref::boxSumBruteForce(img, {0, 0, x, y}, c));
    std::uniform_int_distribution<int> px(0, w - 1), py(0, h - 1);
    for (int i = 0; i < 200; ++i) {
      int x0 = px(rng), x1 = px(rng), y0 = py(rng), y1 = py(rng);
      if (x0 > x1) std::swap(x0, x1);
      if (y0 > y1) std::swap(y0, y1);
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(ref::boxSum(sat, {x0, y0, x1, y1}, c), ref::boxSumBruteForce(img, {x0, y0, x1, y1}, c));
    }
  }
}

// 4200x4100 pixels of 255: the bottom-right running total is 255 * 17.2M > 2^32, so the
// stored values wrap; box sums below 2^32 must still be exact.
TEST(ReferenceSat, ExactWhenRunningTotalsOverflow) {
  const int w = 4200, h = 4100;
  ref::ImageRgba8 img(w, h);
  std::fill(img.pixels.begin(), img.pixels.end(), std::uint8_t(255));
  auto rng = freshRng();
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 1000; ++i) img.at(w - 1 - i % 300, h - 1 - i / 300)[i % 4] = std::uint8_t(byte(rng));
  const ref::Sat sat = ref::computeSat(img);
  const std::uint64_t total = ref::boxSumBruteForce(img, {0, 0, w - 1, h - 1}, 0);
  ASSERT_GT(total, std::uint64_t(1) << 32) << "the test image must overflow";
  EXPECT_EQ(sat.at(w - 1, h - 1, 0), std::uint32_t(total));  // stored modulo 2^32
  for (auto box : {ref::Box{w - 300, h - 4, w - 1, h - 1}, ref::Box{w - 1, h - 1, w - 1, h - 1},
                   ref::Box{w - 2000, h - 2000, w - 10, h - 10}, ref::Box{1, 1, w - 1, 100}}) {
    for (int c = 0; c < 4; ++c) {
      const std::uint64_t truth = ref::boxSumBruteForce(img, box, c);
      ASSERT_LT(truth, std::uint64_t(1) << 32);
      EXPECT_EQ(ref::boxSum(sat, box, c), truth) << "c=" << c;
    }
  }
}

TEST(ReferenceSat, BoxMeanClipsToTheImage) {
  ref::ImageRgba8 img(3, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) img.at(x, y)[0] = std::uint8_t(10 * (y * 3 + x));  // 0..50
  const ref::Sat sat = ref::computeSat(img);
  // A box hanging over the top-left corner keeps only pixel (0,0) and (1,0),(0,1),(1,1).
  const auto m = ref::boxMean(sat, {-5, -5, 1, 1});
  EXPECT_FLOAT_EQ(m[0], (0 + 10 + 30 + 40) / 4.0f);
  // The whole image.
  EXPECT_FLOAT_EQ(ref::boxMean(sat, {-100, -100, 100, 100})[0], 150.0f / 6.0f);
  // A single pixel is itself.
  EXPECT_FLOAT_EQ(ref::boxMean(sat, {2, 1, 2, 1})[0], 50.0f);
}

TEST(ReferenceDof, CircleOfConfusion) {
  const int kWidth = 100;  // the linear model does not depend on the image width
  ref::DofParams p;
  p.focalDistance = 10;
  p.focalRange = 4;
  p.maxRadius = 8;
  EXPECT_EQ(ref::cocRadius(10, p, kWidth), 0);  // in focus
  EXPECT_EQ(ref::cocRadius(12, p, kWidth), 4);  // half the range away: half the radius
  EXPECT_EQ(ref::cocRadius(8, p, kWidth), 4);   // symmetric
  EXPECT_EQ(ref::cocRadius(14, p, kWidth), 8);  // at the range: maximum
  EXPECT_EQ(ref::cocRadius(1000, p, kWidth), 8);  // clamped
  EXPECT_EQ(ref::cocRadius(0, p, kWidth), 8);
  int previous = 0;
  for (float d = 10; d < 20; d += 0.01f) {  // monotonic away from focus
    const int r = ref::cocRadius(d, p, kWidth);
    EXPECT_GE(r, previous);
    previous = r;
  }
  p.focalRange = 0;  // degenerate range: everything off the focal plane is maximal
  EXPECT_EQ(ref::cocRadius(10.5f, p, kWidth), 8);
  p.maxRadius = 0;
  EXPECT_EQ(ref::cocRadius(50, p, kWidth), 0);
}

TEST(ReferenceDof, InFocusIsIdentityAndBlurIsTheBoxMean) {
  auto rng = freshRng();
  auto img = randomImage(40, 30, rng);
  for (std::size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;  // opaque input
  ref::DofParams p;
  p.focalDistance = 5;
  p.focalRange = 2;
  p.maxRadius = 3;
  ref::ImageR32F depth(40, 30, 5.0f);
  EXPECT_EQ(ref::depthOfField(img, depth, p).pixels, img.pixels);

  depth = ref::ImageR32F(40, 30, 100.0f);  // everything at maximal blur (r = 3)
  const auto out = ref::depthOfField(img, depth, p);
  for (int y = 0; y < 30; y += 7)
    for (int x = 0; x < 40; x += 5)
      for (int c = 0; c < 3; ++c) {
        const ref::Box box = ref::clipBox({x - 3, y - 3, x + 3, y + 3}, 40, 30);
        const double area = double(box.x1 - box.x0 + 1) * (box.y1 - box.y0 + 1);
        const double mean = double(ref::boxSumBruteForce(img, box, c)) / area;
        EXPECT_NEAR(out.at(x, y)[c], mean, 0.5 + 1e-4) << x << "," << y << " c" << c;
        EXPECT_EQ(out.at(x, y)[3], 255);  // the final image is opaque
      }
}

// The thin-lens model against values worked by hand: f = 50 mm at f/2 focused at 2 m, a
// 36 mm sensor imaged 3600 px wide (100 px per mm). An object at 4 m blurs to a circle of
//   c = (f / N) * |S2 - S1| / S2 * f / (S1 - f) = 25 * (2000 / 4000) * 50 / 1950 mm
//     = 0.3205 mm = 32.05 px across, a box half-size of 16.03 -> 16 px.
// At 1 m: 25 * (1000 / 1000) * 50 / 1950 = 0.6410 mm = 64.1 px, half-size 32.05 -> 32.
TEST(ReferenceDof, ThinLensMatchesHandComputedValues) {
  ref::DofParams p;
  p.model = ref::CocModel::ThinLens;
  p.focalLengthMm = 50;
  p.fNumber = 2;
  p.sensorWidthMm = 36;
  p.focalDistance = 2;
  p.maxRadius = 100;
  EXPECT_EQ(ref::whyNotACamera(p), nullptr);
  EXPECT_EQ(ref::cocRadius(2.0f, p, 3600), 0);
  EXPECT_EQ(ref::cocRadius(4.0f, p, 3600), 16);
  EXPECT_EQ(ref::cocRadius(1.0f, p, 3600), 32);
  // Far away the circle tends to (f / N) * f / (S1 - f) = 0.641 mm: half-size 32.05 -> 32.
  EXPECT_EQ(ref::cocRadius(1e6f, p, 3600), 32);
  // Half the image width, half the pixels: 8.01 -> 8.
  EXPECT_EQ(ref::cocRadius(4.0f, p, 1800), 8);
  // Stopping down to f/4 halves the blur.
  p.fNumber = 4;
  EXPECT_EQ(ref::cocRadius(4.0f, p, 3600), 8);
  p.maxRadius = 5;  // clamped like the linear model
  EXPECT_EQ(ref::cocRadius(1.0f, p, 3600), 5);
}

TEST(ReferenceDof, CameraParametersThatMakeNoCameraAreRefused) {
  ref::DofParams p;
  p.model = ref::CocModel::ThinLens;
  p.fNumber = 0;
  EXPECT_NE(ref::whyNotACamera(p), nullptr);
  p.fNumber = 2;
  p.focalLengthMm = 85;
  p.focalDistance = 0.05f;  // 50 mm: closer than the focal length
  ASSERT_NE(ref::whyNotACamera(p), nullptr);
  EXPECT_NE(std::string(ref::whyNotACamera(p)).find("focal length"), std::string::npos);
  p.focalDistance = 3;
  EXPECT_EQ(ref::whyNotACamera(p), nullptr);
  p.model = ref::CocModel::Linear;
  p.focalRange = 0;
  EXPECT_NE(ref::whyNotACamera(p), nullptr);
}

// Every format's box mean, read and rounded as the shaders do, against the exact mean of
// the pixels: uint32 is exact, the float formats within the bound their rounding allows
// on a small image (entries below 2^24: exact too).
TEST(ReferenceDof, FormatBoxMeansRoundTheExactMean) {
  auto rng = freshRng();
  const auto img = randomImage(37, 23, rng);
  for (const satdof::SatFormatInfo& f : satdof::satFormats()) {
    SCOPED_TRACE(std::string(f.name));
    const ref::Sat sat = ref::computeSat(img, f.id);
    const ref::SatView view = ref::satView(sat);
    for (int i = 0; i < 200; ++i) {
      std::uniform_int_distribution<int> x(0, 36), y(0, 22);
      int x0 = x(rng), x1 = x(rng), y0 = y(rng), y1 = y(rng);
      if (x0 > x1) std::swap(x0, x1);
      if (y0 > y1) std::swap(y0, y1);
      const ref::Rgb8 m = ref::satBoxMean(view, x0, y0, x1, y1);
      const std::uint64_t area = std::uint64_t(x1 - x0 + 1) * (y1 - y0 + 1);
      const std::uint8_t got[3] = {m.r, m.g, m.b};
      for (int c = 0; c < 3; ++c) {
        const std::uint64_t sum = ref::boxSumBruteForce(img, {x0, y0, x1, y1}, c);
        EXPECT_EQ(got[c], (2 * sum + area) / (2 * area)) << x0 << "," << y0 << " " << x1 << "," << y1;
      }
    }
  }
}

// The scattering ground truth on scenes worked by hand.
TEST(ReferenceDofGroundTruth, KnownByHand) {
  ref::DofParams p;
  p.focalDistance = 5;
  p.focalRange = 1;
  p.maxRadius = 1;  // every pixel off the focal plane: radius 1, a 3x3 box
  // A uniform plane blurs to itself, borders included (coverage is normalised).
  ref::ImageRgba8 flat(9, 7);
  for (std::size_t i = 0; i < flat.pixels.size(); ++i) flat.pixels[i] = i % 4 == 3 ? 255 : 77;
  EXPECT_EQ(ref::scatterDepthOfField(flat, ref::ImageR32F(9, 7, 20.0f), p).pixels, flat.pixels);
  // One bright pixel in front of a black plane, both blurred by one pixel. Around it (its
  // 3x3 box) the dot's layer gives 255 at coverage 1/9: 28.33, transmittance 8/9. The
  // plane behind covers 8/9 there (the dot's own pixel is not the plane's) in black: total
  // coverage 1 - 8/9 * 1/9 = 73/81, so the pixel is 28.33 / (73/81) = 31.4 -> 31.
  ref::ImageRgba8 dot(9, 7);
  for (std::size_t i = 3; i < dot.pixels.size(); i += 4) dot.pixels[i] = 255;
  dot.at(4, 3)[0] = 255;
  ref::ImageR32F depth(9, 7, 20.0f);
  depth.at(4, 3) = 1.0f;  // in front
  const auto out = ref::scatterDepthOfField(dot, depth, p);
  for (int y = 2; y <= 4; ++y)
    for (int x = 3; x <= 5; ++x) EXPECT_EQ(out.at(x, y)[0], 31) << x << "," << y;
  EXPECT_EQ(out.at(1, 1)[0], 0);
  EXPECT_EQ(ref::psnr(flat, flat), std::numeric_limits<double>::infinity());
}

namespace {
// A striped plane (blue/yellow) with a red square on another plane: the two artifact scenes.
void artifactScene(ref::ImageRgba8& c, ref::ImageR32F& d, float planeDepth, float squareDepth) {
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      const bool stripe = ((x / 6) + (y / 9)) % 2;
      std::uint8_t* p = c.at(x, y);
      const bool square = x > 50 && x < 110 && y > 30 && y < 90;
      p[0] = square ? 230 : stripe ? 40 : 220;
      p[1] = square ? 20 : stripe ? 60 : 200;
      p[2] = square ? 30 : stripe ? 200 : 40;
      p[3] = 255;
      d.at(x, y) = square ? squareDepth : planeDepth;
    }
}
}  // namespace

// The layered DoF removes the textbook's two artifacts: against the scattering ground
// truth it is at least 3 dB better on a sharp object in front of a blurred background
// (the colour halo) and on a blurred object in front of a sharp background (the hard edge).
TEST(ReferenceLayeredDof, BeatsTheTextbookOnBothArtifacts) {
  ref::DofParams p;
  p.focalDistance = 5;
  p.focalRange = 3;
  p.maxRadius = 10;
  for (const auto& [plane, square, what] : {std::tuple{30.0f, 5.0f, "sharp square, far blurred plane"},
                                            std::tuple{5.0f, 1.5f, "near blurred square, sharp plane"}}) {
    SCOPED_TRACE(what);
    ref::ImageRgba8 colour(160, 120);
    ref::ImageR32F depth(160, 120);
    artifactScene(colour, depth, plane, square);
    const auto truth = ref::scatterDepthOfField(colour, depth, p);
    const double textbook = ref::psnr(ref::depthOfField(colour, depth, p), truth);
    const double layered = ref::psnr(ref::layeredDepthOfField(colour, depth, p), truth);
    EXPECT_GE(layered, textbook + 3.0) << "textbook " << textbook << " dB, layered " << layered << " dB";
  }
}

namespace {
// Depth in blocks of varying size (some smaller than a tile, some across tile edges), with
// most of the image in focus and scattered near blocks of every radius.
ref::ImageR32F scatteredNearBlocks(int w, int h, std::mt19937& rng, float focus) {
  ref::ImageR32F depth(w, h);
  for (float& d : depth.pixels) d = focus;
  std::uniform_int_distribution<int> at(0, std::max(w, h)), size(1, 12);
  std::uniform_real_distribution<float> nearDepth(0.3f * focus, focus);
  for (int i = 0; i < 12; ++i) {
    const int x0 = at(rng) % w, y0 = at(rng) % h, bw = size(rng), bh = size(rng);
    const float d = nearDepth(rng);
    for (int y = y0; y < std::min(h, y0 + bh); ++y)
      for (int x = x0; x < std::min(w, x0 + bw); ++x) depth.at(x, y) = d;
  }
  return depth;
}
}  // namespace

// R(p), the largest near blur that reaches each pixel, is exact: the two separable passes
// bounded by the tiles give what a brute-force search over every pixel gives (no tile
// steps, no tile size anywhere in the answer).
TEST(ReferenceLayeredDof, ReachIsExactAndIndependentOfTheTiles) {
  auto rng = satdof::test::freshRng();
  for (const auto& [w, h] : {std::pair{97, 61}, std::pair{33, 17}, std::pair{1, 40}, std::pair{40, 1}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    ref::DofParams p;
    p.focalDistance = 10;
    p.focalRange = 6;
    p.maxRadius = 14;
    const auto depth = scatteredNearBlocks(w, h, rng, p.focalDistance);
    const ref::CocRamp ramp = ref::cocRamp(p, w);
    const ref::ImageRgba8 colour = satdof::test::randomImage(w, h, rng);
    const auto reach = ref::nearReach(depth, ramp, ref::splitLayers(colour, depth, ramp));
    int reached = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int brute = 0;
        for (int qy = 0; qy < h; ++qy)
          for (int qx = 0; qx < w; ++qx) {
            const float d = depth.at(qx, qy);
            const int r = ref::cocRadius(d, ramp);
            if (d < p.focalDistance && r > 0 && std::abs(qx - x) <= r && std::abs(qy - y) <= r) brute = std::max(brute, r);
          }
        ASSERT_EQ(reach[std::size_t(y) * w + x], brute) << "at " << x << "," << y;
        reached += brute > 0;
      }
    EXPECT_GT(reached, 0) << "the case has near blur to reach something";
  }
}

// Every in-focus pixel that no nearer blur reaches is the scene's pixel, byte for byte;
// a blurred near pixel is the textbook's box of its own radius (counted once, not the
// near field over a textbook image that already holds it).
TEST(ReferenceLayeredDof, KeepsUnreachedFocusExactAndBlursNearPixelsWithTheirOwnRadius) {
  auto rng = satdof::test::freshRng();
  ref::DofParams p;
  p.focalDistance = 10;
  p.focalRange = 6;
  p.maxRadius = 14;
  const int w = 120, h = 80;
  const auto depth = scatteredNearBlocks(w, h, rng, p.focalDistance);
  const ref::ImageRgba8 colour = satdof::test::randomImage(w, h, rng);
  const ref::CocRamp ramp = ref::cocRamp(p, w);
  const auto reach = ref::nearReach(depth, ramp, ref::splitLayers(colour, depth, ramp));
  const auto layered = ref::layeredDepthOfField(colour, depth, p);
  const auto inLight = ref::layeredDepthOfField(colour, depth, p, satdof::SatFormat::Uint32, nullptr, true);
  const auto textbook = ref::depthOfField(colour, depth, p);
  int unreached = 0, nearBlurred = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      const int r = ref::cocRadius(d, ramp);
      const auto same = [&](const ref::ImageRgba8& a, const ref::ImageRgba8& b) {
        return std::equal(a.at(x, y), a.at(x, y) + 3, b.at(x, y));
      };
      if (r == 0 && reach[std::size_t(y) * w + x] == 0) {
        ++unreached;
        ASSERT_TRUE(same(layered, colour)) << "in focus, unreached, changed at " << x << "," << y;
        ASSERT_TRUE(same(inLight, colour)) << "in linear light, in focus, unreached, changed at " << x << "," << y;
      }
      if (d < p.focalDistance && r > 0) {
        ++nearBlurred;
        ASSERT_TRUE(same(layered, textbook)) << "near pixel not its own box at " << x << "," << y;
      }
    }
  EXPECT_GT(unreached, w * h / 4);
  EXPECT_GT(nearBlurred, 20);
}

// The shaders' encoding (encodeLinearByBucket: a bucket's first byte and one comparison)
// against the binary search, exactly: every bucket holds at most one threshold, and the
// bytes agree at every bucket's ends, on both sides of every threshold and at random bit
// patterns from 0 to beyond 256.
TEST(ReferenceLayeredDof, LinearEncodingByBucketIsTheBinarySearch) {
  const ref::LinearLightTables& tables = ref::linearLightTables();
  auto floatOf = [](std::uint32_t bits) { return std::bit_cast<float>(bits); };
  for (int i = 0; i < ref::kEncodeBuckets; ++i) {
    const float start = floatOf((ref::kEncodeFirstBucket + std::uint32_t(i)) << 16);
    const float end = floatOf((ref::kEncodeFirstBucket + std::uint32_t(i) + 1) << 16);
    int inside = 0;
    for (int b = 1; b < 256; ++b) inside += tables.threshold[std::size_t(b)] > start && tables.threshold[std::size_t(b)] < end;
    ASSERT_LE(inside, 1) << "bucket " << i;
  }
  std::vector<float> values = {0.0f, -0.0f, -1.0f, 255.0f, 256.0f, 1e9f, std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::quiet_NaN()};
  for (std::uint32_t bucket = ref::kEncodeFirstBucket - 1; bucket <= ref::kEncodeFirstBucket + ref::kEncodeBuckets;
       ++bucket)
    for (const std::uint32_t low : {0u, 1u, 0xFFFEu, 0xFFFFu}) values.push_back(floatOf(bucket << 16 | low));
  for (int b = 1; b < 256; ++b) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(tables.threshold[std::size_t(b)]);
    for (std::uint32_t d = 0; d <= 8; ++d) values.insert(values.end(), {floatOf(bits - 4 + d)});
  }
  auto rng = freshRng();
  std::uniform_int_distribution<std::uint32_t> anyBits(0, std::bit_cast<std::uint32_t>(300.0f));
  for (int i = 0; i < (1 << 20); ++i) values.push_back(floatOf(anyBits(rng)));
  for (const float v : values)
    ASSERT_EQ(int(ref::encodeLinearByBucket(v, tables)), int(ref::encodeLinear(v, tables))) << "encoding " << v;
}

// Linear light: the tables invert each other (exact from byte 10 up; the darkest bytes
// share the 12-bit linear steps), a 4x4 dither block of a flat value sums to that value in
// sixteenths exactly, and a blurred black-and-white checker comes out at half the light
// (255 * 0.5^(1/2.2) = 186), where averaging the encoded bytes gives 128.
TEST(ReferenceLayeredDof, LinearLightAveragesLightNotBytes) {
  const ref::LinearLightTables& tables = ref::linearLightTables();
  EXPECT_EQ(tables.decode[0], 0u);
  EXPECT_EQ(tables.decode[255], 4080u);
  for (int b = 1; b < 256; ++b) {
    ASSERT_GE(tables.decode[b], tables.decode[b - 1]);
    ASSERT_GT(tables.threshold[b], tables.threshold[b - 1]);
    const int back = ref::encodeLinear(float(tables.decode[b]) / 16.0f, tables);
    if (b >= 10) {
      ASSERT_EQ(back, b);
    }
    ASSERT_LE(std::abs(back - b), 4) << "byte " << b;
  }
  EXPECT_EQ(ref::encodeLinear(255.0f, tables), 255);
  EXPECT_EQ(ref::encodeLinear(0.0f, tables), 0);
  for (std::uint32_t decoded = 0; decoded <= 4080; ++decoded) {
    std::uint32_t sum = 0;
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) sum += ref::linearByte(decoded, 255, x, y);
    ASSERT_EQ(sum, decoded) << "a flat 4x4 block of " << decoded << " sixteenths";
  }
  const int w = 64, h = 48;
  ref::ImageRgba8 checker(w, h);
  ref::ImageR32F depth(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::fill_n(checker.at(x, y), 3, std::uint8_t((x + y) % 2 ? 255 : 0));
      checker.at(x, y)[3] = 255;
      depth.at(x, y) = 20.0f;  // far behind the focus: blurred, in the far field
    }
  ref::DofParams p;
  p.focalDistance = 3;
  p.focalRange = 4;
  p.maxRadius = 6;
  ASSERT_GE(ref::cocRadius(20.0f, ref::cocRamp(p, w)), 4);
  const auto bytes = ref::layeredDepthOfField(checker, depth, p);
  const auto light = ref::layeredDepthOfField(checker, depth, p, satdof::SatFormat::Uint32, nullptr, true);
  for (int y = 8; y < h - 8; ++y)
    for (int x = 8; x < w - 8; ++x)
      for (int c = 0; c < 3; ++c) {
        ASSERT_NEAR(int(bytes.at(x, y)[c]), 128, 1) << x << "," << y;
        ASSERT_NEAR(int(light.at(x, y)[c]), 186, 1) << x << "," << y;
      }
}

// No seams: a near object whose blur grows smoothly down the image spreads over the sharp
// background beside it by as much, row by row: the spread follows the exact reach of
// each row's near pixels, never a 16x16 tile's dilated radius (which would hold it flat
// within a tile and step at the tile's edge).
TEST(ReferenceLayeredDof, NearBlurSpreadsSmoothlyAcrossTileEdges) {
  ref::DofParams p;
  p.focalDistance = 10;
  p.focalRange = 6;
  p.maxRadius = 14;
  const int w = 80, h = 96, edge = 37;  // the object's right edge, inside a tile
  const ref::CocRamp ramp = ref::cocRamp(p, w);
  ref::ImageR32F depth(w, h);
  ref::ImageRgba8 colour(w, h);
  std::vector<int> radius(h);
  for (int y = 0; y < h; ++y) {
    const float nearDepth = p.focalDistance - 0.3f - 0.045f * float(y);
    radius[std::size_t(y)] = ref::cocRadius(nearDepth, ramp);
    for (int x = 0; x < w; ++x) {
      const bool object = x < edge;
      depth.at(x, y) = object ? nearDepth : p.focalDistance;
      std::uint8_t* c = colour.at(x, y);
      c[0] = c[1] = c[2] = object ? 250 : 40;
      c[3] = 255;
    }
  }
  ASSERT_GE(radius.front(), 1);
  ASSERT_GE(radius.back() - radius.front(), 6) << "the ramp crosses several radii";
  for (int y = 0; y + 1 < h; ++y) ASSERT_LE(std::abs(radius[std::size_t(y + 1)] - radius[std::size_t(y)]), 1);
  const ref::ImageRgba8 layered = ref::layeredDepthOfField(colour, depth, p);
  std::vector<int> spread(h);  // background pixels right of the edge the near blur brightens
  for (int y = 0; y < h; ++y)
    for (int x = edge; x < w; ++x) spread[std::size_t(y)] += layered.at(x, y)[0] > 40;
  for (int y = 0; y < h; ++y) {
    EXPECT_GT(spread[std::size_t(y)], 0) << "row " << y << ": the near blur should spread over the background";
    EXPECT_LE(spread[std::size_t(y)], 2 * p.maxRadius + 1) << "row " << y;
    if (y + 1 < h) {
      EXPECT_LE(std::abs(spread[std::size_t(y + 1)] - spread[std::size_t(y)]), 1)
          << "a step between rows " << y << " and " << y + 1 << " (tile edges at multiples of 16)";
    }
  }
  EXPECT_GT(spread.back(), spread.front() + 4) << "the spread grows with the blur";
}

namespace {

// The two see-through cases' frame: 120x90, focus 10 (range 2), and a square from (40, 25)
// to (79, 64) inclusive.
struct SquareCase {
  ref::DofParams p;
  int w = 120, h = 90, x0 = 40, y0 = 25, x1 = 79, y1 = 64;
  bool onSquare(int x, int y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
  // The square drawn in `rgb` at depth `d` over `colour` and `depth`.
  void paint(ref::ImageRgba8& colour, ref::ImageR32F& depth, const std::uint8_t rgb[3], float d) const {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        std::copy(rgb, rgb + 3, colour.at(x, y));
        depth.at(x, y) = d;
      }
  }
  // f(qx, qy) for every pixel of the aperture of radius r around (x, y), clipped.
  template <class F>
  void forAperture(int x, int y, int r, F f) const {
    for (int i = 0; i < ref::kApertureBoxes; ++i) {
      ref::ApertureBox b;
      if (!ref::apertureBox(p.aperture, x, y, r, i, w, h, b)) continue;
      for (int qy = b.y0; qy <= b.y1; ++qy)
        for (int qx = b.x0; qx <= b.x1; ++qx) f(qx, qy);
    }
  }
};

SquareCase squareCase(float maxRadius) {
  SquareCase c;
  c.p.focalDistance = 10;
  c.p.focalRange = 2;
  c.p.maxRadius = maxRadius;
  return c;
}

}  // namespace

// See-through, against a lens written out independently: a blurred near square (one
// colour, radius rN) over a sharp, noisy background at the focal distance, the background
// also drawn under the square (the second layer). Through a lens every pixel p sees the
// square through the aperture offsets u where p + u lies on it, and through all others the
// background at p itself (in focus, every ray meets there): (k * square + (A - k) * B(p))
// / A. See-through gives that within one level everywhere, for the box and the disc; the
// plain layered DoF shows the background around the edge instead (far off inside the
// silhouette); pixels whose box holds no far side, and a second layer in front of the
// focal plane, change nothing.
TEST(ReferenceLayeredDof, SeeThroughShowsWhatLiesBehindABlurredEdgeAsALensDoes) {
  auto rng = satdof::test::freshRng();
  SquareCase sc = squareCase(12);
  ref::DofParams& p = sc.p;
  const int w = sc.w, h = sc.h, x0 = sc.x0, y0 = sc.y0, x1 = sc.x1, y1 = sc.y1;
  const ref::CocRamp ramp = ref::cocRamp(p, w);
  const float squareDepth = 3.0f;
  const int rN = ref::cocRadius(squareDepth, ramp);
  ASSERT_GE(rN, 5);
  ASSERT_LT(rN, x0);
  const ref::ImageRgba8 background = satdof::test::randomImage(w, h, rng);
  const ref::ImageR32F behindDepth = [&] {
    ref::ImageR32F d(w, h);
    for (float& v : d.pixels) v = p.focalDistance;
    return d;
  }();
  ref::ImageRgba8 colour = background;
  ref::ImageR32F depth = behindDepth;
  const std::uint8_t square[3] = {230, 60, 20};
  const auto onSquare = [&](int x, int y) { return sc.onSquare(x, y); };
  sc.paint(colour, depth, square, squareDepth);
  const ref::BehindLayer behind{background, behindDepth};
  for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc}) {
    SCOPED_TRACE(aperture == ref::Aperture::Box ? "box" : "disc");
    p.aperture = aperture;
    const ref::ImageRgba8 seeThrough = ref::layeredDepthOfField(colour, depth, p, satdof::SatFormat::Uint32, &behind);
    const ref::ImageRgba8 layered = ref::layeredDepthOfField(colour, depth, p);
    int worstSeeThrough = 0, worstLayered = 0, unchanged = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int k = 0, area = 0;  // the aperture's pixels around (x, y), and those on the square
        sc.forAperture(x, y, rN, [&](int qx, int qy) { k += onSquare(qx, qy), ++area; });
        for (int c = 0; c < 3; ++c) {
          const double lens = (k * double(square[c]) + (area - k) * double(background.at(x, y)[c])) / area;
          worstSeeThrough = std::max(worstSeeThrough, int(std::lround(std::abs(seeThrough.at(x, y)[c] - lens))));
          worstLayered = std::max(worstLayered, int(std::lround(std::abs(layered.at(x, y)[c] - lens))));
        }
        if (k == area) unchanged += std::equal(seeThrough.at(x, y), seeThrough.at(x, y) + 4, layered.at(x, y));
        if (!onSquare(x, y)) {
          ASSERT_TRUE(std::equal(seeThrough.at(x, y), seeThrough.at(x, y) + 4, layered.at(x, y)))
              << "outside the square nothing lies behind a near pixel, at " << x << "," << y;
        }
      }
    EXPECT_LE(worstSeeThrough, 1);
    EXPECT_GT(worstLayered, 30) << "the case must show what see-through changes";
    const int interior = (x1 - x0 + 1 - 2 * rN) * (y1 - y0 + 1 - 2 * rN);
    EXPECT_GE(unchanged, interior) << "inside the square, away from its edge, the box alone";
    // A second layer in front of the focal plane is no background: the plain layered DoF.
    ref::ImageR32F nearBehind = behindDepth;
    for (float& v : nearBehind.pixels) v = 0.5f * p.focalDistance;
    const ref::BehindLayer inFront{background, nearBehind};
    EXPECT_EQ(ref::layeredDepthOfField(colour, depth, p, satdof::SatFormat::Uint32, &inFront).pixels, layered.pixels);
  }
}

// See-through past a sharp edge, against a lens written out independently: a sharp square
// at the focal distance over a far wall blurred by rF, the wall bright where the square
// hides it and dark elsewhere (the second layer holds the whole wall). Every ray to a wall
// pixel p meets at p on the focal plane, beside the square, so the lens shows the wall's
// mean over p's aperture, the hidden bright part included: see-through gives that within
// one level, the plain layered DoF (which renormalises over the visible wall) is far off
// beside the square, and the square itself stays as drawn. A second layer that holds the
// empty depth there (nothing behind, as under a floor) changes nothing.
TEST(ReferenceLayeredDof, SeeThroughShowsTheBackgroundASharpEdgeHidesAsALensDoes) {
  auto rng = satdof::test::freshRng();
  SquareCase sc = squareCase(9);
  ref::DofParams& p = sc.p;
  const int w = sc.w, h = sc.h;
  const float wallDepth = 40.0f;
  const int rF = ref::cocRadius(wallDepth, ref::cocRamp(p, w));
  ASSERT_GE(rF, 5);
  const auto onSquare = [&](int x, int y) { return sc.onSquare(x, y); };
  std::uniform_int_distribution<int> dark(0, 60), bright(190, 255);
  ref::ImageRgba8 wall(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* c = wall.at(x, y);
      for (int i = 0; i < 3; ++i) c[i] = std::uint8_t(onSquare(x, y) ? bright(rng) : dark(rng));
      c[3] = 255;
    }
  ref::ImageR32F wallDepths(w, h);
  for (float& v : wallDepths.pixels) v = wallDepth;
  ref::ImageRgba8 colour = wall;
  ref::ImageR32F depth = wallDepths;
  const std::uint8_t square[3] = {20, 200, 90};
  sc.paint(colour, depth, square, p.focalDistance);
  const ref::BehindLayer behind{wall, wallDepths};
  for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc}) {
    SCOPED_TRACE(aperture == ref::Aperture::Box ? "box" : "disc");
    p.aperture = aperture;
    const ref::ImageRgba8 seeThrough = ref::layeredDepthOfField(colour, depth, p, satdof::SatFormat::Uint32, &behind);
    const ref::ImageRgba8 layered = ref::layeredDepthOfField(colour, depth, p);
    int worstSeeThrough = 0, worstLayered = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        if (onSquare(x, y)) {
          ASSERT_TRUE(std::equal(square, square + 3, seeThrough.at(x, y))) << "the sharp square at " << x << "," << y;
          continue;
        }
        double sum[3] = {0, 0, 0};
        int area = 0;
        sc.forAperture(x, y, rF, [&](int qx, int qy) {
          for (int c = 0; c < 3; ++c) sum[c] += wall.at(qx, qy)[c];
          ++area;
        });
        for (int c = 0; c < 3; ++c) {
          const double lens = sum[c] / area;
          worstSeeThrough = std::max(worstSeeThrough, int(std::lround(std::abs(seeThrough.at(x, y)[c] - lens))));
          worstLayered = std::max(worstLayered, int(std::lround(std::abs(layered.at(x, y)[c] - lens))));
        }
      }
    EXPECT_LE(worstSeeThrough, 1);
    EXPECT_GT(worstLayered, 30) << "the case must show what see-through changes";
    const ref::BehindLayer nothingBehind{wall, wallDepths, wallDepth};
    EXPECT_EQ(ref::layeredDepthOfField(colour, depth, p, satdof::SatFormat::Uint32, &nothingBehind).pixels,
              layered.pixels);
  }
}

// Where the second layer starts: the nearest depth whose blur radius is 0, to the float,
// for both models and several focus settings.
TEST(ReferenceLayeredDof, SecondLayerStartsWhereTheNearBlurEnds) {
  for (const bool thinLens : {false, true})
    for (const float focus : {0.8f, 4.0f, 22.0f}) {
      ref::DofParams p;
      p.model = thinLens ? ref::CocModel::ThinLens : ref::CocModel::Linear;
      p.focalDistance = focus;
      p.focalRange = 0.5f * focus;
      p.maxRadius = 30;
      const ref::CocRamp ramp = ref::cocRamp(p, 1280);
      const float from = ref::secondLayerFrom(ramp);
      SCOPED_TRACE(std::to_string(focus) + (thinLens ? " thin lens" : " linear") + ": from " + std::to_string(from));
      EXPECT_GT(from, 0.0f);
      EXPECT_LE(from, focus);
      EXPECT_EQ(ref::cocRadius(from, ramp), 0);
      EXPECT_GT(ref::cocRadius(std::nextafter(from, 0.0f), ramp), 0);
      EXPECT_TRUE(ref::behindCounts(from, ramp));
      EXPECT_FALSE(ref::behindCounts(std::nextafter(from, 0.0f), ramp));
    }
}

// SATDOF_SEED=N replays a run: every fresh generator then starts from N.
TEST(TestSupport, SatdofSeedReplaysTheRandomInputs) {
  ::setenv("SATDOF_SEED", "12345", 1);
  std::mt19937 a = satdof::test::freshRng(), b = satdof::test::freshRng();
  ::unsetenv("SATDOF_SEED");
  const auto first = a();
  EXPECT_EQ(first, b());
  EXPECT_EQ(first, std::mt19937(12345)());
  std::mt19937 c = satdof::test::freshRng(), d = satdof::test::freshRng();
  EXPECT_NE(std::make_pair(c(), c()), std::make_pair(d(), d()));  // fresh seeds differ (2^-64 chance not)
}

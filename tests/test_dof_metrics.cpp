// tests/test_dof_metrics.cpp — the lens truth's CPU parts (satdof/reference/lens_truth.h:
// the aperture samples, the aperture radius, the linear-light mean) and the quality
// metrics (satdof/reference/dof_metrics.h) on images worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "satdof/reference/dof_ground_truth.h"
#include "satdof/reference/dof_metrics.h"
#include "satdof/reference/lens_truth.h"

namespace ref = satdof::reference;

namespace {

ref::DofParams thinLens(float focus, float maxRadius = 40.0f) {
  ref::DofParams p;
  p.model = ref::CocModel::ThinLens;
  p.focalDistance = focus;
  p.maxRadius = maxRadius;
  p.focalLengthMm = 200.0f;  // a long lens wide open: a few pixels of blur on small images
  p.fNumber = 1.0f;
  return p;
}

}  // namespace

// The aperture points cover the disc (or square) evenly: inside it, centred, and a disc
// of half the radius holds a quarter of them; the first N are the start of the first 2N.
TEST(LensTruth, AperturePointsCoverTheApertureEvenly) {
  for (const auto shape : {ref::ApertureShape::Disc, ref::ApertureShape::Square}) {
    constexpr int kN = 1024;
    double sx = 0, sy = 0;
    int inner = 0, left = 0;
    for (int i = 0; i < kN; ++i) {
      const ref::AperturePoint a = ref::aperturePoint(std::size_t(i), shape);
      if (shape == ref::ApertureShape::Disc) {
        ASSERT_LE(a.x * a.x + a.y * a.y, 1.0f + 1e-6f) << i;
        inner += a.x * a.x + a.y * a.y < 0.25f;
      } else {
        ASSERT_LE(std::abs(a.x), 1.0f);
        ASSERT_LE(std::abs(a.y), 1.0f);
        inner += std::abs(a.x) < 0.5f && std::abs(a.y) < 0.5f;
      }
      left += a.x < 0;
      sx += a.x;
      sy += a.y;
      const ref::AperturePoint again = ref::aperturePoint(std::size_t(i), shape);
      EXPECT_EQ(a.x, again.x);
      EXPECT_EQ(a.y, again.y);
    }
    EXPECT_NEAR(sx / kN, 0.0, 0.01);
    EXPECT_NEAR(sy / kN, 0.0, 0.01);
    EXPECT_NEAR(double(inner) / kN, 0.25, 0.01);
    EXPECT_NEAR(double(left) / kN, 0.5, 0.01);
  }
}

// The aperture radius turns the thin-lens circle of confusion into geometry: A * P *
// |1 - S1 / z| pixels is the model's radius at z, for every z. No lens for the linear model.
TEST(LensTruth, ApertureRadiusGivesTheThinLensBlur) {
  const ref::DofParams p = thinLens(6.0f);
  const double perUnit = 123.4;
  const auto a = ref::lensApertureRadius(p, 1280, perUnit);
  ASSERT_TRUE(a.has_value());
  const ref::CocRamp ramp = ref::cocRamp(p, 1280);
  for (const float z : {1.5f, 3.0f, 5.9f, 6.0f, 8.0f, 30.0f, 1000.0f}) {
    const double lens = *a * perUnit * std::abs(1.0 - 6.0 / z);
    EXPECT_NEAR(lens, ref::unclampedCocRadius(z, ramp), 1e-4 * (1 + lens)) << z;
    // The integer radius the DoF uses is that, rounded (where the clamp does not bind).
    if (lens < 39) {
      EXPECT_EQ(ref::cocRadius(z, ramp), int(std::floor(lens + 0.5))) << z;
    }
  }
  // Twice the f-number, half the aperture.
  ref::DofParams slower = p;
  slower.fNumber *= 2;
  EXPECT_NEAR(*ref::lensApertureRadius(slower, 1280, perUnit), *a / 2, 1e-9);
  ref::DofParams linear = p;
  linear.model = ref::CocModel::Linear;
  EXPECT_FALSE(ref::lensApertureRadius(linear, 1280, perUnit).has_value());
}

// Equal frames give themselves back, every byte value; black and white average to the
// encoded half of the light, not to byte 128.
TEST(LensTruth, LinearLightMean) {
  ref::ImageRgba8 ramp(256, 1);
  for (int i = 0; i < 256; ++i) ramp.at(i, 0)[0] = ramp.at(i, 0)[1] = ramp.at(i, 0)[2] = std::uint8_t(i);
  for (int i = 0; i < 256; ++i) ramp.at(i, 0)[3] = 255;
  ref::LinearLightMean same;
  for (int k = 0; k < 7; ++k) same.add(ramp);
  EXPECT_EQ(same.mean().pixels, ramp.pixels);
  ref::ImageRgba8 black(1, 1), white(1, 1);
  white.pixels = {255, 255, 255, 255};
  ref::LinearLightMean half;
  half.add(black);
  half.add(white);
  EXPECT_EQ(half.count(), 2u);
  const int expected = int(std::floor(255.0 * std::pow(0.5, 1.0 / ref::kSceneGamma) + 0.5));
  EXPECT_EQ(half.mean().pixels[0], expected);
  EXPECT_EQ(expected, 186);
  EXPECT_EQ(half.encodedMean().pixels[0], 128);  // (0 + 255) / 2 = 127.5, rounded up
  EXPECT_EQ(same.encodedMean().pixels, ramp.pixels);
  EXPECT_THROW(half.add(ramp), std::invalid_argument);
}

// A near square in front of a far wall: the band holds exactly the pixels within 13 px
// (Euclidean) of its outline; a flat or gently sloping depth has none.
TEST(DofMetrics, SilhouetteBandIsTheOutlineDilated) {
  constexpr int kW = 80, kH = 60;
  const ref::DofParams p = thinLens(10.0f);
  ref::ImageR32F depth(kW, kH, 10.0f);
  EXPECT_EQ(ref::silhouetteBand(depth, p).count(), 0u);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) depth.at(x, y) = 10.0f + 0.002f * float(x + y);  // radius changes < 1 px a step
  EXPECT_EQ(ref::silhouetteBand(depth, p).count(), 0u);
  depth = ref::ImageR32F(kW, kH, 10.0f);
  for (int y = 20; y < 40; ++y)
    for (int x = 30; x < 50; ++x) depth.at(x, y) = 7.5f;  // depth ratio 1.33; radius 0 vs 1.5 px
  const ref::CocRamp ramp = ref::cocRamp(p, kW);
  ASSERT_GT(ref::unclampedCocRadius(7.5f, ramp), 1.0);
  const ref::Mask band = ref::silhouetteBand(depth, p);
  // The outline: the square's border pixels and the wall pixels beside them.
  auto inSquare = [](int x, int y) { return x >= 30 && x < 50 && y >= 20 && y < 40; };
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      double nearest = 1e9;
      for (int v = 0; v < kH; ++v)
        for (int u = 0; u < kW; ++u) {
          const bool edge = (u + 1 < kW && inSquare(u, v) != inSquare(u + 1, v)) ||
                            (u > 0 && inSquare(u, v) != inSquare(u - 1, v)) ||
                            (v + 1 < kH && inSquare(u, v) != inSquare(u, v + 1)) ||
                            (v > 0 && inSquare(u, v) != inSquare(u, v - 1));
          if (edge) nearest = std::min(nearest, std::hypot(double(u - x), double(v - y)));
        }
      EXPECT_EQ(band.inside[std::size_t(y) * kW + x], nearest <= 13.0 ? 1 : 0) << x << "," << y;
    }
  // Two surfaces both in focus far apart in depth are a silhouette by the depth ratio.
  ref::DofParams wide = p;
  wide.fNumber = 1000.0f;  // every radius under 0.1 px
  EXPECT_EQ(ref::silhouetteBand(depth, wide).count(), 0u);
  for (int y = 20; y < 40; ++y)
    for (int x = 30; x < 50; ++x) depth.at(x, y) = 5.0f;
  EXPECT_EQ(ref::silhouetteBand(depth, wide).count(), band.count());
}

// Sharp and clear: in focus and out of reach of every nearer blurred pixel's box.
TEST(DofMetrics, SharpAndClearLeavesOutWhatNearBlurReaches) {
  constexpr int kW = 70, kH = 50;
  const ref::DofParams p = thinLens(10.0f);
  const ref::CocRamp ramp = ref::cocRamp(p, kW);
  ref::ImageR32F depth(kW, kH, 10.0f);  // an in-focus wall
  EXPECT_EQ(ref::sharpAndClear(depth, p).count(), std::size_t(kW) * kH);
  const float nearDepth = 6.0f;
  const int r = ref::cocRadius(nearDepth, ramp);
  ASSERT_GE(r, 1);
  ASSERT_LE(r, 10);
  depth.at(20, 25) = nearDepth;  // one blurred pixel in front
  depth.at(50, 10) = 200.0f;     // and one far behind, blurred more: reaches nothing nearer
  ASSERT_GT(ref::cocRadius(200.0f, ramp), r);
  const ref::Mask clear = ref::sharpAndClear(depth, p);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const bool reached = std::abs(x - 20) <= r && std::abs(y - 25) <= r;
      const bool far = x == 50 && y == 10;
      EXPECT_EQ(clear.inside[std::size_t(y) * kW + x], reached || far ? 0 : 1) << x << "," << y;
    }
}

TEST(DofMetrics, MaskedPsnrAndIdenticalPercent) {
  ref::ImageRgba8 a(4, 1), b(4, 1);
  for (std::size_t i = 0; i < a.pixels.size(); ++i) a.pixels[i] = b.pixels[i] = 100;
  b.at(3, 0)[1] = 110;  // one channel of one pixel off by 10
  ref::Mask firstThree{4, 1, {1, 1, 1, 0}}, all{4, 1, {1, 1, 1, 1}}, none{4, 1, {0, 0, 0, 0}};
  EXPECT_EQ(ref::psnr(a, b, firstThree), std::numeric_limits<double>::infinity());
  EXPECT_NEAR(ref::psnr(a, b, all), 10.0 * std::log10(255.0 * 255.0 / (100.0 / 12.0)), 1e-9);
  EXPECT_TRUE(std::isnan(ref::psnr(a, b, none)));
  EXPECT_DOUBLE_EQ(ref::identicalPercent(b, a, all), 75.0);
  EXPECT_DOUBLE_EQ(ref::identicalPercent(b, a, firstThree), 100.0);
  b.at(0, 0)[3] = 7;  // alpha is not compared
  EXPECT_DOUBLE_EQ(ref::identicalPercent(b, a, firstThree), 100.0);
  EXPECT_TRUE(std::isnan(ref::identicalPercent(b, a, none)));
  EXPECT_EQ(ref::complement(firstThree).inside, (std::vector<std::uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(ref::complement(none).count(), 4u);
}

// The ceiling beside a baseline: a method that changes pixels 1 and 2 of four is exact
// there at best; the baseline's error in pixels 0 and 3 stays.
TEST(DofMetrics, CeilingKeepsTheBaselinesErrorWhereAMethodLeavesItsPixels) {
  ref::ImageRgba8 truth(4, 1), baseline(4, 1), method(4, 1);
  for (std::size_t i = 0; i < truth.pixels.size(); ++i) truth.pixels[i] = baseline.pixels[i] = method.pixels[i] = 50;
  for (int x = 0; x < 4; ++x) baseline.at(x, 0)[0] = method.at(x, 0)[0] = std::uint8_t(50 + 4 * (x + 1));  // errors 4..16
  method.at(1, 0)[0] = 51;  // the method's own pixels: closer, and further
  method.at(2, 0)[2] = 90;
  method.at(3, 0)[3] = 0;  // alpha: not a change
  const ref::Mask changed = ref::differingPixels(method, baseline);
  EXPECT_EQ(changed.inside, (std::vector<std::uint8_t>{0, 1, 1, 0}));
  const double leftError = (4.0 * 4.0 + 16.0 * 16.0) / 12.0;  // pixels 0 and 3, over 4 pixels x 3 channels
  EXPECT_NEAR(ref::psnrCeiling(baseline, truth, changed), 10.0 * std::log10(255.0 * 255.0 / leftError), 1e-9);
  EXPECT_GE(ref::psnrCeiling(baseline, truth, changed), ref::psnr(method, truth));
  EXPECT_EQ(ref::psnrCeiling(baseline, truth, ref::differingPixels(baseline, baseline)), ref::psnr(baseline, truth));
  EXPECT_EQ(ref::psnrCeiling(baseline, truth, ref::Mask{4, 1, {1, 1, 1, 1}}), std::numeric_limits<double>::infinity());
}

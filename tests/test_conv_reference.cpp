// tests/test_conv_reference.cpp — the filters and the CPU reference convolution.
//
// Builders (normalisation, symmetry, separable factors that reproduce the 2D kernel),
// the tap orientation, hand-computed cases for both borders, agreement between the three
// maths where it is guaranteed, and clear errors for bad input. These results are what
// every GPU variant is held to, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "satdof/reference/conv.h"

namespace ref = satdof::reference;
using satdof::Border;
using satdof::ConvMath;
using satdof::Filter;

namespace {

ref::ImageRgba8 randomImage(int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  ref::ImageRgba8 img(w, h);
  for (auto& p : img.pixels) p = std::uint8_t(byte(rng));
  return img;
}

// One channel image from rows of values; the other channels hold 255 - v, v / 2, 7.
ref::ImageRgba8 fromRows(const std::vector<std::vector<int>>& rows) {
  ref::ImageRgba8 img(int(rows[0].size()), int(rows.size()));
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const int v = rows[y][x];
      std::uint8_t* p = img.at(x, y);
      p[0] = std::uint8_t(v);
      p[1] = std::uint8_t(255 - v);
      p[2] = std::uint8_t(v / 2);
      p[3] = 7;
    }
  return img;
}

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

std::vector<Filter> allBuilders(int r) {
  return {satdof::box(r),     satdof::gaussian(r, satdof::defaultGaussianSigma(r)),
          satdof::sharpen(r), satdof::laplacian(r),
          satdof::emboss(r),  satdof::identity(r)};
}

void expectSameImage(const ref::ImageRgba8& a, const ref::ImageRgba8& b, const std::string& what) {
  ASSERT_EQ(a.width, b.width) << what;
  ASSERT_EQ(a.height, b.height) << what;
  for (std::size_t i = 0; i < a.pixels.size(); ++i)
    if (a.pixels[i] != b.pixels[i]) {
      const std::size_t px = i / 4;
      FAIL() << what << ": first difference at x=" << px % a.width << " y=" << px / a.width
             << " channel " << i % 4 << ": " << int(a.pixels[i]) << " vs " << int(b.pixels[i]);
    }
}

}  // namespace

// ---- builders ------------------------------------------------------------------------

TEST(ConvFilters, EveryBuilderIsValidAtEveryRadius) {
  for (int r = satdof::kMinFilterRadius; r <= satdof::kMaxFilterRadius; ++r)
    for (const Filter& f : allBuilders(r)) {
      EXPECT_EQ(f.radius, r);
      EXPECT_EQ(f.weights.size(), std::size_t(f.taps())) << f.name;
      EXPECT_FALSE(satdof::validateFilter(f).has_value()) << f.name << " r=" << r;
    }
}

TEST(ConvFilters, BoxIsAUniformNormalisedSeparableMean) {
  for (int r : {1, 2, 7, 15}) {
    const Filter f = satdof::box(r);
    EXPECT_EQ(f.kind, satdof::FilterKind::Box);
    ASSERT_TRUE(f.separable);
    for (float w : f.weights) EXPECT_EQ(w, f.weights[0]);
    EXPECT_NEAR(sum(f.weights), 1.0, 1e-5);
    EXPECT_NEAR(sum(f.rowWeights), 1.0, 1e-6);
  }
}

TEST(ConvFilters, GaussianIsNormalisedSymmetricAndPeaked) {
  for (int r : {1, 2, 3, 7, 15}) {
    const Filter f = satdof::gaussian(r, satdof::defaultGaussianSigma(r));
    ASSERT_TRUE(f.separable);
    const int n = f.size();
    EXPECT_NEAR(sum(f.rowWeights), 1.0, 1e-6);
    EXPECT_NEAR(sum(f.weights), 1.0, 1e-5);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        EXPECT_EQ(f.at(i, j), f.at(j, i));
        EXPECT_EQ(f.at(i, j), f.at(n - 1 - i, j));
        EXPECT_EQ(f.at(i, j), f.at(i, n - 1 - j));
      }
    for (int k = 0; k < r; ++k) EXPECT_LT(f.rowWeights[k], f.rowWeights[k + 1]);
  }
  // A wider sigma spreads the weight out.
  EXPECT_GT(satdof::gaussian(3, 3.0f).rowWeights[0], satdof::gaussian(3, 1.0f).rowWeights[0]);
}

TEST(ConvFilters, SeparableFactorsReproduceThe2DKernelExactly) {
  for (int r : {1, 4, 15})
    for (const Filter& f : allBuilders(r)) {
      if (!f.separable) continue;
      const int n = f.size();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          EXPECT_EQ(f.at(i, j), f.colWeights[i] * f.rowWeights[j]) << f.name;
    }
}

TEST(ConvFilters, DenseFiltersHaveTheDocumentedSums) {
  for (int r : {1, 2, 15}) {
    EXPECT_FALSE(satdof::sharpen(r).separable);
    EXPECT_NEAR(sum(satdof::sharpen(r).weights), 1.0, 1e-5);
    EXPECT_EQ(sum(satdof::laplacian(r).weights), 0.0);
    EXPECT_NEAR(sum(satdof::emboss(r).weights), 1.0, 1e-5);
  }
  const std::vector<float> classicEmboss = {-2, -1, 0, -1, 1, 1, 0, 1, 2};
  EXPECT_EQ(satdof::emboss(1).weights, classicEmboss);
  const std::vector<float> classicLaplacian = {-1, -1, -1, -1, 8, -1, -1, -1, -1};
  EXPECT_EQ(satdof::laplacian(1).weights, classicLaplacian);
}

// ---- bad input -----------------------------------------------------------------------

TEST(ConvFilters, BadParametersThrowReadableErrors) {
  EXPECT_THROW(satdof::box(0), std::invalid_argument);
  EXPECT_THROW(satdof::box(16), std::invalid_argument);
  EXPECT_THROW(satdof::gaussian(3, 0.0f), std::invalid_argument);
  EXPECT_THROW(satdof::gaussian(3, std::nanf("")), std::invalid_argument);
  EXPECT_THROW(satdof::sharpen(-1), std::invalid_argument);
  const std::vector<float> eight(8, 1.0f);
  try {
    satdof::custom(1, eight);
    FAIL() << "8 weights for radius 1 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("needs 9 weights"), std::string::npos) << e.what();
  }
  std::vector<float> nine(9, 1.0f);
  nine[4] = INFINITY;
  EXPECT_THROW(satdof::custom(1, nine), std::invalid_argument);
  nine[4] = 2e6f;
  EXPECT_THROW(satdof::custom(1, nine), std::invalid_argument);
}

TEST(ConvFilters, HandMadeFiltersAreCheckedBeforeUse) {
  Filter f = satdof::box(2);
  f.weights.pop_back();
  ASSERT_TRUE(satdof::validateFilter(f).has_value());
  EXPECT_NE(satdof::validateFilter(f)->find("needs 25 weights"), std::string::npos);
  const ref::ImageRgba8 img = randomImage(5, 4, 1);
  EXPECT_THROW(ref::convolve2D(img, f, Border::Zero), std::invalid_argument);

  Filter g = satdof::gaussian(2, 1.0f);
  g.rowWeights[0] *= 2.0f;  // factors no longer match the 2D weights
  EXPECT_TRUE(satdof::validateFilter(g).has_value());

  Filter h = satdof::box(1);
  h.radius = 16;
  EXPECT_NE(satdof::validateFilter(h)->find("outside 1..15"), std::string::npos);

  EXPECT_THROW(ref::convolveSeparable(img, satdof::sharpen(1), Border::Zero),
               std::invalid_argument);
  EXPECT_THROW(ref::convolve(img, satdof::gaussian(1, 1.0f), Border::Zero, ConvMath::BoxSum),
               std::invalid_argument);
  EXPECT_THROW(ref::boxFilterExact(img, 0, Border::Zero), std::invalid_argument);
}

// ---- rounding and orientation --------------------------------------------------------

TEST(ConvReference, RoundingIsHalfUpClampedToAByte) {
  EXPECT_EQ(ref::roundToByte(-3.0f), 0);
  EXPECT_EQ(ref::roundToByte(-0.4f), 0);
  EXPECT_EQ(ref::roundToByte(0.5f), 1);
  EXPECT_EQ(ref::roundToByte(1.49f), 1);
  EXPECT_EQ(ref::roundToByte(2.5f), 3);
  EXPECT_EQ(ref::roundToByte(254.6f), 255);
  EXPECT_EQ(ref::roundToByte(1e9f), 255);
}

TEST(ConvReference, WeightAtRowIColumnJReadsOffsetJMinusRIMinusR) {
  // A single 1 at (i = 0, j = 2): out(x, y) = in(x + 1, y - 1).
  std::vector<float> w(9, 0.0f);
  w[0 * 3 + 2] = 1.0f;
  const Filter shift = satdof::custom(1, w, "shift");
  const ref::ImageRgba8 img = randomImage(6, 5, 2);
  const ref::ImageRgba8 zero = ref::convolve2D(img, shift, Border::Zero);
  const ref::ImageRgba8 clamp = ref::convolve2D(img, shift, Border::Clamp);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      for (int c = 0; c < 4; ++c) {
        const bool inside = x + 1 < img.width && y - 1 >= 0;
        EXPECT_EQ(zero.at(x, y)[c], inside ? img.at(x + 1, y - 1)[c] : 0);
        const int sx = std::min(x + 1, img.width - 1), sy = std::max(y - 1, 0);
        EXPECT_EQ(clamp.at(x, y)[c], img.at(sx, sy)[c]);
      }
}

TEST(ConvReference, IdentityReturnsTheInput) {
  const ref::ImageRgba8 img = randomImage(13, 9, 3);
  for (int r : {1, 3, 15})
    for (Border b : {Border::Zero, Border::Clamp}) {
      const Filter f = satdof::identity(r);
      expectSameImage(ref::convolve2D(img, f, b), img, "direct identity");
      expectSameImage(ref::convolveSeparable(img, f, b), img, "separable identity");
    }
}

// ---- hand cases ----------------------------------------------------------------------

TEST(ConvReference, TinyImageZeroVersusClampBorder) {
  // Channel 0 = [[10, 20], [30, 40]]; every 3x3 window covers the whole image.
  const ref::ImageRgba8 img = fromRows({{10, 20}, {30, 40}});
  const Filter f = satdof::box(1);
  for (ConvMath m : {ConvMath::Direct, ConvMath::Separable, ConvMath::BoxSum}) {
    const ref::ImageRgba8 zero = ref::convolve(img, f, Border::Zero, m);
    const ref::ImageRgba8 clamp = ref::convolve(img, f, Border::Clamp, m);
    const std::string what(satdof::toString(m));
    // Zero: 100 / 9 = 11.1 everywhere.
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) EXPECT_EQ(zero.at(x, y)[0], 11) << what;
    // Clamp: edge pixels repeat: 180/9, 210/9, 240/9, 270/9.
    EXPECT_EQ(clamp.at(0, 0)[0], 20) << what;
    EXPECT_EQ(clamp.at(1, 0)[0], 23) << what;
    EXPECT_EQ(clamp.at(0, 1)[0], 27) << what;
    EXPECT_EQ(clamp.at(1, 1)[0], 30) << what;
    // The constant channel: 7 * 4 / 9 = 3.1 with zeros around, 7 when clamped.
    EXPECT_EQ(zero.at(1, 1)[3], 3) << what;
    EXPECT_EQ(clamp.at(1, 1)[3], 7) << what;
  }
}

TEST(ConvReference, BoxMeanOfACheckerboard) {
  std::vector<std::vector<int>> rows(8, std::vector<int>(8));
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) rows[y][x] = (x + y) % 2 ? 0 : 255;
  const ref::ImageRgba8 img = fromRows(rows);
  for (ConvMath m : {ConvMath::Direct, ConvMath::Separable, ConvMath::BoxSum}) {
    const ref::ImageRgba8 out = ref::convolve(img, satdof::box(1), Border::Zero, m);
    for (int y = 1; y < 7; ++y)
      for (int x = 1; x < 7; ++x)  // 5 or 4 whites out of 9: 141.7 or 113.3
        EXPECT_EQ(out.at(x, y)[0], (x + y) % 2 ? 113 : 142) << satdof::toString(m);
    // Corner (0, 0) is white: its window holds (0,0) and (1,1) white, 2 black, 5 ghosts.
    EXPECT_EQ(out.at(0, 0)[0], 57) << satdof::toString(m);  // 510 / 9 = 56.7
  }
}

TEST(ConvReference, DirectMatchesDoubleBruteForce) {
  // An asymmetric filter against an independent double-precision sum; the float chain
  // may only differ where the exact value sits within 1e-3 of a rounding boundary.
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> wd(-0.3f, 0.5f);
  for (int r : {1, 2, 5}) {
    const int n = 2 * r + 1;
    std::vector<float> w(std::size_t(n) * n);
    for (float& v : w) v = wd(rng);
    const Filter f = satdof::custom(r, w);
    const ref::ImageRgba8 img = randomImage(17, 11, 5 + r);
    for (Border b : {Border::Zero, Border::Clamp}) {
      const ref::ImageRgba8 out = ref::convolve2D(img, f, b);
      for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
          for (int c = 0; c < 4; ++c) {
            double acc = 0.0;
            for (int i = 0; i < n; ++i)
              for (int j = 0; j < n; ++j) {
                int sx = x - r + j, sy = y - r + i;
                if (b == Border::Clamp) {
                  sx = std::clamp(sx, 0, img.width - 1);
                  sy = std::clamp(sy, 0, img.height - 1);
                } else if (sx < 0 || sy < 0 || sx >= img.width || sy >= img.height) {
                  continue;
                }
                acc += double(f.at(i, j)) * img.at(sx, sy)[c];
              }
            const double rounded = std::clamp(std::floor(acc + 0.5), 0.0, 255.0);
            const double frac = acc + 0.5 - std::floor(acc + 0.5);
            if (frac > 1e-3 && frac < 1 - 1e-3) {
              EXPECT_EQ(out.at(x, y)[c], int(rounded)) << "r=" << r << " x=" << x << " y=" << y;
            }
          }
    }
  }
}

// ---- agreement between the maths ----------------------------------------------------

TEST(ConvReference, BoxMathsAgreeExactlyForSmallRadii) {
  // (2r+1)^2 is odd, so an exact mean is never k + 0.5: it is at least 1 / (2 n^2) away
  // from a boundary, more than the float chain's error for r <= 3 (n^2 half-ulps of 255).
  for (auto [w, h] : {std::pair{1, 1}, {1, 23}, {23, 1}, {31, 17}, {64, 3}}) {
    const ref::ImageRgba8 img = randomImage(w, h, unsigned(w * 100 + h));
    for (int r : {1, 2, 3})
      for (Border b : {Border::Zero, Border::Clamp}) {
        const Filter f = satdof::box(r);
        const ref::ImageRgba8 exact = ref::boxFilterExact(img, r, b);
        const std::string what = std::to_string(w) + "x" + std::to_string(h) + " r=" +
                                 std::to_string(r) + " " + std::string(satdof::toString(b));
        expectSameImage(ref::convolve2D(img, f, b), exact, "direct " + what);
        expectSameImage(ref::convolveSeparable(img, f, b), exact, "separable " + what);
      }
  }
}

TEST(ConvReference, SeparableIsWithinOneOfDirect) {
  const ref::ImageRgba8 img = randomImage(40, 29, 6);
  for (int r : {1, 4, 15})
    for (Border b : {Border::Zero, Border::Clamp}) {
      const Filter f = satdof::gaussian(r, 0.4f * float(r) + 0.3f);
      const ref::ImageRgba8 d = ref::convolve2D(img, f, b);
      const ref::ImageRgba8 s = ref::convolveSeparable(img, f, b);
      for (std::size_t i = 0; i < d.pixels.size(); ++i)
        ASSERT_LE(std::abs(int(d.pixels[i]) - int(s.pixels[i])), 1) << "r=" << r;
    }
}

TEST(ConvReference, ConstantImagesStayConstantUnderClamp) {
  ref::ImageRgba8 img(9, 7);
  for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = std::uint8_t(40 + i % 4);
  for (int r : {1, 6}) {
    const ref::ImageRgba8 edges = ref::convolve2D(img, satdof::laplacian(r), Border::Clamp);
    for (std::uint8_t v : edges.pixels) EXPECT_EQ(v, 0);
    const ref::ImageRgba8 emb = ref::convolve2D(img, satdof::emboss(r), Border::Clamp);
    expectSameImage(emb, img, "emboss of a constant image");
    const ref::ImageRgba8 boxed = ref::boxFilterExact(img, r, Border::Clamp);
    expectSameImage(boxed, img, "box of a constant image");
  }
}

TEST(ConvReference, EmptyImagesGiveEmptyResults) {
  const ref::ImageRgba8 empty(0, 0);
  EXPECT_TRUE(ref::convolve2D(empty, satdof::box(1), Border::Zero).pixels.empty());
  EXPECT_TRUE(ref::convolveSeparable(empty, satdof::box(1), Border::Clamp).pixels.empty());
  EXPECT_TRUE(ref::boxFilterExact(empty, 2, Border::Clamp).pixels.empty());
}

// tests/test_aperture.cpp — the DoF's aperture (satdof/reference/aperture.h) on the CPU:
// the disc's boxes as a shape (the pixel alone at r = 0, no box over another, symmetric
// about the centre, about pi r^2 pixels, close to the pixel disc), its mean from the SAT
// against the pixels' own mean with the image's borders clipping it, the disc's depth of
// field in focus and blurred, and the scattering truth of the same shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "satdof/reference/aperture.h"
#include "satdof/reference/dof.h"
#include "satdof/reference/dof_ground_truth.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;

using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

// How many of the aperture's boxes cover each pixel of the (2r+1)^2 square around (r, r).
std::vector<int> coverage(ref::Aperture aperture, int r, int& boxes) {
  const int side = 2 * r + 1;
  std::vector<int> c(std::size_t(side) * side, 0);
  boxes = 0;
  for (int i = 0; i < ref::kApertureBoxes; ++i) {
    ref::ApertureBox b;
    if (!ref::apertureBox(aperture, r, r, r, i, side, side, b)) continue;
    ++boxes;
    for (int y = b.y0; y <= b.y1; ++y)
      for (int x = b.x0; x <= b.x1; ++x) ++c[std::size_t(y) * side + x];
  }
  return c;
}

}  // namespace

TEST(Aperture, RadiusZeroIsThePixelAlone) {
  for (const ref::Aperture a : {ref::Aperture::Box, ref::Aperture::Disc}) {
    int boxes = 0;
    EXPECT_EQ(coverage(a, 0, boxes), std::vector<int>{1});
    EXPECT_EQ(boxes, 1);
    EXPECT_EQ(ref::apertureArea(a, 0), 1u);
  }
}

// For every radius the DoF can use: no pixel in two boxes (the union's pixel count is the
// sum of the boxes'), the shape symmetric about the centre row and column, inside the
// box of the same radius and holding the centre row's and column's middle; about pi r^2
// pixels (within 7 %, or 2 pixels where the pixel grid itself is that far off at r <= 3:
// 5 pixels at r = 1); at most 8 % from the pixel disc (x^2 + y^2 <= r^2) for r >= 4 and
// the pixel disc itself up to r = kDiscPairs.
TEST(Aperture, DiscIsASymmetricUnionOfDisjointBoxesOfAboutPiRSquaredPixels) {
  for (int r = 1; r <= 256; ++r) {
    SCOPED_TRACE("r = " + std::to_string(r));
    int boxes = 0;
    const std::vector<int> c = coverage(ref::Aperture::Disc, r, boxes);
    const int side = 2 * r + 1;
    ASSERT_LE(boxes, ref::kApertureBoxes);
    std::uint32_t pixels = 0, inDisc = 0, differ = 0;
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        const int n = c[std::size_t(y) * side + x];
        ASSERT_LE(n, 1) << "boxes overlap at " << x - r << "," << y - r;
        ASSERT_EQ(n, c[std::size_t(y) * side + (side - 1 - x)]) << "not symmetric left-right";
        ASSERT_EQ(n, c[std::size_t(side - 1 - y) * side + x]) << "not symmetric top-bottom";
        const bool disc = (x - r) * (x - r) + (y - r) * (y - r) <= r * r;
        pixels += n;
        inDisc += disc;
        differ += (n == 1) != disc;
      }
    EXPECT_EQ(c[std::size_t(r) * side + r], 1) << "the centre";
    EXPECT_EQ(ref::apertureArea(ref::Aperture::Disc, r), pixels);
    EXPECT_EQ(ref::apertureArea(ref::Aperture::Box, r), std::uint32_t(side * side));
    if (r <= 60) {
      const double pi = M_PI * r * r;
      EXPECT_LE(std::abs(double(pixels) - pi), std::max(0.07 * pi, 2.0)) << pixels << " pixels";
      if (r >= 4) {
        EXPECT_LE(differ, 0.08 * inDisc) << "from the pixel disc";
      }
    }
    if (r <= ref::kDiscPairs) {
      EXPECT_EQ(differ, 0u) << "small discs are exact";
    }
  }
}

// The disc's mean read from the SAT (satApertureMean, the DoF's arithmetic) is the rounded
// mean of the pixels of its boxes, clipped to the image: at every pixel of a small odd
// image (corners and edges included) for r = 0..20; uint21x3 gives uint32's bytes.
TEST(Aperture, DiscMeanFromTheSatIsThePixelsMean) {
  auto rng = freshRng();
  const int w = 37, h = 29;
  const auto image = randomImage(w, h, rng);
  const ref::Sat sat = ref::computeSat(image), packed = ref::computeSat(image, satdof::SatFormat::Uint21x3);
  for (int r = 0; r <= 20; ++r)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        std::uint64_t sum[3] = {0, 0, 0};
        std::uint64_t area = 0;
        for (int py = std::max(0, y - r); py <= std::min(h - 1, y + r); ++py)
          for (int px = std::max(0, x - r); px <= std::min(w - 1, x + r); ++px) {
            bool inside = false;
            for (int i = 0; i < ref::kApertureBoxes; ++i) {
              ref::ApertureBox b;
              inside = inside || (ref::apertureBox(ref::Aperture::Disc, x, y, r, i, w, h, b) && px >= b.x0 &&
                                  px <= b.x1 && py >= b.y0 && py <= b.y1);
            }
            if (!inside) continue;
            ++area;
            for (int c = 0; c < 3; ++c) sum[c] += image.at(px, py)[c];
          }
        const ref::Rgb8 m = ref::satApertureMean(ref::satView(sat), ref::Aperture::Disc, x, y, r, w, h);
        const ref::Rgb8 p = ref::satApertureMean(ref::satView(packed), ref::Aperture::Disc, x, y, r, w, h);
        const std::uint8_t got[3] = {m.r, m.g, m.b}, gotPacked[3] = {p.r, p.g, p.b};
        for (int c = 0; c < 3; ++c) {
          ASSERT_EQ(got[c], (2 * sum[c] + area) / (2 * area)) << x << "," << y << " r " << r << " c" << c;
          ASSERT_EQ(gotPacked[c], got[c]) << "uint21x3";
        }
      }
}

// In focus the disc DoF is the input, byte for byte (alpha: opaque); blurred, each pixel is
// its disc's mean, which is not the box's.
TEST(Aperture, DiscDofKeepsFocusAndAveragesTheDisc) {
  auto rng = freshRng();
  auto img = randomImage(40, 30, rng);
  for (std::size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;
  ref::DofParams p;
  p.focalDistance = 5;
  p.focalRange = 2;
  p.maxRadius = 6;
  p.aperture = ref::Aperture::Disc;
  for (const satdof::SatFormatInfo& format : satdof::satFormats())
    EXPECT_EQ(ref::depthOfField(img, ref::ImageR32F(40, 30, 5.0f), p, format.id).pixels, img.pixels) << format.name;
  const ref::ImageR32F far(40, 30, 100.0f);  // r = 6 everywhere
  const auto disc = ref::depthOfField(img, far, p);
  const ref::Sat sat = ref::computeSat(img);
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) {
      const ref::Rgb8 m = ref::satApertureMean(ref::satView(sat), ref::Aperture::Disc, x, y, 6, 40, 30);
      ASSERT_EQ(disc.at(x, y)[0], m.r);
      ASSERT_EQ(disc.at(x, y)[3], 255);
    }
  p.aperture = ref::Aperture::Box;
  EXPECT_NE(ref::depthOfField(img, far, p).pixels, disc.pixels);
}

// The scattering truth spreads each pixel over the aperture the DoF gathers with: on one
// depth, away from the borders, scattering over the symmetric disc is gathering over it
// (within the rounding of its double sums), and a single lit pixel lights its disc alone.
TEST(Aperture, ScatterTruthUsesTheSameShape) {
  auto rng = freshRng();
  const int w = 48, h = 40, r = 7;
  auto img = randomImage(w, h, rng);
  for (std::size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;
  ref::DofParams p;
  p.focalDistance = 5;
  p.focalRange = 1;
  p.maxRadius = float(r);
  p.aperture = ref::Aperture::Disc;
  const ref::ImageR32F depth(w, h, 50.0f);
  const auto scattered = ref::scatterDepthOfField(img, depth, p);
  const auto gathered = ref::depthOfField(img, depth, p);
  for (int y = r; y < h - r; ++y)
    for (int x = r; x < w - r; ++x)
      for (int c = 0; c < 3; ++c)
        ASSERT_LE(std::abs(int(scattered.at(x, y)[c]) - int(gathered.at(x, y)[c])), 1) << x << "," << y;
  ref::ImageRgba8 dot(w, h);
  for (std::size_t i = 3; i < dot.pixels.size(); i += 4) dot.pixels[i] = 255;
  dot.at(24, 20)[0] = 255;
  const auto spread = ref::scatterDepthOfField(dot, depth, p);
  int lit = 0, box = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      lit += spread.at(x, y)[0] > 0;
      box += std::abs(x - 24) <= r && std::abs(y - 20) <= r;
    }
  EXPECT_EQ(std::uint32_t(lit), ref::apertureArea(ref::Aperture::Disc, r));
  EXPECT_LT(lit, box);
}

// Every count the edge table holds (1, 3, 5, 7 boxes: what satdof-disc-shapes measures)
// makes a union of disjoint boxes, symmetric about the centre, holding the centre, within
// the box of the same radius.
TEST(Aperture, EveryBoxCountIsADisjointSymmetricUnion) {
  for (int pairs = 0; pairs <= ref::kMaxDiscPairs; ++pairs)
    for (int r = 0; r <= 100; ++r) {
      SCOPED_TRACE("pairs " + std::to_string(pairs) + ", r = " + std::to_string(r));
      const int side = 2 * r + 1;
      std::vector<int> c(std::size_t(side) * side, 0);
      for (int i = 0; i < 2 * pairs + 1; ++i) {
        ref::ApertureBox b;
        if (!ref::apertureBox(ref::Aperture::Disc, r, r, r, i, side, side, b, pairs)) continue;
        for (int y = b.y0; y <= b.y1; ++y)
          for (int x = b.x0; x <= b.x1; ++x) ++c[std::size_t(y) * side + x];
      }
      for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
          const int n = c[std::size_t(y) * side + x];
          ASSERT_LE(n, 1) << "boxes overlap at " << x - r << "," << y - r;
          ASSERT_EQ(n, c[std::size_t(y) * side + (side - 1 - x)]);
          ASSERT_EQ(n, c[std::size_t(side - 1 - y) * side + x]);
        }
      EXPECT_EQ(c[std::size_t(r) * side + r], 1) << "the centre";
    }
}

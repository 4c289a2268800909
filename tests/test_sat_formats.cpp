// tests/test_sat_formats.cpp — the reference of the SAT formats (satdof/sat_format.h,
// reference/sat_formats.cpp): the format table, each format's definition, and the
// precision of box means read from each, against brute-force sums.
//
// Precision bound (float32 and float32-offset), derived: an entry E = round(S) with
// |S| <= Smax has |E - S| <= 2^-24 Smax (half an ulp). The box sum takes four entries
// (4 x 2^-24 Smax) and three float additions on values below 2 Smax (3 x 2^-24 x 2 Smax),
// so |box sum - exact| <= 10 x 2^-24 x Smax, and the mean is off by that over the area
// (plus the division's half ulp of the mean). Smax is 255 n for float32 (n pixels) and
// the largest |centred sum| for float32-offset, which is what the offset buys.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "satdof/reference/sat.h"
#include "satdof/sat_format.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::SatFormat;

namespace {

float floatAt(const ref::Sat& s, int x, int y, int c) { return float(ref::satValue(s, x, y, c)); }

TEST(SatFormats, TableListsEveryFormatOnceWithItsShaderAndSize) {
  EXPECT_EQ(satdof::defaultSatFormat().id, SatFormat::Uint32);
  for (const char* name : {"uint32", "float32", "float32-offset"}) {
    const satdof::SatFormatInfo* f = satdof::findSatFormat(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_EQ(&satdof::satFormatInfo(f->id), f);
    EXPECT_EQ(f->bytesPerPixel, 16u);
    EXPECT_EQ(f->shaderInclude.substr(0, 4), "sat_");
  }
  EXPECT_EQ(satdof::satTableBytes(SatFormat::Float32Offset, 3, 2), 3u * 2 * 16 + 16);
  EXPECT_EQ(satdof::satTableBytes(SatFormat::Float32, 3, 2), 3u * 2 * 16);
  EXPECT_EQ(satdof::satTableBytes(SatFormat::Float32Offset, 0, 2), 0u);
}

TEST(SatFormats, Float32EntryIsTheExactSumRoundedOnce) {
  auto rng = satdof::test::freshRng();
  const auto img = satdof::test::randomImage(97, 61, rng);
  const ref::Sat u = ref::computeSat(img);
  const ref::Sat f = ref::computeSat(img, SatFormat::Float32);
  EXPECT_EQ(f.format, SatFormat::Float32);
  EXPECT_TRUE(f.trailer.empty());
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      for (int c = 0; c < 4; ++c)  // sums < 2^32 here, so the uint32 table is exact
        ASSERT_EQ(floatAt(f, x, y, c), float(u.at(x, y, c))) << x << "," << y << "," << c;
}

TEST(SatFormats, OffsetIsTheRoundedMeanAndEntriesAreCentredSums) {
  ref::ImageRgba8 img(3, 2);
  // Channel 0: 0 1 2 / 3 4 5 -> mean 2.5 -> m = 3 (halves up); channel 3: all 255.
  for (int i = 0; i < 6; ++i) {
    img.pixels[i * 4 + 0] = std::uint8_t(i);
    img.pixels[i * 4 + 1] = 10;
    img.pixels[i * 4 + 2] = std::uint8_t(i % 2 ? 0 : 7);
    img.pixels[i * 4 + 3] = 255;
  }
  const auto m = ref::satOffsets(img);
  EXPECT_EQ(m[0], 3u);
  EXPECT_EQ(m[1], 10u);
  EXPECT_EQ(m[2], 4u);  // (7 * 3) / 6 = 3.5 -> 4
  EXPECT_EQ(m[3], 255u);
  const ref::Sat s = ref::computeSat(img, SatFormat::Float32Offset);
  ASSERT_EQ(s.trailer.size(), 4u);
  float t0;
  std::memcpy(&t0, &s.trailer[0], 4);
  EXPECT_EQ(t0, 3.0f);
  EXPECT_EQ(floatAt(s, 2, 1, 0), 15.0f - 6 * 3.0f);  // whole image: 15 - 6m
  EXPECT_EQ(floatAt(s, 0, 0, 0), -3.0f);
  EXPECT_EQ(floatAt(s, 2, 1, 3), 0.0f);
  const auto bytes = ref::satTableBytesOf(s);
  ASSERT_EQ(bytes.size(), satdof::satTableBytes(SatFormat::Float32Offset, 3, 2));
  EXPECT_EQ(std::memcmp(bytes.data() + 6 * 16, s.trailer.data(), 16), 0);
}

// Box means from every format against brute force, within the bound derived above; and
// the point of the offset: far from the origin of a large image it is much closer.
TEST(SatFormats, BoxMeansWithinTheDerivedBound) {
  auto rng = satdof::test::freshRng();
  const int w = 2048, h = 1536;
  const auto img = satdof::test::randomImage(w, h, rng);
  const ref::Sat tables[] = {ref::computeSat(img), ref::computeSat(img, SatFormat::Float32),
                             ref::computeSat(img, SatFormat::Float32Offset)};
  const double n = double(w) * h;
  double worst[3] = {0, 0, 0};
  std::uniform_int_distribution<int> px(0, w - 1), py(0, h - 1), size(0, 40);
  for (int trial = 0; trial < 300; ++trial) {
    // Half the boxes near the far corner, where the float32 entries are largest.
    const int x1 = trial % 2 ? w - 1 - size(rng) : px(rng), y1 = trial % 2 ? h - 1 - size(rng) : py(rng);
    const ref::Box box{x1 - size(rng), y1 - size(rng), x1, y1};
    const ref::Box b = ref::clipBox(box, w, h);
    const double area = double(b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1);
    for (int k = 0; k < 3; ++k) {
      const auto mean = ref::formatBoxMean(tables[k], box);
      for (int c = 0; c < 4; ++c) {
        const double exact = double(ref::boxSumBruteForce(img, box, c)) / area;
        double smax = 255.0 * n;
        if (k == 2) {  // the largest centred entry of this channel
          smax = 0;
          for (int y = 0; y < h; y += 7)
            for (int x = 0; x < w; x += 7) smax = std::max(smax, std::fabs(ref::satValue(tables[k], x, y, c)));
          smax = smax * 1.5 + 255.0 * 64;  // sampled: margin for the unsampled entries
        }
        const double bound = 10.0 * std::ldexp(smax, -24) / area + std::ldexp(std::fabs(exact), -23);
        const double err = std::fabs(double(mean[c]) - exact);
        worst[k] = std::max(worst[k], err);
        if (k == 0) ASSERT_LE(err, std::ldexp(exact, -23) + 1e-6) << "uint32 must be exact";
        else ASSERT_LE(err, bound) << "format " << k << " box " << box.x0 << "," << box.y0;
      }
    }
  }
  RecordProperty("worst_uint32", std::to_string(worst[0]));
  RecordProperty("worst_float32", std::to_string(worst[1]));
  RecordProperty("worst_float32_offset", std::to_string(worst[2]));
  std::printf("worst box-mean error: uint32 %.3g, float32 %.3g, float32-offset %.3g\n", worst[0],
              worst[1], worst[2]);
  EXPECT_LT(worst[2], worst[1]) << "the offset should help far from the origin";
}

}  // namespace

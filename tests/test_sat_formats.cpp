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

#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "satdof/reference/dof.h"
#include "satdof/reference/sat.h"
#include "satdof/reference/uint21x3.h"
#include "satdof/sat_format.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::SatFormat;

namespace {

float floatAt(const ref::Sat& s, int x, int y, int c) { return float(ref::satValue(s, x, y, c)); }

TEST(SatFormats, TableListsEveryFormatOnceWithItsShaderAndSize) {
  EXPECT_EQ(satdof::defaultSatFormat().id, SatFormat::Uint32);
  for (const char* name : {"uint32", "float32", "float32-offset", "uint21x3"}) {
    const satdof::SatFormatInfo* f = satdof::findSatFormat(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_EQ(&satdof::satFormatInfo(f->id), f);
    EXPECT_EQ(f->bytesPerPixel, f->id == SatFormat::Uint21x3 ? 8u : 16u) << name;
    EXPECT_EQ(f->shaderInclude.substr(0, 4), "sat_");
    EXPECT_EQ(f->maxBoxRadius, f->id == SatFormat::Uint21x3 ? 44 : satdof::kNoRadiusLimit) << name;
  }
  EXPECT_EQ(satdof::satTableBytes(SatFormat::Uint21x3, 3, 2), 3u * 2 * 8);
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

// uint21x3's words hold the uint32 sums' R, G and B fields where satdof/sat_format.h says,
// on an image whose sums wrap the fields many times.
TEST(SatFormats, Uint21x3PacksTheUint32SumsFields) {
  auto rng = satdof::test::freshRng();
  const auto img = satdof::test::randomImage(301, 203, rng);  // sums up to ~2^23.8
  const ref::Sat u = ref::computeSat(img);
  const ref::Sat p = ref::computeSat(img, SatFormat::Uint21x3);
  EXPECT_EQ(p.format, SatFormat::Uint21x3);
  ASSERT_EQ(p.values.size(), std::size_t(img.width) * img.height * 2);
  ASSERT_EQ(ref::satTableBytesOf(p).size(), satdof::satTableBytes(SatFormat::Uint21x3, img.width, img.height));
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const std::uint32_t r = u.at(x, y, 0), g = u.at(x, y, 1), b = u.at(x, y, 2);
      const std::size_t i = (std::size_t(y) * img.width + x) * 2;
      ASSERT_EQ(p.values[i], (r & 0x1FFFFFu) | ((b & 0x7FFu) << 21)) << x << "," << y;
      ASSERT_EQ(p.values[i + 1], (g & 0x1FFFFFu) | (((b >> 11) & 0x7FFu) << 21)) << x << "," << y;
      ASSERT_EQ(ref::satValue(p, x, y, 2), double(b & 0x3FFFFFu));
    }
  EXPECT_GT(u.at(img.width - 1, img.height - 1, 2), 1u << 22) << "the test must wrap the fields";
}

// The bound is where satdof/sat_format.h derives it: a box of 8224 pixels of 255 sums
// exactly, one of 8225 does not; every box of radius 44 on a wrapping random image gives
// uint32's rounded mean, byte for byte.
TEST(SatFormats, Uint21x3BoxMeansEqualUint32sWithinTheBound) {
  EXPECT_EQ(satdof::kUint21x3MaxBoxArea * 255, 2097120);  // <= 2^21 - 1 = 2097151
  EXPECT_GT((satdof::kUint21x3MaxBoxArea + 1) * 255, (1 << 21) - 1);
  ref::ImageRgba8 white(400, 400);
  std::memset(white.pixels.data(), 255, white.pixels.size());
  const ref::Sat wu = ref::computeSat(white), wp = ref::computeSat(white, SatFormat::Uint21x3);
  const auto mean = [](const ref::Sat& s, int x0, int y0, int x1, int y1) {
    const ref::Rgb8 m = ref::satBoxMean(ref::satView(s), x0, y0, x1, y1);
    return std::array<int, 3>{m.r, m.g, m.b};
  };
  // 32 x 257 = 8224 pixels, far from the origin (the entries have wrapped).
  EXPECT_EQ(mean(wp, 300, 100, 331, 356), (std::array<int, 3>{255, 255, 255}));
  // 25 x 329 = 8225: R and G wrap (B, with 22 bits, still fits): the bound is tight.
  EXPECT_NE(mean(wp, 300, 50, 324, 378), mean(wu, 300, 50, 324, 378));

  auto rng = satdof::test::freshRng();
  const auto img = satdof::test::randomImage(517, 389, rng);
  const ref::Sat u = ref::computeSat(img), p = ref::computeSat(img, SatFormat::Uint21x3);
  std::uniform_int_distribution<int> px(0, img.width - 1), py(0, img.height - 1), radius(0, 44);
  for (int trial = 0; trial < 20000; ++trial) {
    const int r = trial % 4 == 0 ? 44 : radius(rng), x = px(rng), y = py(rng);
    const ref::Box b = ref::clipBox({x - r, y - r, x + r, y + r}, img.width, img.height);
    ASSERT_EQ(mean(p, b.x0, b.y0, b.x1, b.y1), mean(u, b.x0, b.y0, b.x1, b.y1)) << x << "," << y << " r " << r;
  }
  const auto f = ref::formatBoxMean(p, {10, 10, 98, 98});
  for (int c = 0; c < 3; ++c)
    EXPECT_FLOAT_EQ(f[c], float(ref::boxSumBruteForce(img, {10, 10, 98, 98}, c)) / (89.0f * 89.0f));
}

TEST(SatFormats, MaxBlurBoundIsRefusedBeyondRadius44) {
  const satdof::SatFormatInfo& packed = satdof::satFormatInfo(SatFormat::Uint21x3);
  EXPECT_FALSE(satdof::whyNotMaxBlur(packed, 44.0f));
  EXPECT_FALSE(satdof::whyNotMaxBlur(packed, 44.49f));  // rounds to radius 44
  const auto why = satdof::whyNotMaxBlur(packed, 44.5f);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("uint21x3"), std::string::npos) << *why;
  EXPECT_NE(why->find("44"), std::string::npos) << *why;
  for (const satdof::SatFormatInfo& f : satdof::satFormats())
    if (f.id != SatFormat::Uint21x3) {
      EXPECT_FALSE(satdof::whyNotMaxBlur(f, 256.0f)) << f.name;
    }
}

}  // namespace

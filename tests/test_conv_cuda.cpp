// tests/test_conv_cuda.cpp — every convolution variant against the CPU reference, exact.
//
// Each variant is compared bit for bit with reference::convolve(..., variant.math) for
// every filter kind (box, gaussian, sharpen, laplacian, emboss, random custom), both
// borders and radii 1, 2, 3, 7, 15, on sizes that hit the edges: 1x1, smaller than a
// tile, 1xN, Nx1, not a multiple of any tile, and 4K for a few radii. Inputs are fresh
// random bytes in pitched buffers; outputs are poisoned first, and the padding past each
// row must come back untouched. Filters a variant does not support are skipped as its
// supports() says. SATDOF_TEST_MAX_N caps the pixel count (compute-sanitizer runs).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "conv_test_support.h"
#include "cuda_test_support.h"
#include "satdof/conv2d.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/conv.h"

namespace ref = satdof::reference;
using satdof::Border;
using satdof::ConvArgs;
using satdof::ConvVariant;
using satdof::DeviceBuffer;
using satdof::Filter;

namespace {

using satdof::test::DeviceImage;
using satdof::test::kPoison;
using satdof::test::randomImage;
using satdof::test::runVariant;

Filter randomCustom(int r, std::mt19937& rng) {
  const int n = 2 * r + 1;
  std::uniform_real_distribution<float> wd(-1.0f, 1.5f);
  std::vector<float> w(std::size_t(n) * n);
  for (float& v : w) v = wd(rng) / float(n);
  return satdof::custom(r, w, "random");
}

std::vector<Filter> filtersOfRadius(int r, std::mt19937& rng) {
  return {satdof::box(r),     satdof::gaussian(r, satdof::defaultGaussianSigma(r)),
          satdof::sharpen(r), satdof::laplacian(r),
          satdof::emboss(r),  randomCustom(r, rng)};
}

// Compares a downloaded pitched image with the expected one; checks the row padding.
::testing::AssertionResult sameImage(const std::vector<std::uint8_t>& got, std::size_t pitch,
                                     const ref::ImageRgba8& want) {
  std::size_t mismatches = 0;
  std::string first;
  for (int y = 0; y < want.height; ++y) {
    const std::uint8_t* row = &got[pitch * y];
    for (int x = 0; x < want.width; ++x)
      for (int c = 0; c < 4; ++c)
        if (row[x * 4 + c] != want.at(x, y)[c] && mismatches++ == 0)
          first = "x=" + std::to_string(x) + " y=" + std::to_string(y) + " channel " +
                  std::to_string(c) + ": got " + std::to_string(row[x * 4 + c]) +
                  ", expected " + std::to_string(want.at(x, y)[c]);
    for (std::size_t b = std::size_t(want.width) * 4; b < pitch; ++b)
      if (row[b] != kPoison)
        return ::testing::AssertionFailure() << "wrote past the row end at y=" << y;
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << mismatches << " mismatching bytes; first at " << first;
}

struct SizeCase {
  int width, height;
  std::vector<int> radii;
};

void PrintTo(const SizeCase& c, std::ostream* os) { *os << c.width << "x" << c.height; }

class ConvCuda : public ::testing::TestWithParam<SizeCase> {};

}  // namespace

TEST_P(ConvCuda, EveryVariantMatchesItsReferenceExactly) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const SizeCase& sc = GetParam();
  const std::size_t cap = satdof::test::maxElements();
  if (cap && std::size_t(sc.width) * sc.height > cap)
    GTEST_SKIP() << "larger than SATDOF_TEST_MAX_N=" << cap;

  std::mt19937 rng = satdof::test::freshRng();
  const ref::ImageRgba8 img = randomImage(sc.width, sc.height, rng);
  DeviceImage in(sc.width, sc.height, 36);   // odd padding: pitches differ from the width
  DeviceImage out(sc.width, sc.height, 20);
  in.upload(img);

  for (int r : sc.radii) {
    for (const Filter& f : filtersOfRadius(r, rng)) {
      for (Border border : {Border::Zero, Border::Clamp}) {
        std::map<satdof::ConvMath, ref::ImageRgba8> expected;  // one reference per maths
        for (const ConvVariant& v : satdof::convVariants()) {
          SCOPED_TRACE(std::string(v.name) + ", " + f.name + " r=" + std::to_string(r) + ", " +
                       std::string(satdof::toString(border)) + " border");
          if (const auto why = v.supports(f)) {
            EXPECT_FALSE(why->empty());
            continue;  // refused, as the UI would grey it out
          }
          auto it = expected.find(v.math);
          if (it == expected.end())
            it = expected.emplace(v.math, ref::convolve(img, f, border, v.math)).first;
          EXPECT_TRUE(sameImage(runVariant(v, in, out, f, border), out.pitch, it->second));
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, ConvCuda,
    ::testing::Values(SizeCase{1, 1, {1, 2, 3, 7, 15}},      // one pixel: all halo
                      SizeCase{7, 5, {1, 2, 3, 7, 15}},      // smaller than any tile
                      SizeCase{1, 300, {1, 2, 3, 7, 15}},    // one column
                      SizeCase{300, 1, {1, 2, 3, 7, 15}},    // one row
                      SizeCase{64, 64, {1, 2, 15}},          // exactly one 64x64 tile
                      SizeCase{67, 131, {1, 2, 3, 7, 15}},   // no multiple of any tile
                      SizeCase{203, 97, {1, 2, 3, 4, 7, 15}},
                      SizeCase{3840, 2160, {1, 2}}),         // 4K
    [](const ::testing::TestParamInfo<SizeCase>& info) {
      return std::to_string(info.param.width) + "x" + std::to_string(info.param.height);
    });

// 16-byte aligned rows take the vector-load paths of the small-radius kernels; the
// padded pitches above do not. Widths that are and are not multiples of 4 and 128.
TEST(ConvCudaAligned, SmallRadiiWithSixteenByteRows) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  std::mt19937 rng = satdof::test::freshRng();
  const int sizes[][3] = {{300, 77, 0}, {131, 50, 12}, {256, 45, 0}, {5, 9, 12}};
  for (const auto& [w, h, pad] : sizes) {
    const ref::ImageRgba8 img = randomImage(w, h, rng);
    DeviceImage in(w, h, pad), out(w, h, pad);
    in.upload(img);
    for (int r : {1, 2})
      for (const Filter& f : filtersOfRadius(r, rng))
        for (Border border : {Border::Zero, Border::Clamp})
          for (const ConvVariant& v : satdof::convVariants()) {
            if (v.supports(f)) continue;
            SCOPED_TRACE(std::string(v.name) + ", " + f.name + " r=" + std::to_string(r) + ", " +
                         std::to_string(w) + "x" + std::to_string(h) + ", " +
                         std::string(satdof::toString(border)));
            EXPECT_TRUE(sameImage(runVariant(v, in, out, f, border), out.pitch,
                                  ref::convolve(img, f, border, v.math)));
          }
  }
}

// The large filters at 4K, only through the variants built for them.
TEST(ConvCudaLarge, SeparableAndSatBoxAt4K) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const int w = 3840, h = 2160;
  const std::size_t cap = satdof::test::maxElements();
  if (cap && std::size_t(w) * h > cap) GTEST_SKIP() << "larger than SATDOF_TEST_MAX_N=" << cap;
  std::mt19937 rng = satdof::test::freshRng();
  const ref::ImageRgba8 img = randomImage(w, h, rng);
  DeviceImage in(w, h, 0), out(w, h, 0);
  in.upload(img);
  const std::tuple<const char*, Filter> cases[] = {
      {"separable", satdof::gaussian(7, 3.0f)},
      {"sat-box", satdof::box(15)},
      {"sat-box", satdof::box(1)},
  };
  for (const auto& [name, f] : cases)
    for (Border border : {Border::Zero, Border::Clamp}) {
      const ConvVariant* v = satdof::findConvVariant(name);
      ASSERT_NE(v, nullptr) << name;
      SCOPED_TRACE(std::string(name) + " r=" + std::to_string(f.radius) + " " +
                   std::string(satdof::toString(border)));
      EXPECT_TRUE(sameImage(runVariant(*v, in, out, f, border), out.pitch,
                            ref::convolve(img, f, border, v->math)));
    }
}

// ---- registry and argument checks ----------------------------------------------------

TEST(ConvRegistry, NamesAreUniqueAndFindable) {
  std::map<std::string, int> seen;
  for (const ConvVariant& v : satdof::convVariants()) {
    EXPECT_EQ(seen[std::string(v.name)]++, 0) << v.name;
    EXPECT_EQ(satdof::findConvVariant(v.name), &v);
    EXPECT_FALSE(v.description.empty());
    EXPECT_FALSE(v.tuning.empty());
  }
  EXPECT_EQ(satdof::findConvVariant("no-such-variant"), nullptr);
  EXPECT_EQ(seen.size(), 6u);
  // The default and the preferred variants run every filter they are offered.
  for (int r : {1, 15})
    for (const Filter& f : {satdof::sharpen(r), satdof::gaussian(r, 2.0f)}) {
      EXPECT_FALSE(satdof::defaultConvVariant().supports(f).has_value());
      EXPECT_FALSE(satdof::preferredConvVariant(f).supports(f).has_value());
    }
  EXPECT_TRUE(satdof::findConvVariant("separable")->supports(satdof::emboss(2)).has_value());
  EXPECT_TRUE(satdof::findConvVariant("sat-box")->supports(satdof::gaussian(2, 1.0f)).has_value());
  EXPECT_FALSE(satdof::findConvVariant("sat-box")->supports(satdof::box(15)).has_value());
}

TEST(ConvRegistry, BadArgumentsAreRefusedNotRun) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const int w = 40, h = 30;
  DeviceImage in(w, h, 0), out(w, h, 0);
  const Filter good = satdof::box(2);
  Filter tooWide = satdof::box(2);
  tooWide.radius = 16;  // hand-made: 25 weights for a radius of 16
  ConvArgs base;
  base.in = reinterpret_cast<const uchar4*>(in.bytes.data());
  base.inPitchBytes = in.pitch;
  base.out = out.data();
  base.outPitchBytes = out.pitch;
  base.width = w;
  base.height = h;
  base.filter = &good;
  ASSERT_FALSE(satdof::checkConvArgs(base).has_value());

  std::vector<std::pair<std::string, ConvArgs>> bad;
  auto with = [&](std::string what, auto change) {
    ConvArgs a = base;
    change(a);
    bad.emplace_back(std::move(what), a);
  };
  with("no filter", [](ConvArgs& a) { a.filter = nullptr; });
  with("radius 16", [&](ConvArgs& a) { a.filter = &tooWide; });
  with("null input", [](ConvArgs& a) { a.in = nullptr; });
  with("short pitch", [](ConvArgs& a) { a.inPitchBytes = 4; });
  with("odd pitch", [](ConvArgs& a) { a.outPitchBytes += 2; });
  with("negative size", [](ConvArgs& a) { a.width = -3; });
  with("in place", [](ConvArgs& a) { a.out = const_cast<uchar4*>(a.in); });

  for (const ConvVariant& v : satdof::convVariants()) {
    const std::size_t need = v.scratchBytes(w, h);
    DeviceBuffer<std::uint8_t> scratch(need);
    for (const auto& [what, a] : bad) {
      EXPECT_TRUE(satdof::checkConvArgs(a).has_value()) << what;
      EXPECT_EQ(v.launch(a, scratch.data(), need, nullptr), cudaErrorInvalidValue)
          << v.name << ": " << what;
    }
    if (need > 0) {
      EXPECT_EQ(v.launch(base, scratch.data(), need - 1, nullptr), cudaErrorInvalidValue) << v.name;
    }
    const Filter emboss = satdof::emboss(1);
    ConvArgs unsupported = base;
    unsupported.filter = &emboss;
    if (v.supports(emboss)) {
      EXPECT_EQ(v.launch(unsupported, scratch.data(), need, nullptr), cudaErrorNotSupported)
          << v.name;
    }
    ConvArgs empty = base;  // a 0 x h image is a no-op
    empty.width = 0;
    EXPECT_EQ(v.launch(empty, scratch.data(), need, nullptr), cudaSuccess) << v.name;
  }
  SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::uint8_t> untouched = out.download();
  for (std::uint8_t b : untouched) ASSERT_EQ(b, kPoison) << "a refused launch wrote output";
}

// A small case per variant and radius class (the streamed r <= 2 paths, the tiled r >= 3
// paths, the largest radius), both borders: every kernel once, few launches. This is the
// case the race and sync checkers run, where the full suite is too slow under them.
TEST(ConvCudaSanitizer, EveryVariantOnceAtEachRadiusClass) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  std::mt19937 rng = satdof::test::freshRng();
  const ref::ImageRgba8 img = randomImage(67, 37, rng);
  DeviceImage in(67, 37, 0), out(67, 37, 0);
  in.upload(img);
  for (int r : {1, 2, 3, 15})
    for (Border border : {Border::Zero, Border::Clamp})
      for (const ConvVariant& v : satdof::convVariants()) {
        const Filter f = v.supports(satdof::gaussian(r, 1.5f)) ? satdof::box(r) : satdof::gaussian(r, 1.5f);
        if (v.supports(f)) continue;
        SCOPED_TRACE(std::string(v.name) + ", " + f.name + " r=" + std::to_string(r));
        EXPECT_TRUE(sameImage(runVariant(v, in, out, f, border), out.pitch, ref::convolve(img, f, border, v.math)));
      }
}

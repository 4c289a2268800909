// tests/test_sat_cuda.cpp — every CUDA SAT algorithm, in every format it builds, against
// the CPU reference (satdof/reference/sat.h), byte for byte.
//
// Sizes: 1x1, thin images both ways, odd sizes, sizes one off the tile multiples of the
// look-back algorithms (128 x 32 tiles) and of reduce-then-scan (64 x 32), 1080p, 4K and 8K (capped by SATDOF_TEST_MAX_N,
// for compute-sanitizer). Content: random, and all-255 (the uint32 sums wrap past 2^32
// at 8K; the float sums reach 8.5e9). Sources: linear memory everywhere, a surface (what
// a mapped GL texture gives) at a few sizes, 4K included (reduce-then-scan's scan kernel
// loads a whole tile first where that costs no wave of blocks, up to 1080p here, and
// streams rows at 4K and 8K in most formats: both forms run from both sources). The copy
// of a surface into linear memory (satdof/surface_copy.h) at edge sizes. Scan variants: the
// default at every size, every registered variant x every algorithm x format at the edge
// sizes, 1080p and 4K.
//
// The bound for the float formats is 0: each entry is defined as the exact integer sum
// rounded once to the nearest float (reference/sat_formats.cpp), and the GPU algorithms
// carry exact integers (int32 inside a tile, int64 between tiles) and round once with
// __ll2float_rn, the same IEEE round-to-nearest-even as the CPU's int64 -> float. So the
// comparison is exact for every format, and any difference is a bug, not rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_test_support.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/sat.h"
#include "satdof/sat.h"
#include "satdof/sat_format.h"
#include "satdof/scan.h"
#include "satdof/surface_copy.h"

namespace ref = satdof::reference;
using satdof::DeviceBuffer;
using satdof::SatFormat;
using satdof::test::randomImage;

namespace {

enum class Source { Linear, Surface };
const cudaChannelFormatDesc kRgba8 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
enum class Content { Random, All255 };

ref::ImageRgba8 makeImage(int w, int h, Content content, std::mt19937& rng) {
  if (content == Content::Random) return randomImage(w, h, rng);
  ref::ImageRgba8 img(w, h);
  std::memset(img.pixels.data(), 255, img.pixels.size());
  return img;
}

// Runs `algorithm` and returns the table's bytes (poisoned before the run).
std::vector<std::uint8_t> gpuTable(const ref::ImageRgba8& img, const satdof::SatAlgorithm& algorithm,
                                   SatFormat format, const satdof::ScanVariant& scan, Source source) {
  const std::size_t bytes = satdof::satTableBytes(format, img.width, img.height);
  DeviceBuffer<unsigned char> out(bytes);
  satdof::SatArgs args;
  args.width = img.width;
  args.height = img.height;
  args.format = format;
  args.table = out.data();
  args.scan = &scan;
  DeviceBuffer<unsigned char> scratch(algorithm.scratchBytes(args));
  SATDOF_CUDA_CHECK(cudaMemset(out.data(), 0xAB, bytes));
  SATDOF_CUDA_CHECK(cudaMemset(scratch.data(), 0xCD, scratch.size()));  // no reliance on zeros

  if (source == Source::Linear) {
    DeviceBuffer<std::uint8_t> in(img.pixels.size());
    SATDOF_CUDA_CHECK(cudaMemcpy(in.data(), img.pixels.data(), in.bytes(), cudaMemcpyHostToDevice));
    args.source = satdof::SatSource::linear(in.data(), std::size_t(img.width) * 4);
    SATDOF_CUDA_CHECK(algorithm.launch(args, scratch.data(), scratch.size(), nullptr));
    SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
  } else {
    const satdof::test::SurfaceImage surface(img.pixels.data(), img.width, img.height, kRgba8, 4);
    args.source = satdof::SatSource::fromSurface(surface.get());
    SATDOF_CUDA_CHECK(algorithm.launch(args, scratch.data(), scratch.size(), nullptr));
    SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<std::uint8_t> host(bytes);
  SATDOF_CUDA_CHECK(cudaMemcpy(host.data(), out.data(), bytes, cudaMemcpyDeviceToHost));
  return host;
}

void expectTableEqual(const ref::Sat& expected, const std::vector<std::uint8_t>& gpu) {
  const std::vector<std::uint8_t> want = ref::satTableBytesOf(expected);
  ASSERT_EQ(gpu.size(), want.size());
  if (std::memcmp(gpu.data(), want.data(), want.size()) == 0) return;
  for (std::size_t w = 0; w * 4 < want.size(); ++w) {
    std::uint32_t got, exp;
    std::memcpy(&got, gpu.data() + w * 4, 4);
    std::memcpy(&exp, want.data() + w * 4, 4);
    if (got == exp) continue;
    const std::size_t wordsPerPixel = satdof::satFormatInfo(expected.format).bytesPerPixel / 4;
    const std::size_t pixel = w / wordsPerPixel;
    if (pixel >= std::size_t(expected.width) * expected.height)
      FAIL() << "trailer word " << w - expected.values.size() << ": got bits " << got
             << ", expected " << exp;
    float gf, ef;
    std::memcpy(&gf, &got, 4);
    std::memcpy(&ef, &exp, 4);
    FAIL() << "first mismatch at x=" << pixel % expected.width << " y=" << pixel / expected.width
           << " word " << w % wordsPerPixel << ": got " << got << " (as float " << gf << "), expected "
           << exp << " (as float " << ef << ")";
  }
}

bool builds(const satdof::SatAlgorithm& a, SatFormat f) { return !a.whyNot(f).has_value(); }

struct SatCase {
  int width, height;
  Content content = Content::Random;
  bool surface = false;  // also through a surface object
};

std::string caseName(const SatCase& c) {
  return std::to_string(c.width) + "x" + std::to_string(c.height) +
         (c.content == Content::All255 ? "_all255" : "") + (c.surface ? "_surface" : "");
}

class CudaSat : public ::testing::TestWithParam<SatCase> {};

// Every algorithm x every format it builds, default scan variant, against one reference
// per format.
TEST_P(CudaSat, EveryAlgorithmAndFormatMatchesReference) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const SatCase c = GetParam();
  const std::size_t cap = satdof::test::maxElements();
  if (cap && std::size_t(c.width) * c.height > cap)
    GTEST_SKIP() << "larger than SATDOF_TEST_MAX_N=" << cap;
  auto rng = satdof::test::freshRng();
  const auto img = makeImage(c.width, c.height, c.content, rng);
  cudaDeviceProp prop{};
  SATDOF_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const bool surfaceFits = c.width <= prop.maxSurface2D[0] && c.height <= prop.maxSurface2D[1];
  for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
    const ref::Sat expected = ref::computeSat(img, format.id);
    for (const satdof::SatAlgorithm& algorithm : satdof::satAlgorithms()) {
      if (!builds(algorithm, format.id)) continue;
      SCOPED_TRACE(std::string(algorithm.name) + " / " + std::string(format.name));
      expectTableEqual(expected, gpuTable(img, algorithm, format.id, satdof::defaultSatScanVariant(),
                                          Source::Linear));
      if (c.surface && surfaceFits) {
        SCOPED_TRACE("surface source");
        expectTableEqual(expected, gpuTable(img, algorithm, format.id,
                                            satdof::defaultSatScanVariant(), Source::Surface));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, CudaSat,
    ::testing::Values(SatCase{1, 1, Content::Random, true}, SatCase{1, 4097}, SatCase{4097, 1},
                      SatCase{1, 70001}, SatCase{70001, 1}, SatCase{31, 33, Content::Random, true},
                      SatCase{127, 31}, SatCase{129, 33}, SatCase{128, 32}, SatCase{255, 65},
                      SatCase{63, 95}, SatCase{65, 33, Content::Random, true}, SatCase{193, 64},
                      SatCase{257, 63, Content::Random, true}, SatCase{1023, 1025},
                      SatCase{1920, 1080, Content::Random, true},
                      SatCase{3840, 2160, Content::Random, true},
                      SatCase{3840, 2160, Content::All255}, SatCase{7680, 4320},
                      SatCase{7680, 4320, Content::All255}),
    [](const auto& info) { return caseName(info.param); });

// Every scan variant builds every algorithm, in every format, with the reference bytes:
// 1x1, thin images both ways, odd sizes, one off the tile multiples (64 x 32 for
// reduce-then-scan, 128 x 32 for single-pass and rows-columns), saturated content, 1080p
// and 4K (each variant changes the scans inside and between tiles, so the edges of both
// are where it could go wrong).
class CudaSatEveryScan : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaSatEveryScan, BuildsEveryAlgorithmAndFormat) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const satdof::ScanVariant* scan = satdof::findScanVariant(GetParam());
  ASSERT_NE(scan, nullptr);
  auto rng = satdof::test::freshRng();
  const std::size_t cap = satdof::test::maxElements();
  const std::vector<SatCase> all = {
      SatCase{1, 1},    SatCase{1, 70},   SatCase{70, 1},     SatCase{33, 31},
      SatCase{63, 31},  SatCase{65, 33},  SatCase{127, 33},   SatCase{129, 31},
      SatCase{1000, 3}, SatCase{517, 389}, SatCase{300, 200, Content::All255},
      SatCase{1920, 1080}, SatCase{3840, 2160}};
  // Under the sanitizers (SATDOF_TEST_MAX_N set) two sizes: racecheck follows every
  // shared-memory access of the tree variants, and the full list took minutes. 129 x 33
  // crosses the tiles of every algorithm in both directions.
  const std::vector<SatCase> capped = {SatCase{1, 1}, SatCase{129, 33}};
  for (const SatCase& c : cap ? capped : all) {
    if (cap && std::size_t(c.width) * c.height > cap) continue;  // SATDOF_TEST_MAX_N
    SCOPED_TRACE(caseName(c));
    const auto img = makeImage(c.width, c.height, c.content, rng);
    for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
      const ref::Sat expected = ref::computeSat(img, format.id);
      for (const satdof::SatAlgorithm& algorithm : satdof::satAlgorithms()) {
        ASSERT_TRUE(algorithm.usesScan) << algorithm.name << ": every algorithm is built from the scan";
        if (!builds(algorithm, format.id)) continue;
        SCOPED_TRACE(std::string(algorithm.name) + " / " + std::string(format.name));
        expectTableEqual(expected, gpuTable(img, algorithm, format.id, *scan, Source::Linear));
      }
    }
  }
}

std::vector<std::string> scanNames() {
  std::vector<std::string> names;
  for (const auto& v : satdof::scanVariants()) names.emplace_back(v.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Variants, CudaSatEveryScan, ::testing::ValuesIn(scanNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// Every scan variant says how it passes sums between blocks, and reduce-then-scan's tiles
// do the same; the two look-back variants are the single-pass ones.
TEST(CudaSatApi, EveryScanVariantNamesHowItCrossesBlocks) {
  for (const satdof::ScanVariant& v : satdof::scanVariants()) {
    SCOPED_TRACE(std::string(v.name));
    EXPECT_TRUE(v.acrossBlocks == "hierarchy" || v.acrossBlocks == "look-back");
    const bool singlePass = v.name == "decoupled-lookback" || v.name == "cub";
    EXPECT_EQ(v.acrossBlocks == "look-back", singlePass);
  }
}

// The SAT's default variant crosses tiles by the carries pass (the look-back costs more
// there: docs/PERFORMANCE.md) and is registered.
TEST(CudaSatApi, TheDefaultScanVariantCrossesTilesByTheHierarchy) {
  const satdof::ScanVariant& v = satdof::defaultSatScanVariant();
  EXPECT_EQ(satdof::findScanVariant(v.name), &v);
  EXPECT_EQ(v.acrossBlocks, "hierarchy");
}

// Repeated launches on one scratch (as the app's SAT pass and the bench do): the
// look-back state is reset by each launch, whatever the previous one left; with every
// scan variant, so that reduce-then-scan's tiles cross by the carries pass and by the
// look-back.
TEST(CudaSatApi, RepeatedLaunchesOnOneScratch) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  auto rng = satdof::test::freshRng();
  // 700 x 300; under a SATDOF_TEST_MAX_N below that (the sanitizers), 70 x (cap / 70).
  const std::size_t cap = satdof::test::maxElements();
  int w = 700, h = 300;
  if (cap && cap < std::size_t(w) * h) w = 70, h = static_cast<int>(std::clamp<std::size_t>(cap / 70, 1, 30));
  const auto img = randomImage(w, h, rng);
  DeviceBuffer<std::uint8_t> in(img.pixels.size());
  SATDOF_CUDA_CHECK(cudaMemcpy(in.data(), img.pixels.data(), in.bytes(), cudaMemcpyHostToDevice));
  for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
    const ref::Sat expected = ref::computeSat(img, format.id);
    for (const satdof::SatAlgorithm& algorithm : satdof::satAlgorithms())
    for (const satdof::ScanVariant& scan : satdof::scanVariants()) {
      if (!builds(algorithm, format.id)) continue;
      SCOPED_TRACE(std::string(algorithm.name) + " / " + std::string(scan.name) + " / " +
                   std::string(format.name));
      satdof::SatArgs args;
      args.scan = &scan;
      args.source = satdof::SatSource::linear(in.data(), std::size_t(img.width) * 4);
      args.width = img.width;
      args.height = img.height;
      args.format = format.id;
      DeviceBuffer<unsigned char> out(satdof::satTableBytes(format.id, img.width, img.height));
      args.table = out.data();
      DeviceBuffer<unsigned char> scratch(algorithm.scratchBytes(args));
      for (int i = 0; i < 3; ++i)
        SATDOF_CUDA_CHECK(algorithm.launch(args, scratch.data(), scratch.size(), nullptr));
      std::vector<std::uint8_t> host(out.size());
      SATDOF_CUDA_CHECK(cudaMemcpy(host.data(), out.data(), host.size(), cudaMemcpyDeviceToHost));
      expectTableEqual(expected, host);
    }
  }
}

// The float formats' documented width limit (satdof/sat_format.h): refused, not wrong.
TEST(CudaSatApi, FloatFormatsRefuseWidthsAbove131072) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const int width = 131073;
  DeviceBuffer<std::uint8_t> in(std::size_t(width) * 4);
  for (SatFormat format : {SatFormat::Float32, SatFormat::Float32Offset}) {
    DeviceBuffer<unsigned char> out(satdof::satTableBytes(format, width, 1));
    for (const satdof::SatAlgorithm& algorithm : satdof::satAlgorithms()) {
      if (!builds(algorithm, format)) continue;
      SCOPED_TRACE(std::string(algorithm.name));
      satdof::SatArgs args;
      args.source = satdof::SatSource::linear(in.data(), std::size_t(width) * 4);
      args.width = width;
      args.height = 1;
      args.format = format;
      args.table = out.data();
      DeviceBuffer<unsigned char> scratch(algorithm.scratchBytes(args));
      EXPECT_EQ(algorithm.launch(args, scratch.data(), scratch.size(), nullptr), cudaErrorInvalidValue);
    }
  }
}

TEST(CudaSatApi, EmptyImageIsANoOpAndBadScratchIsAnError) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  for (const satdof::SatAlgorithm& algorithm : satdof::satAlgorithms()) {
    for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
      if (!builds(algorithm, format.id)) continue;
      SCOPED_TRACE(std::string(algorithm.name) + " / " + std::string(format.name));
      satdof::SatArgs empty;
      empty.format = format.id;
      empty.width = 0;
      empty.height = 5;
      EXPECT_EQ(algorithm.scratchBytes(empty), 0u);
      empty.height = 0;
      EXPECT_EQ(algorithm.launch(empty, nullptr, 0, nullptr), cudaSuccess);
      DeviceBuffer<std::uint8_t> in(16 * 16 * 4);
      DeviceBuffer<unsigned char> out(satdof::satTableBytes(format.id, 16, 16));
      satdof::SatArgs args;
      args.source = satdof::SatSource::linear(in.data(), 64);
      args.width = args.height = 16;
      args.format = format.id;
      args.table = out.data();
      if (algorithm.scratchBytes(args) > 0) {
        EXPECT_EQ(algorithm.launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue);
      }
    }
  }
}

// A scan variant outside the registry has no policy instantiation: refused, not guessed.
TEST(CudaSatApi, UnregisteredScanVariantIsRefused) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  satdof::ScanVariant stranger = satdof::defaultSatScanVariant();
  stranger.name = "not-a-registered-scan";
  DeviceBuffer<std::uint8_t> in(8 * 8 * 4);
  for (const char* name : {"reduce-then-scan", "single-pass"}) {
    const satdof::SatAlgorithm* algorithm = satdof::findSatAlgorithm(name);
    ASSERT_NE(algorithm, nullptr) << name;
    satdof::SatArgs args;
    args.source = satdof::SatSource::linear(in.data(), 32);
    args.width = args.height = 8;
    args.scan = &stranger;
    DeviceBuffer<unsigned char> out(satdof::satTableBytes(args.format, 8, 8));
    args.table = out.data();
    DeviceBuffer<unsigned char> scratch(algorithm->scratchBytes(args));
    EXPECT_EQ(algorithm->launch(args, scratch.data(), scratch.size(), nullptr), cudaErrorInvalidValue)
        << name;
  }
}

// The copy the cuda backend makes of the mapped scene before filtering it
// (satdof/surface_copy.h): the surface's bytes, rows at the given pitch, the padding
// between rows untouched.
TEST(SurfaceCopy, GivesTheSurfaceBytesAtAnyPitch) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  std::mt19937 rng(31);
  for (const auto& [w, h] : {std::pair{1, 1}, {2, 1}, {1, 33}, {31, 2}, {33, 5}, {64, 4}, {65, 5},
                            {1920, 1080}}) {
    for (const std::size_t pad : {std::size_t{0}, std::size_t{12}}) {
      SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " pad " + std::to_string(pad));
      const ref::ImageRgba8 img = randomImage(w, h, rng);
      const satdof::test::SurfaceImage surface(img.pixels.data(), w, h, kRgba8, 4);
      const std::size_t row = std::size_t(w) * 4, pitch = row + pad;
      DeviceBuffer<std::uint8_t> out(pitch * h);
      SATDOF_CUDA_CHECK(cudaMemset(out.data(), 0x5A, out.bytes()));
      SATDOF_CUDA_CHECK(satdof::launchSurfaceToLinear(surface.get(), out.data(), pitch, w, h, nullptr));
      SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<std::uint8_t> got(out.bytes());
      SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), got.size(), cudaMemcpyDeviceToHost));
      for (int y = 0; y < h; ++y) {
        ASSERT_EQ(std::memcmp(got.data() + y * pitch, img.pixels.data() + y * row, row), 0) << "row " << y;
        for (std::size_t i = row; i < pitch; ++i) ASSERT_EQ(got[y * pitch + i], 0x5A) << "padding of row " << y;
      }
    }
  }
}

TEST(SurfaceCopy, RefusesBadArguments) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const ref::ImageRgba8 img(4, 2);
  const satdof::test::SurfaceImage surface(img.pixels.data(), 4, 2, kRgba8, 4);
  DeviceBuffer<std::uint8_t> out(64);
  EXPECT_EQ(satdof::launchSurfaceToLinear(surface.get(), out.data(), 16, 0, 2, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(satdof::launchSurfaceToLinear(0, out.data(), 16, 4, 2, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(satdof::launchSurfaceToLinear(surface.get(), nullptr, 16, 4, 2, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(satdof::launchSurfaceToLinear(surface.get(), out.data(), 12, 4, 2, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(satdof::launchSurfaceToLinear(surface.get(), out.data(), 18, 4, 2, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(satdof::launchSurfaceToLinear(surface.get(), out.data(), 16, 4, 2, nullptr), cudaSuccess);
  SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace

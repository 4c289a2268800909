// tests/test_sat_cuda.cpp — the CUDA SAT against the CPU reference, exact equality.
// Sizes from 1x1 to 4K, thin images both ways, random content; the linear-memory and the
// surface (mapped GL texture) entry points; the default scan variant at every size and
// every registered variant at a few sizes (every variant must be able to drive the SAT).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cuda_test_support.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/sat.h"
#include "satdof/sat.h"
#include "satdof/sat_format.h"
#include "satdof/scan.h"

namespace ref = satdof::reference;
using satdof::test::randomImage;
using satdof::DeviceBuffer;

namespace {

enum class Source { Linear, Surface };

// Runs a GPU SAT algorithm and returns the table as four uint32 per pixel (poisoned
// before the run).
std::vector<std::uint32_t> gpuSat(const ref::ImageRgba8& img, const satdof::SatAlgorithm& algorithm,
                                  const satdof::ScanVariant& scan, Source source) {
  const std::size_t pixels = std::size_t(img.width) * img.height;
  DeviceBuffer<uint4> out(pixels);
  satdof::SatArgs args;
  args.width = img.width;
  args.height = img.height;
  args.table = out.data();
  args.scan = &scan;
  DeviceBuffer<unsigned char> scratch(algorithm.scratchBytes(args));
  SATDOF_CUDA_CHECK(cudaMemset(out.data(), 0xAB, out.bytes()));

  if (source == Source::Linear) {
    DeviceBuffer<std::uint8_t> in(img.pixels.size());
    SATDOF_CUDA_CHECK(cudaMemcpy(in.data(), img.pixels.data(), in.bytes(), cudaMemcpyHostToDevice));
    args.source = satdof::SatSource::linear(in.data(), std::size_t(img.width) * 4);
    SATDOF_CUDA_CHECK(algorithm.launch(args, scratch.data(), scratch.size(), nullptr));
  } else {
    cudaArray_t array = nullptr;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    SATDOF_CUDA_CHECK(cudaMallocArray(&array, &desc, img.width, img.height, cudaArraySurfaceLoadStore));
    SATDOF_CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, img.pixels.data(), std::size_t(img.width) * 4,
                                          std::size_t(img.width) * 4, img.height, cudaMemcpyHostToDevice));
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t surface = 0;
    SATDOF_CUDA_CHECK(cudaCreateSurfaceObject(&surface, &res));
    args.source = satdof::SatSource::fromSurface(surface);
    const cudaError_t e = algorithm.launch(args, scratch.data(), scratch.size(), nullptr);
    SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
    cudaDestroySurfaceObject(surface);
    cudaFreeArray(array);
    SATDOF_CUDA_CHECK(e);
  }
  SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> host(pixels * 4);
  SATDOF_CUDA_CHECK(cudaMemcpy(host.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

void expectSatEqual(const ref::ImageRgba8& img, const std::vector<std::uint32_t>& gpu) {
  const ref::Sat expected = ref::computeSat(img);
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i] != expected.values[i]) {
      const std::size_t pixel = i / 4;
      FAIL() << "first mismatch at x=" << pixel % img.width << " y=" << pixel / img.width
             << " channel " << i % 4 << ": got " << gpu[i] << ", expected " << expected.values[i];
    }
  }
}

struct SatCase {
  int width, height;
};

void PrintTo(const SatCase& c, std::ostream* os) { *os << c.width << "x" << c.height; }

class CudaSat : public ::testing::TestWithParam<SatCase> {};

TEST_P(CudaSat, DefaultVariantMatchesReference) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const SatCase c = GetParam();
  const std::size_t cap = satdof::test::maxElements();
  if (cap && std::size_t(c.width) * c.height > cap)
    GTEST_SKIP() << "larger than SATDOF_TEST_MAX_N=" << cap;
  auto rng = satdof::test::freshRng();
  const auto img = randomImage(c.width, c.height, rng);
  SCOPED_TRACE("linear source");
  expectSatEqual(img, gpuSat(img, satdof::defaultSatAlgorithm(), satdof::defaultScanVariant(), Source::Linear));
  // A surface (what a mapped GL texture gives) exists only up to the device's limit.
  cudaDeviceProp prop{};
  SATDOF_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (c.width <= prop.maxSurface2D[0] && c.height <= prop.maxSurface2D[1]) {
    SCOPED_TRACE("surface source");
    expectSatEqual(img, gpuSat(img, satdof::defaultSatAlgorithm(), satdof::defaultScanVariant(), Source::Surface));
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, CudaSat,
                         ::testing::Values(SatCase{1, 1}, SatCase{1, 4097}, SatCase{4097, 1},
                                           SatCase{1, 70001}, SatCase{70001, 1}, SatCase{31, 33},
                                           SatCase{1023, 1025}, SatCase{1920, 1080},
                                           SatCase{3840, 2160}),
                         [](const auto& info) {
                           return std::to_string(info.param.width) + "x" +
                                  std::to_string(info.param.height);
                         });

class CudaSatEveryScan : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaSatEveryScan, DrivesTheSat) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const satdof::ScanVariant* scan = satdof::findScanVariant(GetParam());
  ASSERT_NE(scan, nullptr);
  auto rng = satdof::test::freshRng();
  for (SatCase c : {SatCase{1, 1}, SatCase{33, 31}, SatCase{1000, 3}, SatCase{517, 389}}) {
    SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height));
    const auto img = randomImage(c.width, c.height, rng);
    expectSatEqual(img, gpuSat(img, satdof::defaultSatAlgorithm(), *scan, Source::Linear));
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

TEST(CudaSatApi, EmptyImageIsANoOpAndBadScratchIsAnError) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  for (const satdof::SatAlgorithm& algorithm : satdof::satAlgorithms()) {
    SCOPED_TRACE(std::string(algorithm.name));
    satdof::SatArgs empty;
    empty.width = 0;
    empty.height = 5;
    EXPECT_EQ(algorithm.scratchBytes(empty), 0u);
    empty.height = 0;
    EXPECT_EQ(algorithm.launch(empty, nullptr, 0, nullptr), cudaSuccess);
    DeviceBuffer<std::uint8_t> in(16 * 16 * 4);
    DeviceBuffer<uint4> out(16 * 16);
    satdof::SatArgs args;
    args.source = satdof::SatSource::linear(in.data(), 64);
    args.width = args.height = 16;
    args.table = out.data();
    if (algorithm.scratchBytes(args) > 0) {
      EXPECT_EQ(algorithm.launch(args, nullptr, 0, nullptr), cudaErrorInvalidValue);
    }
  }
}

}  // namespace

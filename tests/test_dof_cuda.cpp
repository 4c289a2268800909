// tests/test_dof_cuda.cpp — the layered DoF's CUDA kernels (satdof/dof.h) against the
// reference: the reach (cuda/dof/reach.cu) exactly, after the rows' pass (its scratch) and
// after both, on reach_test_support.h's random cases (edge sizes, sizes one off the tile,
// bounds from 0 to 256); and its refusals of bad arguments. Skips visibly without a device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_test_support.h"
#include "reach_test_support.h"
#include "satdof/device_buffer.h"
#include "satdof/dof.h"

namespace {

const cudaChannelFormatDesc kR16I = cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
const cudaChannelFormatDesc kR32I = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);

std::size_t differing(const std::vector<std::int16_t>& got, const std::vector<std::int32_t>& want) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != want[i];
  return wrong;
}

TEST(LayerReach, MatchesTheReferenceExactly) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  auto rng = satdof::test::freshRng();
  for (const auto& [w, h] : satdof::test::kReachSizes)
    for (const int maxBound : satdof::test::kReachMaxBounds) {
      SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + ", bounds up to " + std::to_string(maxBound));
      const satdof::test::ReachCase c = satdof::test::randomReachCase(w, h, maxBound, rng);
      const std::vector<std::int16_t> radius16(c.radius.begin(), c.radius.end());
      const std::vector<std::int16_t> unset(radius16.size(), -1);  // the output starts wrong
      const satdof::test::SurfaceImage radius(radius16.data(), w, h, kR16I, 2);
      const satdof::test::SurfaceImage tiles(c.split.nearTileRadius.data(), c.split.tilesX, c.split.tilesY, kR32I, 4);
      const satdof::test::SurfaceImage reach(unset.data(), w, h, kR16I, 2);
      satdof::LayerReachArgs a;
      a.nearRadius = radius.get();
      a.tileRadius = tiles.get();
      a.reach = reach.get();
      a.width = w;
      a.height = h;
      satdof::DeviceBuffer<unsigned char> scratch(satdof::layerReachScratchBytes(w, h));
      SATDOF_CUDA_CHECK(satdof::launchLayerReach(a, scratch.data(), scratch.size(), nullptr));
      SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<std::int16_t> rows(radius16.size()), got(radius16.size());
      SATDOF_CUDA_CHECK(cudaMemcpy(rows.data(), scratch.data(), rows.size() * 2, cudaMemcpyDeviceToHost));
      reach.read(got.data(), w, h, 2);
      EXPECT_EQ(differing(rows, c.rows), 0u) << "pixels differing from the reference after the rows' pass";
      EXPECT_EQ(differing(got, c.reach), 0u) << "pixels differing from the reference after both passes";
    }
}

TEST(LayerReach, RefusesBadArguments) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  const std::vector<std::int16_t> pixels(8 * 4, 0);
  const int tile = 0;
  const satdof::test::SurfaceImage radius(pixels.data(), 8, 4, kR16I, 2);
  const satdof::test::SurfaceImage tiles(&tile, 1, 1, kR32I, 4);
  const satdof::test::SurfaceImage reach(pixels.data(), 8, 4, kR16I, 2);
  satdof::DeviceBuffer<unsigned char> scratch(satdof::layerReachScratchBytes(8, 4));
  satdof::LayerReachArgs a;
  a.nearRadius = radius.get();
  a.tileRadius = tiles.get();
  a.reach = reach.get();
  a.width = 8;
  a.height = 4;
  EXPECT_EQ(satdof::launchLayerReach(a, scratch.data(), scratch.size() - 1, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(satdof::launchLayerReach(a, nullptr, scratch.size(), nullptr), cudaErrorInvalidValue);
  satdof::LayerReachArgs empty = a;
  empty.width = 0;
  EXPECT_EQ(satdof::launchLayerReach(empty, scratch.data(), scratch.size(), nullptr), cudaErrorInvalidValue);
  satdof::LayerReachArgs noOutput = a;
  noOutput.reach = 0;
  EXPECT_EQ(satdof::launchLayerReach(noOutput, scratch.data(), scratch.size(), nullptr), cudaErrorInvalidValue);
  SATDOF_CUDA_CHECK(satdof::launchLayerReach(a, scratch.data(), scratch.size(), nullptr));
  SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace

// tests/test_bokeh_cuda.cpp — the bokeh highlights pass (satdof/bokeh.h) against its
// reference (satdof/reference/bokeh.h): a tiny scene whose sprites are worked out by hand,
// random frames (every sprite and the count exactly), the cap, nothing selected, and every
// compaction and sort variant behind it. Images go in as CUDA arrays behind surfaces, as
// the mapped GL textures do in the app.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "bokeh_test_support.h"
#include "cuda_test_support.h"
#include "satdof/bokeh.h"
#include "satdof/compact.h"
#include "satdof/device_buffer.h"
#include "satdof/sort.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::test::BokehResult;
using satdof::test::expectSameList;
using satdof::test::linearRamp;
using satdof::test::SurfaceImage;

namespace {

BokehResult runBokeh(const ref::ImageRgba8& colour, const ref::ImageR32F& depth, const ref::CocRamp& ramp,
                   const ref::BokehSettings& settings, const satdof::CompactVariant* compact = nullptr,
                   const satdof::SortVariant* sort = nullptr) {
  const SurfaceImage c(colour.pixels.data(), colour.width, colour.height, cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), 4);
  const SurfaceImage d(depth.pixels.data(), depth.width, depth.height, cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat), 4);
  satdof::DeviceBuffer<ref::BokehSprite> sprites(settings.maxSprites);
  satdof::DeviceBuffer<satdof::BokehCommand> command(1);
  satdof::BokehArgs a;
  a.colour = c.get();
  a.depth = d.get();
  a.width = colour.width;
  a.height = colour.height;
  a.ramp = ramp;
  a.settings = settings;
  a.sprites = sprites.data();
  a.command = command.data();
  a.compact = compact;
  a.sort = sort;
  satdof::DeviceBuffer<unsigned char> scratch(satdof::bokehScratchBytes(a));
  SATDOF_CUDA_CHECK(satdof::launchBokehHighlights(a, scratch.data(), scratch.size(), nullptr));
  SATDOF_CUDA_CHECK(cudaDeviceSynchronize());
  BokehResult r;
  SATDOF_CUDA_CHECK(cudaMemcpy(&r.command, command.data(), sizeof r.command, cudaMemcpyDeviceToHost));
  r.sprites.resize(r.command.instanceCount);
  if (!r.sprites.empty())
    SATDOF_CUDA_CHECK(cudaMemcpy(r.sprites.data(), sprites.data(), r.sprites.size() * sizeof(ref::BokehSprite),
                                 cudaMemcpyDeviceToHost));
  return r;
}

class BokehCuda : public ::testing::Test {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
};

// The scene of bokeh_test_support.h, whose sprites are worked out by hand.
TEST_F(BokehCuda, TinySceneGivesTheSpritesWorkedOutByHand) {
  const satdof::test::TinyBokehScene scene;
  scene.expectWorkedOutSprites(runBokeh(scene.colour, scene.depth, scene.ramp, scene.settings));
}

// Random frames with many highlights (bokeh_test_support.h: lamps, glints, white walls):
// every compaction and sort variant gives the reference list exactly (sizes off the
// tiles, equal depths: stability), with and without the cap, and nothing when nothing is
// bright.
TEST_F(BokehCuda, EveryVariantGivesTheReferenceList) {
  auto rng = satdof::test::freshRng();
  for (const auto& [w, h] : {std::pair{1, 1}, {33, 7}, {257, 129}, {640, 360}}) {
    const ref::ImageRgba8 colour = satdof::test::highlightFrame(w, h, rng);
    ref::ImageR32F depth(w, h);
    std::uniform_int_distribution<int> coarse(0, 7);
    for (float& d : depth.pixels) d = 2.0f + 4.0f * float(coarse(rng));  // few distinct depths: ties
    const ref::CocRamp ramp = linearRamp(10, 8, 16, 100);
    for (const std::uint32_t cap : {8192u, 100u}) {
      for (const std::uint32_t threshold : {180u, 255u}) {
        ref::BokehSettings s;
        s.threshold = threshold;
        s.maxSprites = cap;
        const ref::BokehList want = ref::bokehHighlights(colour, depth, ramp, s);
        for (const satdof::CompactVariant& c : satdof::compactVariants())
          for (const satdof::SortVariant& sv : satdof::sortVariants()) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " cap " + std::to_string(cap) + " threshold " +
                         std::to_string(threshold) + " " + std::string(c.name) + " / " + std::string(sv.name));
            expectSameList(runBokeh(colour, depth, ramp, s, &c, &sv), want);
          }
      }
    }
  }
}

TEST_F(BokehCuda, BadArgumentsAreRefused) {
  satdof::BokehArgs a;
  EXPECT_EQ(satdof::launchBokehHighlights(a, nullptr, 0, nullptr), cudaErrorInvalidValue);
}

}  // namespace

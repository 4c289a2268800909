// tests/test_bokeh_select_cuda.cpp — the CUDA bokeh pass (satdof/bokeh.h) selects exactly
// the reference's highlights (satdof/reference/bokeh.h: the floor, the ring in linear
// light, the radius) on random frames rich in them (lamps, glints, white walls, equal
// light; bokeh_test_support.h), at sizes on both sides of the ring radius's steps, at
// contrasts from 1 to 16 and with the floor low and high: the count and every sprite,
// with a cap above the pixel count so that nothing is cut. Images go in as CUDA arrays
// behind surfaces, as the mapped GL textures do in the app.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bokeh_test_support.h"
#include "cuda_test_support.h"
#include "satdof/bokeh.h"
#include "satdof/device_buffer.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::test::BokehResult;
using satdof::test::expectSameList;
using satdof::test::linearRamp;
using satdof::test::SurfaceImage;

namespace {

BokehResult runBokeh(const ref::ImageRgba8& colour, const ref::ImageR32F& depth, const ref::CocRamp& ramp,
                     const ref::BokehSettings& settings) {
  const SurfaceImage c(colour.pixels.data(), colour.width, colour.height,
                       cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned), 4);
  const SurfaceImage d(depth.pixels.data(), depth.width, depth.height,
                       cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat), 4);
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

class BokehSelectCuda : public ::testing::Test {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
};

TEST_F(BokehSelectCuda, RandomFramesSelectTheReferencesPixels) {
  auto rng = satdof::test::freshRng();
  std::uint32_t found = 0;
  for (const auto& [w, h] : {std::pair{1, 1}, {2, 3}, {17, 9}, {95, 40}, {96, 41}, {191, 64}, {192, 100}, {640, 360},
                             {1280, 720}}) {
    const ref::ImageRgba8 colour = satdof::test::highlightFrame(w, h, rng);
    ref::ImageR32F depth(w, h);
    std::uniform_int_distribution<int> coarse(0, 7);
    for (float& d : depth.pixels) d = 2.0f + 4.0f * float(coarse(rng));
    const ref::CocRamp ramp = linearRamp(10, 8, 16, w);
    for (const std::uint32_t contrast : {16u, 24u, 32u, 64u, 256u})
      for (const std::uint32_t threshold : {120u, 240u}) {
        ref::BokehSettings s;
        s.contrast = contrast;
        s.threshold = threshold;
        s.maxSprites = std::uint32_t(w * h);
        const ref::BokehList want = ref::bokehHighlights(colour, depth, ramp, s);
        found += want.found;
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " contrast " + std::to_string(contrast) +
                     " threshold " + std::to_string(threshold) + ", " + std::to_string(want.found) + " found");
        expectSameList(runBokeh(colour, depth, ramp, s), want);
      }
  }
  EXPECT_GT(found, 1000u) << "the random frames must hold highlights";
}

}  // namespace

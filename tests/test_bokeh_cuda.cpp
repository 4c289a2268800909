// tests/test_bokeh_cuda.cpp — the bokeh highlights pass (satdof/bokeh.h) against its
// reference (satdof/reference/bokeh.h): a tiny scene whose sprites are worked out by hand,
// random frames (every sprite and the count exactly), the cap, nothing selected, and every
// compaction and sort variant behind it. Images go in as CUDA arrays behind surfaces, as
// the mapped GL textures do in the app.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuda_test_support.h"
#include "satdof/bokeh.h"
#include "satdof/compact.h"
#include "satdof/device_buffer.h"
#include "satdof/sort.h"
#include "test_support.h"

namespace ref = satdof::reference;

namespace {

// A 2D CUDA array with a surface object, filled from host pixels.
class SurfaceImage {
 public:
  SurfaceImage(const void* pixels, int width, int height, cudaChannelFormatDesc format, std::size_t pixelBytes) {
    SATDOF_CUDA_CHECK(cudaMallocArray(&array_, &format, width, height, cudaArraySurfaceLoadStore));
    SATDOF_CUDA_CHECK(cudaMemcpy2DToArray(array_, 0, 0, pixels, width * pixelBytes, width * pixelBytes, height,
                                          cudaMemcpyHostToDevice));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array_;
    SATDOF_CUDA_CHECK(cudaCreateSurfaceObject(&surface_, &desc));
  }
  ~SurfaceImage() {
    cudaDestroySurfaceObject(surface_);
    cudaFreeArray(array_);
  }
  SurfaceImage(const SurfaceImage&) = delete;
  SurfaceImage& operator=(const SurfaceImage&) = delete;
  cudaSurfaceObject_t get() const { return surface_; }

 private:
  cudaArray_t array_ = nullptr;
  cudaSurfaceObject_t surface_ = 0;
};

struct GpuResult {
  satdof::BokehCommand command;
  std::vector<ref::BokehSprite> sprites;
};

GpuResult runBokeh(const ref::ImageRgba8& colour, const ref::ImageR32F& depth, const ref::CocRamp& ramp,
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
  GpuResult r;
  SATDOF_CUDA_CHECK(cudaMemcpy(&r.command, command.data(), sizeof r.command, cudaMemcpyDeviceToHost));
  r.sprites.resize(r.command.instanceCount);
  if (!r.sprites.empty())
    SATDOF_CUDA_CHECK(cudaMemcpy(r.sprites.data(), sprites.data(), r.sprites.size() * sizeof(ref::BokehSprite),
                                 cudaMemcpyDeviceToHost));
  return r;
}

void expectSameList(const GpuResult& got, const ref::BokehList& want) {
  EXPECT_EQ(got.command.found, want.found);
  EXPECT_EQ(got.command.count, 4u);
  ASSERT_EQ(got.sprites.size(), want.sprites.size());
  for (std::size_t i = 0; i < want.sprites.size(); ++i) {
    const auto& g = got.sprites[i];
    const auto& w = want.sprites[i];
    ASSERT_TRUE(g.x == w.x && g.y == w.y && g.radius == w.radius && g.depth == w.depth && g.rgba == w.rgba)
        << "sprite " << i << ": got (" << g.x << "," << g.y << " r" << g.radius << " d" << g.depth << ") want ("
        << w.x << "," << w.y << " r" << w.radius << " d" << w.depth << ")";
  }
}

ref::CocRamp linearRamp(float focus, float range, float maxRadius) {
  ref::DofParams p;
  p.focalDistance = focus;
  p.focalRange = range;
  p.maxRadius = maxRadius;
  return ref::cocRamp(p, 100);
}

class BokehCuda : public ::testing::Test {
 protected:
  void SetUp() override { SATDOF_SKIP_WITHOUT_DEVICE(); }
};

// 16x8, black, focus at 10 with range 10 and radius 10 (radius = |d - 10| px). Four white
// pixels: (2,1) at depth 30 (r 10), (5,6) at 10 (in focus: r 0, no sprite), (9,3) at 16
// (r 6) and (14,7) at 12 (r 2 < minRadius 4: no sprite); one dim pixel (1,1) at 30.
// Sprites back to front: (2,1) depth 30, then (9,3) depth 16.
TEST_F(BokehCuda, TinySceneGivesTheSpritesWorkedOutByHand) {
  ref::ImageRgba8 colour(16, 8);
  ref::ImageR32F depth(16, 8, 10.0f);
  auto light = [&](int x, int y, float d, std::uint8_t v) {
    std::uint8_t* p = colour.at(x, y);
    p[0] = p[1] = p[2] = v;
    p[3] = 255;
    depth.at(x, y) = d;
  };
  light(2, 1, 30.0f, 255);
  light(5, 6, 10.0f, 255);
  light(9, 3, 16.0f, 250);
  light(14, 7, 12.0f, 255);
  light(1, 1, 30.0f, 100);
  ref::BokehSettings s;
  s.threshold = 225;
  s.minRadius = 4;
  s.maxSprites = 16;
  const GpuResult r = runBokeh(colour, depth, linearRamp(10, 10, 10), s);
  EXPECT_EQ(r.command.found, 2u);
  ASSERT_EQ(r.sprites.size(), 2u);
  EXPECT_EQ(r.sprites[0].x, 2.5f);
  EXPECT_EQ(r.sprites[0].y, 1.5f);
  EXPECT_EQ(r.sprites[0].radius, 10.0f);
  EXPECT_EQ(r.sprites[0].depth, 30.0f);
  EXPECT_EQ(r.sprites[0].rgba, 0xFFFFFFFFu);
  EXPECT_EQ(r.sprites[1].x, 9.5f);
  EXPECT_EQ(r.sprites[1].y, 3.5f);
  EXPECT_EQ(r.sprites[1].radius, 6.0f);
  EXPECT_EQ(r.sprites[1].rgba, 0xFFFAFAFAu);
  expectSameList(r, ref::bokehHighlights(colour, depth, linearRamp(10, 10, 10), s));
}

// Random frames with many highlights: every compaction and sort variant gives the
// reference list exactly (sizes off the tiles, equal depths: stability), with and without
// the cap, and nothing when nothing is bright.
TEST_F(BokehCuda, EveryVariantGivesTheReferenceList) {
  auto rng = satdof::test::freshRng();
  for (const auto& [w, h] : {std::pair{1, 1}, {33, 7}, {257, 129}, {640, 360}}) {
    ref::ImageRgba8 colour(w, h);
    ref::ImageR32F depth(w, h);
    std::uniform_int_distribution<int> byte(0, 255), coarse(0, 7);
    for (std::size_t i = 0; i < colour.pixels.size(); ++i) colour.pixels[i] = std::uint8_t(byte(rng));
    for (float& d : depth.pixels) d = 2.0f + 4.0f * float(coarse(rng));  // few distinct depths: ties
    const ref::CocRamp ramp = linearRamp(10, 8, 16);
    for (const std::uint32_t cap : {8192u, 100u}) {
      for (const std::uint32_t threshold : {200u, 255u}) {
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

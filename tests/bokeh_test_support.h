// tests/bokeh_test_support.h — what the bokeh tests of every backend share: a list as read
// back (the command and the sprites), its comparison with the reference's sprite by
// sprite, and the tiny scene whose sprites are worked out by hand.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "satdof/reference/bokeh.h"

namespace satdof::test {

struct BokehResult {
  reference::BokehCommand command;
  std::vector<reference::BokehSprite> sprites;  // command.instanceCount of them
};

inline void expectSameList(const BokehResult& got, const reference::BokehList& want) {
  EXPECT_EQ(got.command.count, 4u);
  EXPECT_EQ(got.command.first, 0u);
  EXPECT_EQ(got.command.baseInstance, 0u);
  EXPECT_EQ(got.command.found, want.found);
  ASSERT_EQ(got.sprites.size(), want.sprites.size());
  for (std::size_t i = 0; i < want.sprites.size(); ++i) {
    const auto& g = got.sprites[i];
    const auto& w = want.sprites[i];
    ASSERT_TRUE(g.x == w.x && g.y == w.y && g.radius == w.radius && g.depth == w.depth && g.rgba == w.rgba)
        << "sprite " << i << ": got (" << g.x << "," << g.y << " r" << g.radius << " d" << g.depth << " #"
        << std::hex << g.rgba << std::dec << ") want (" << w.x << "," << w.y << " r" << w.radius << " d" << w.depth
        << " #" << std::hex << w.rgba << std::dec << ")";
  }
}

// The linear camera model's radius ramp for an image `width` pixels wide.
inline reference::CocRamp linearRamp(float focus, float range, float maxRadius, int width) {
  reference::DofParams p;
  p.focalDistance = focus;
  p.focalRange = range;
  p.maxRadius = maxRadius;
  return reference::cocRamp(p, width);
}

// 16x8, black, radius = |d - 10| px (the ramp of a 100-pixel-wide image); the ring a
// highlight must outshine is its 8 neighbours (k = 1: at most one as bright). White
// pixels: (2,1) at depth 30 (r 10), (5,6) at 10 (in focus: r 0, no sprite), (9,3) at 16
// (r 6) and (14,7) at 12 (r 2 < minRadius 4: no sprite); one dim pixel (1,1) at 30, an
// eighth of (2,1)'s light; a pair (6,1), (7,1) at 20 (r 10: each has one bright
// neighbour, allowed); a 2x2 block (12..13, 2..3) at 30 (each has three: a white surface,
// no sprite). Sprites back to front: (2,1) depth 30, the pair at 20 in pixel order, then
// (9,3) depth 16.
struct TinyBokehScene {
  reference::ImageRgba8 colour{16, 8};
  reference::ImageR32F depth{16, 8, 10.0f};
  reference::CocRamp ramp = linearRamp(10, 10, 10, 100);
  reference::BokehSettings settings;

  TinyBokehScene() {
    light(2, 1, 30.0f, 255);
    light(5, 6, 10.0f, 255);
    light(9, 3, 16.0f, 250);
    light(14, 7, 12.0f, 255);
    light(1, 1, 30.0f, 100);  // below the floor; on (2,1)'s ring 520 of 4080 linear sixteenths
    light(6, 1, 20.0f, 255);
    light(7, 1, 20.0f, 255);
    for (int y = 2; y <= 3; ++y)
      for (int x = 12; x <= 13; ++x) light(x, y, 30.0f, 255);
    settings.threshold = 225;
    settings.minRadius = 4;
    settings.maxSprites = 16;
  }
  void light(int x, int y, float d, std::uint8_t v) {
    std::uint8_t* p = colour.at(x, y);
    p[0] = p[1] = p[2] = v;
    p[3] = 255;
    depth.at(x, y) = d;
  }
  // The sprites worked out by hand above, and the reference's list.
  void expectWorkedOutSprites(const BokehResult& r) const {
    EXPECT_EQ(r.command.found, 4u);
    ASSERT_EQ(r.sprites.size(), 4u);
    EXPECT_EQ(r.sprites[0].x, 2.5f);
    EXPECT_EQ(r.sprites[0].y, 1.5f);
    EXPECT_EQ(r.sprites[0].radius, 10.0f);
    EXPECT_EQ(r.sprites[0].depth, 30.0f);
    EXPECT_EQ(r.sprites[0].rgba, 0xFFFFFFFFu);
    for (int i = 1; i <= 2; ++i) {
      EXPECT_EQ(r.sprites[std::size_t(i)].x, float(5 + i) + 0.5f);
      EXPECT_EQ(r.sprites[std::size_t(i)].y, 1.5f);
      EXPECT_EQ(r.sprites[std::size_t(i)].radius, 10.0f);
      EXPECT_EQ(r.sprites[std::size_t(i)].depth, 20.0f);
    }
    EXPECT_EQ(r.sprites[3].x, 9.5f);
    EXPECT_EQ(r.sprites[3].y, 3.5f);
    EXPECT_EQ(r.sprites[3].radius, 6.0f);
    EXPECT_EQ(r.sprites[3].rgba, 0xFFFAFAFAu);
    expectSameList(r, reference::bokehHighlights(colour, depth, ramp, settings));
  }
};

// A random frame for the highlight rule (reference::bokehOutshines), where it has much to
// decide: a background of random bytes up to `backgroundMax` (noise, or smooth stretches),
// bright areas in random bright colours (1 to 6 pixels: lamps and glints, often several
// close together, some at the image's edges; one in 48 of 8 to 60 pixels: white walls,
// whose edges and corners must not qualify), and pixels copied from a neighbour so that
// equal light (the ratio's boundary) turns up.
template <class Rng>
reference::ImageRgba8 highlightFrame(int width, int height, Rng& rng, int backgroundMax = 120) {
  reference::ImageRgba8 image(width, height);
  std::uniform_int_distribution<int> any(0, 255), background(0, backgroundMax), bright(180, 255);
  std::uniform_int_distribution<int> xs(-3, width + 2), ys(-3, height + 2), small(1, 6), large(8, 60);
  const bool smooth = any(rng) % 2 == 0;
  int run = background(rng);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      if (!smooth || any(rng) < 8) run = background(rng);
      std::uint8_t* p = image.at(x, y);
      for (int c = 0; c < 3; ++c) p[c] = std::uint8_t(smooth ? std::clamp(run + any(rng) % 5 - 2, 0, 255) : background(rng));
      p[3] = 255;
    }
  const int areas = 1 + width * height / 150;
  for (int i = 0; i < areas; ++i) {
    const bool wall = i % 48 == 47;
    const int w = wall ? large(rng) : small(rng), h = wall ? large(rng) : small(rng);
    const int x0 = xs(rng), y0 = ys(rng);
    const int r = bright(rng), g = bright(rng), b = bright(rng);
    for (int y = std::max(y0, 0); y < std::min(y0 + h, height); ++y)
      for (int x = std::max(x0, 0); x < std::min(x0 + w, width); ++x) {
        std::uint8_t* p = image.at(x, y);
        p[0] = std::uint8_t(r);
        p[1] = std::uint8_t(g);
        p[2] = std::uint8_t(b);
      }
  }
  for (int i = 0; i < width * height / 50; ++i) {
    const int x = any(rng) * width / 256, y = any(rng) * height / 256;
    const int nx = std::min(x + 1 + any(rng) % 8, width - 1);
    std::copy_n(image.at(nx, y), 4, image.at(x, y));
  }
  return image;
}

}  // namespace satdof::test

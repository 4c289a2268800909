// tests/bokeh_test_support.h — what the bokeh tests of every backend share: a list as read
// back (the command and the sprites), its comparison with the reference's sprite by
// sprite, and the tiny scene whose sprites are worked out by hand.
#pragma once

#include <gtest/gtest.h>

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

// 16x8, black, radius = |d - 10| px (the ramp of a 100-pixel-wide image). Four white
// pixels: (2,1) at depth 30 (r 10), (5,6) at 10 (in focus: r 0, no sprite), (9,3) at 16
// (r 6) and (14,7) at 12 (r 2 < minRadius 4: no sprite); one dim pixel (1,1) at 30.
// Sprites back to front: (2,1) depth 30, then (9,3) depth 16.
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
    light(1, 1, 30.0f, 100);
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
    expectSameList(r, reference::bokehHighlights(colour, depth, ramp, settings));
  }
};

}  // namespace satdof::test

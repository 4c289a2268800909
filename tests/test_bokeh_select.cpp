// tests/test_bokeh_select.cpp — which pixels are bokeh highlights (satdof/reference/
// bokeh.h, "select"): a pixel above the floor that outshines the ring around it in linear
// light. White diffuse surfaces of any size (a wall with mild shading, a box and a lit
// sphere on a darker floor, their edges and corners) give none, where the encoded-byte
// rule alone picks thousands; lamps (small bright spots on a mid sky, a pair close
// together, one in a corner of the image) and a glint on a shaded teapot-red body are
// selected, every pixel of them above the floor. The ring's bounds worked out exactly
// (an eighth of it as bright is allowed, one more is not; "as bright" includes equality),
// and the linear decoding is the layered DoF's linear light, byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "bokeh_test_support.h"
#include "satdof/reference/bokeh.h"
#include "satdof/reference/layered_dof.h"
#include "test_support.h"

namespace ref = satdof::reference;
namespace {

using satdof::test::linearRamp;
using Pixel = std::pair<int, int>;

// Every pixel out of focus (radius 12 at depth 40), so only the brightness tests decide.
struct Frame {
  ref::ImageRgba8 colour;
  ref::ImageR32F depth;
  ref::CocRamp ramp;
  explicit Frame(int w, int h) : colour(w, h), depth(w, h, 40.0f), ramp(linearRamp(10, 8, 12, w)) {}
  void set(int x, int y, int r, int g, int b) {
    if (x < 0 || y < 0 || x >= colour.width || y >= colour.height) return;
    std::uint8_t* p = colour.at(x, y);
    p[0] = std::uint8_t(std::clamp(r, 0, 255));
    p[1] = std::uint8_t(std::clamp(g, 0, 255));
    p[2] = std::uint8_t(std::clamp(b, 0, 255));
    p[3] = 255;
  }
  std::set<Pixel> selected(const ref::BokehSettings& s = {}) const {
    std::set<Pixel> out;
    for (const ref::BokehSprite& sprite : ref::bokehHighlights(colour, depth, ramp, s).sprites)
      out.insert({int(sprite.x), int(sprite.y)});
    return out;
  }
  // What the encoded-byte rule alone (luminance above the floor) would pick.
  int aboveFloor(const ref::BokehSettings& s = {}) const {
    int n = 0;
    for (int y = 0; y < colour.height; ++y)
      for (int x = 0; x < colour.width; ++x) {
        const std::uint8_t* c = colour.at(x, y);
        n += ref::bokehLuminance(c[0], c[1], c[2]) > s.threshold;
      }
    return n;
  }
};

// A disc of radius r, pixel centres inside.
template <class F>
void disc(int cx, int cy, double r, F&& f) {
  for (int y = int(cy - r) - 1; y <= int(cy + r) + 1; ++y)
    for (int x = int(cx - r) - 1; x <= int(cx + r) + 1; ++x)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) f(x, y);
}

TEST(BokehSelect, LinearDecodingIsTheLinearLightTables) {
  const ref::LinearLightTables& tables = ref::linearLightTables();
  for (std::uint32_t b = 0; b < 256; ++b) ASSERT_EQ(ref::bokehLinearByte(b), tables.decode[b]) << "byte " << b;
  EXPECT_EQ(ref::bokehLinearLuminance(255, 255, 255), 4080u);
  EXPECT_EQ(ref::bokehLinearLuminance(0, 0, 0), 0u);
}

TEST(BokehSelect, RingRadiusFollowsTheWidth) {
  EXPECT_EQ(ref::bokehRingRadius(1), 1);
  EXPECT_EQ(ref::bokehRingRadius(95), 1);
  EXPECT_EQ(ref::bokehRingRadius(96), 2);
  EXPECT_EQ(ref::bokehRingRadius(640), 7);
  EXPECT_EQ(ref::bokehRingRadius(1280), 14);
  EXPECT_EQ(ref::bokehRingRadius(3840), 41);
}

// Width 200: k = 3, a ring of 24 pixels. The centre's light 100; ring pixels of light 50
// are as bright at contrast 2 (100 * 16 <= 32 * 50), those of 49 are not. Any k of the 24
// may be as bright; k + 1 may not. The ring is exactly the pixels at Chebyshev distance k.
TEST(BokehSelect, AnEighthOfTheRingMayBeAsBrightNoMore) {
  const int w = 200, h = 50, k = ref::bokehRingRadius(w), cx = 100, cy = 25;
  ASSERT_EQ(k, 3);
  std::vector<Pixel> ring;
  for (int y = cy - k; y <= cy + k; ++y)
    for (int x = cx - k; x <= cx + k; ++x)
      if (std::max(std::abs(x - cx), std::abs(y - cy)) == k) ring.push_back({x, y});
  ASSERT_EQ(ring.size(), 8u * k);
  auto rng = satdof::test::freshRng();
  for (int trial = 0; trial < 200; ++trial) {
    std::shuffle(ring.begin(), ring.end(), rng);
    const int asBright = trial % (2 * k + 2);
    const std::set<Pixel> chosen(ring.begin(), ring.begin() + asBright);
    const auto luminance = [&](int x, int y) -> std::uint32_t {
      if (x == cx && y == cy) return 100;
      if (chosen.count({x, y})) return 50 + std::uint32_t(trial % 3) * 1000;  // 50 or brighter
      return 49 - std::uint32_t(trial % 5);  // anything darker than half
    };
    EXPECT_EQ(ref::bokehOutshines(cx, cy, w, h, 32, luminance), asBright <= k) << asBright << " as bright";
  }
  // Pixels inside the ring or beyond it do not count.
  const auto inside = [&](int x, int y) -> std::uint32_t {
    return std::max(std::abs(x - cx), std::abs(y - cy)) == k ? 0 : 100;
  };
  EXPECT_TRUE(ref::bokehOutshines(cx, cy, w, h, 32, inside));
  // At contrast 1 (16 sixteenths), a uniform image is never outshone.
  EXPECT_FALSE(ref::bokehOutshines(cx, cy, w, h, 16, [](int, int) -> std::uint32_t { return 7; }));
}

// Ring pixels off the image do not count: a lamp in a corner is still a lamp, a white
// wall along the image's edge is still a wall.
TEST(BokehSelect, TheRingEndsAtTheImagesEdges) {
  const int w = 200, h = 50;
  const auto lampInCorner = [](int x, int y) -> std::uint32_t { return x == 0 && y == 0 ? 4080 : 500; };
  EXPECT_TRUE(ref::bokehOutshines(0, 0, w, h, 32, lampInCorner));
  const auto wallOnLeft = [](int x, int) -> std::uint32_t { return x < 2 ? 4080 : 500; };
  EXPECT_FALSE(ref::bokehOutshines(0, 25, w, h, 32, wallOnLeft));
}

// A white room: a wall with mild shading (a gradient of 20 grey levels and noise of 2),
// a white box and a lit white sphere on a grey floor. The encoded-byte rule picks
// thousands of its pixels; none outshines its ring, at any contrast from 1.5 up and with
// the floor lowered too.
TEST(BokehSelect, WhiteDiffuseSurfacesGiveNone) {
  auto rng = satdof::test::freshRng();
  std::uniform_int_distribution<int> noise(-2, 2);
  for (const auto& [w, h] : {std::pair{640, 360}, {1280, 720}, {333, 200}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    Frame f(w, h);
    const int horizon = h * 2 / 3;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        if (y < horizon) {
          const int v = 255 - 20 * (x + y) / (w + h) + noise(rng);
          f.set(x, y, v, v, v - 3);
        } else {
          const int v = 120 + 15 * (y - horizon) / (h - horizon) + noise(rng);
          f.set(x, y, v, v, v);
        }
      }
    // The box: lit front, a slightly darker side, resting on the floor.
    const int bx = w / 8, bw = w / 4, by = horizon - h / 5, bh = h / 4;
    for (int y = by; y < by + bh; ++y)
      for (int x = bx; x < bx + bw; ++x) {
        const int v = (x < bx + bw * 3 / 4 ? 252 : 236) + noise(rng);
        f.set(x, y, v, v, v);
      }
    // The sphere: Lambert shading from the top left, brightest 255.
    const int sx = w * 2 / 3, sy = horizon, sr = h / 5;
    disc(sx, sy, sr, [&](int x, int y) {
      const double nx = double(x - sx) / sr, ny = double(y - sy) / sr, nz = std::sqrt(std::max(0.0, 1 - nx * nx - ny * ny));
      const double light = std::max(0.0, -0.4 * nx - 0.5 * ny + 0.77 * nz);
      const int v = int(255.0 * std::pow(0.15 + 0.85 * std::min(1.0, light * 1.15), 1.0 / 2.2));
      f.set(x, y, v, v, v);
    });
    EXPECT_GT(f.aboveFloor(), w * h / 10) << "the encoded-byte rule must pick many here, or this test shows nothing";
    for (const std::uint32_t contrast : {24u, 32u, 64u}) {
      for (const std::uint32_t threshold : {240u, 128u}) {
        ref::BokehSettings s;
        s.contrast = contrast;
        s.threshold = threshold;
        EXPECT_EQ(f.selected(s).size(), 0u) << "contrast " << contrast << "/16, threshold " << threshold;
      }
    }
  }
}

// Lamps on a mid sky (about a third of their light, as in the default scene): two of
// radius 3 close together, one of radius 1, one in the image's corner; a glint of 2x2
// white pixels on a shaded red body. Every pixel of them above the floor is selected, and
// nothing else.
TEST(BokehSelect, LampsAndGlintsAreSelected) {
  for (const auto& [w, h] : {std::pair{640, 360}, {1280, 720}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    Frame f(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const int v = 150 + 20 * y / h;
        f.set(x, y, v - 25, v + 5, v + 50);  // sky blue
      }
    std::set<Pixel> lamps;
    const auto lamp = [&](int cx, int cy, double r) {
      disc(cx, cy, r, [&](int x, int y) {
        f.set(x, y, 255, 250, 236);
        if (x >= 0 && y >= 0 && x < w && y < h) lamps.insert({x, y});
      });
    };
    lamp(w / 4, h / 5, 3);
    lamp(w / 4 + 10, h / 5 + 2, 3);
    lamp(w / 2, h / 6, 1);
    lamp(0, 0, 2);
    // The body: a red disc, Lambert-shaded, with a white glint where the light hits.
    const int bx = w * 2 / 3, by = h * 2 / 3, br = h / 4;
    disc(bx, by, br, [&](int x, int y) {
      const double nx = double(x - bx) / br, ny = double(y - by) / br, nz = std::sqrt(std::max(0.0, 1 - nx * nx - ny * ny));
      const double light = 0.2 + 0.8 * std::max(0.0, -0.4 * nx - 0.5 * ny + 0.77 * nz);
      f.set(x, y, int(210 * light), int(45 * light), int(38 * light));
    });
    std::set<Pixel> glint;
    for (int y = by - br / 3; y < by - br / 3 + 2; ++y)
      for (int x = bx - br / 4; x < bx - br / 4 + 2; ++x) {
        f.set(x, y, 255, 255, 255);
        glint.insert({x, y});
      }
    std::set<Pixel> want = lamps;
    want.insert(glint.begin(), glint.end());
    EXPECT_EQ(f.selected(), want);
    // Each lamp and the glint with the other ring tests off: the same pixels.
    EXPECT_EQ(f.aboveFloor(), int(want.size()));
  }
}

// The reference takes the ring test as it is written for every backend: on random frames
// rich in highlights, a pixel is selected exactly when it passes the floor, the radius and
// bokehOutshines on its own, whatever the order the list is made in.
TEST(BokehSelect, TheListHoldsExactlyThePixelsThatPassEveryTest) {
  auto rng = satdof::test::freshRng();
  std::size_t total = 0;
  for (const auto& [w, h] : {std::pair{1, 1}, {7, 5}, {96, 40}, {257, 129}}) {
    const ref::ImageRgba8 colour = satdof::test::highlightFrame(w, h, rng);
    ref::ImageR32F depth(w, h);
    std::uniform_int_distribution<int> coarse(0, 7);
    for (float& d : depth.pixels) d = 2.0f + 4.0f * float(coarse(rng));
    const ref::CocRamp ramp = linearRamp(10, 8, 16, w);
    for (const std::uint32_t contrast : {16u, 32u, 100u}) {
      ref::BokehSettings s;
      s.contrast = contrast;
      s.threshold = 180;
      s.maxSprites = std::uint32_t(w * h);
      const auto luminance = [&](int x, int y) {
        const std::uint8_t* c = colour.at(x, y);
        return ref::bokehLinearLuminance(c[0], c[1], c[2]);
      };
      std::set<Pixel> want;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const std::uint8_t* c = colour.at(x, y);
          if (ref::bokehLuminance(c[0], c[1], c[2]) > s.threshold &&
              ref::cocRadius(depth.at(x, y), ramp) >= s.minRadius && ref::bokehOutshines(x, y, w, h, contrast, luminance))
            want.insert({x, y});
        }
      std::set<Pixel> got;
      const ref::BokehList list = ref::bokehHighlights(colour, depth, ramp, s);
      for (const ref::BokehSprite& sprite : list.sprites) got.insert({int(sprite.x), int(sprite.y)});
      EXPECT_EQ(list.found, want.size());
      EXPECT_EQ(got, want) << w << "x" << h << " contrast " << contrast;
      total += want.size();
    }
  }
  EXPECT_GT(total, 500u) << "the random frames must hold highlights";
}

}  // namespace

// tests/test_depth_maps.cpp — depth maps from real sensors (engine/content/photo.h, depth_holes.h),
// no GL: a TUM-style 16-bit map in units per metre (5000: 10000 is 2 m) with holes (0, no
// reading) beside a colour edge between two planes at 2 m and 5 m; each hole takes the
// depth of the plane of its own colour, the photo refocuses as the same capture without
// holes does, and a map that is all holes is refused. Also: a float map's NaN, infinite
// and negative values are holes; --depth-invalid marks a value of a normalised map; the
// content's depth span (depth_span.h) reaches what a photo and a glTF scene hold.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/content/content.h"
#include "engine/content/content_error.h"
#include "engine/content/depth_holes.h"
#include "engine/content/photo.h"
#include "content_files.h"
#include "satdof/reference/dof.h"

namespace {

namespace fs = std::filesystem;
using namespace satdof::content;

constexpr int kW = 96, kH = 64;
constexpr float kNear = 2.0f, kFar = 5.0f, kUnitsPerMetre = 5000.0f;

// Where the colour edge (and the depth step) lies on row y of the file: a slanted line.
int edgeX(int y) { return 38 + y / 3; }
bool nearSide(int x, int y) { return x < edgeX(y); }

// A capture of two planes: left of the edge, red at 2 m; right, blue at 5 m; each colour
// with a little sensor noise. Rows top-down, as written.
struct Capture {
  std::vector<std::uint8_t> rgb;
  std::vector<std::uint16_t> depth, holey;  // without and with holes (0)
  std::vector<bool> hole;
  std::size_t holes = 0;
};

Capture makeCapture() {
  Capture c;
  c.rgb.resize(std::size_t(kW) * kH * 3);
  c.depth.resize(std::size_t(kW) * kH);
  c.hole.assign(c.depth.size(), false);
  std::uint32_t state = 12345;
  auto next = [&state] {  // a fixed LCG: the same capture every run
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const std::size_t i = std::size_t(y) * kW + std::size_t(x);
      const bool near = nearSide(x, y);
      const int base[3] = {near ? 200 : 50, near ? 60 : 90, near ? 50 : 200};
      for (int k = 0; k < 3; ++k) c.rgb[i * 3 + std::size_t(k)] = std::uint8_t(base[k] + int(next() % 9) - 4);
      c.depth[i] = std::uint16_t(std::lround((near ? kNear : kFar) * kUnitsPerMetre));
      c.hole[i] = next() % 100 < 15;  // 15 % at random
    }
  // And holes on both sides of the edge, where a careless fill would take the other plane's
  // depth: pairs of pixels across it on every other row, a 2x3 block straddling it on some.
  for (int y = 0; y < kH; y += 2) {
    const std::size_t i = std::size_t(y) * kW + std::size_t(edgeX(y));
    c.hole[i - 1] = c.hole[i] = true;
  }
  for (int y = 5; y + 1 < kH; y += 9)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = -2; dx < 1 + 1; ++dx) c.hole[std::size_t(y + dy) * kW + std::size_t(edgeX(y) + dx)] = true;
  c.holey = c.depth;
  for (std::size_t i = 0; i < c.hole.size(); ++i)
    if (c.hole[i]) {
      c.holey[i] = 0;
      ++c.holes;
    }
  return c;
}

class DepthMaps : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_depth_maps"};
  const fs::path& dir = folder.path;
  Capture capture = makeCapture();

  void SetUp() override {
    content_files::writePng8(dir / "c.png", kW, kH, 3, capture.rgb);
    content_files::writePng16(dir / "c_depth.png", kW, kH, capture.holey);
    content_files::writePng16(dir / "whole_depth.png", kW, kH, capture.depth);
  }

  static DepthMapping scaled() {
    DepthMapping m;
    m.unitsPerMetre = kUnitsPerMetre;
    return m;
  }

  template <class F>
  static std::string errorOf(F f) {
    try {
      f();
    } catch (const ContentError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(DepthMaps, HolesTakeTheDepthOfThePlaneOfTheirOwnColour) {
  ASSERT_GT(capture.holes, std::size_t(kW * kH) * 15 / 100);
  const Photo p = loadPhoto(dir / "c.png", dir / "c_depth.png", scaled());
  EXPECT_EQ(p.holeCount, capture.holes);
  int edgeHoles = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const std::size_t file = std::size_t(y) * kW + std::size_t(x);
      const int row = kH - 1 - y;  // bottom-up, as GL stores it
      ASSERT_EQ(p.holes[std::size_t(row) * kW + std::size_t(x)] != 0, bool(capture.hole[file])) << x << "," << y;
      const float truth = nearSide(x, y) ? kNear : kFar;
      if (capture.hole[file]) {
        edgeHoles += std::abs(x - edgeX(y)) <= 2;
        EXPECT_NEAR(p.depth.at(x, row), truth, 0.01f * truth) << "hole at " << x << "," << y;
      } else {
        ASSERT_EQ(p.depth.at(x, row), truth) << "read at " << x << "," << y;  // value / 5000 = metres
      }
    }
  EXPECT_GT(edgeHoles, kH) << "holes beside the edge, on both sides";
  // What was read, not what was filled: the planes' distances.
  EXPECT_EQ(p.nearest, kNear);
  EXPECT_EQ(p.farthest, kFar);
  char share[32];
  std::snprintf(share, sizeof share, "%.1f %% holes filled", 100.0 * double(capture.holes) / double(kW * kH));
  EXPECT_EQ(p.depthDescription, std::string("16-bit PNG, 5000 units/m, ") + share);
}

TEST_F(DepthMaps, TheScaleMapsValuesToMetresAndAMapOfHolesIsRefused) {
  // 10000 at 5000 units per metre is 2 m; at 1000 (millimetres) 10 m.
  DepthMapping mm;
  mm.unitsPerMetre = 1000;
  const Photo p = loadPhoto(dir / "c.png", dir / "whole_depth.png", mm);
  EXPECT_EQ(p.nearest, 10.0f);
  EXPECT_EQ(p.holeCount, 0u);
  EXPECT_EQ(p.depthDescription, "16-bit PNG, 1000 units/m");
  content_files::writePng16(dir / "none_depth.png", kW, kH, std::vector<std::uint16_t>(std::size_t(kW) * kH, 0));
  const std::string e = errorOf([&] { loadPhoto(dir / "c.png", dir / "none_depth.png", scaled()); });
  EXPECT_NE(e.find("none_depth.png': has no depth reading: every value is 0"), std::string::npos) << e;
  std::vector<float> nan(std::size_t(kW) * kH, std::nanf(""));
  content_files::writeExr(dir / "nan.exr", kW, kH, nan);
  const std::string f = errorOf([&] { loadPhoto(dir / "c.png", dir / "nan.exr", {}); });
  EXPECT_NE(f.find("nan.exr': has no depth reading: every value is NaN, infinite or not positive"), std::string::npos) << f;
  // Only a map in units per metre reads 0 as no reading: in a normalised one it is NEAR.
  const Photo normalised = loadPhoto(dir / "c.png", dir / "c_depth.png", {DepthEncoding::Metric, 1, 10, true});
  EXPECT_EQ(normalised.holeCount, 0u);
  EXPECT_EQ(normalised.nearest, 1.0f);
  DepthMapping none = scaled();
  none.noHoleValue = true;  // --depth-invalid none: 0 is a reading again
  EXPECT_NE(errorOf([&] { loadPhoto(dir / "c.png", dir / "c_depth.png", none); }).find("is no distance"), std::string::npos);
}

TEST_F(DepthMaps, TheFilledCaptureRefocusesAsTheCaptureWithoutHoles) {
  const Photo filled = loadPhoto(dir / "c.png", dir / "c_depth.png", scaled());
  const Photo whole = loadPhoto(dir / "c.png", dir / "whole_depth.png", scaled());
  ASSERT_EQ(whole.holeCount, 0u);
  ASSERT_EQ(filled.colour.pixels, whole.colour.pixels);
  for (const float focus : {kNear, kFar, 3.5f}) {
    satdof::reference::DofParams params;
    params.focalDistance = focus;
    params.focalRange = 3.0f;
    params.maxRadius = 8.0f;
    const auto a = satdof::reference::depthOfField(filled.colour, filled.depth, params);
    const auto b = satdof::reference::depthOfField(whole.colour, whole.depth, params);
    // A filled depth is its plane's within float rounding (a mean of equal depths, the
    // other plane's weight under 1e-6): every pixel gets the same blur radius, so the
    // images are the same bytes. Measured: 0 pixels differ at each focus.
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i) differ += a.pixels[i] != b.pixels[i];
    EXPECT_EQ(differ, 0u) << "focus " << focus;
  }
}

TEST_F(DepthMaps, FloatHolesAndAChosenValueAreFilled) {
  // A float map in metres: NaN, infinity and a negative value are no readings.
  std::vector<float> metres(std::size_t(kW) * kH);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) metres[std::size_t(y) * kW + std::size_t(x)] = nearSide(x, y) ? kNear : kFar;
  metres[10] = std::nanf("");
  metres[11] = INFINITY;
  metres[std::size_t(kW) * 3 + 90] = -1.0f;
  metres[std::size_t(kW) * 4 + 90] = 0.0f;
  content_files::writeExr(dir / "f.exr", kW, kH, metres);
  const Photo f = loadPhoto(dir / "c.png", dir / "f.exr", {});
  EXPECT_EQ(f.holeCount, 4u);
  EXPECT_FLOAT_EQ(f.depth.at(10, kH - 1), kNear);
  EXPECT_FLOAT_EQ(f.depth.at(11, kH - 1), kNear);
  EXPECT_FLOAT_EQ(f.depth.at(90, kH - 4), kFar);
  EXPECT_FLOAT_EQ(f.depth.at(90, kH - 5), kFar);
  EXPECT_NE(f.depthDescription.find("float EXR, metric (metres), 0.1 % holes filled"), std::string::npos) << f.depthDescription;
  // --depth-invalid 65535 on a normalised map: white is no reading there.
  std::vector<std::uint16_t> white = capture.depth;
  white[5] = 65535;
  content_files::writePng16(dir / "white_depth.png", kW, kH, white);
  DepthMapping m{DepthEncoding::Metric, 0.0f, 65535.0f / kUnitsPerMetre, true};
  m.holeValue = 65535.0f;
  const Photo w = loadPhoto(dir / "c.png", dir / "white_depth.png", m);
  EXPECT_EQ(w.holeCount, 1u);
  EXPECT_NEAR(w.depth.at(5, kH - 1), kNear, 1e-3f);
}

// A hole pixel whose every known neighbour is of another colour waits for one of its own.
TEST(DepthHoles, AHoleWaitsForANeighbourOfItsOwnColour) {
  // One row: [red 2][red hole][red hole][blue 5]: the hole beside blue must still be 2.
  const std::vector<std::uint8_t> rgba = {200, 0, 0, 255, 200, 0, 0, 255, 200, 0, 0, 255, 0, 0, 200, 255};
  std::vector<float> depth = {2, 0, 0, 5};
  const std::vector<std::uint8_t> holes = {0, 1, 1, 0};
  fillDepthHoles(4, 1, rgba, depth, holes);
  EXPECT_FLOAT_EQ(depth[1], 2.0f);
  EXPECT_NEAR(depth[2], 2.0f, 1e-5f);
  // A colour found nowhere around it: the neighbours' depths averaged, nothing left empty.
  const std::vector<std::uint8_t> odd = {200, 0, 0, 255, 0, 200, 0, 255, 0, 0, 200, 255};
  std::vector<float> d2 = {2, 0, 4};
  fillDepthHoles(3, 1, odd, d2, std::vector<std::uint8_t>{0, 1, 0});
  EXPECT_NEAR(d2[1], 3.0f, 1e-4f);
}

TEST_F(DepthMaps, TheContentsDepthSpanIsWhatItHolds) {
  const Content photo = loadContent({"teapots", dir / "c.png", dir / "c_depth.png", scaled()});
  EXPECT_EQ(photo.depthSpan.nearest, kNear);
  EXPECT_EQ(photo.depthSpan.farthest, kFar);
  EXPECT_EQ(photo.depthSpan.unit, "m");
  EXPECT_EQ(photo.depthSpan.holes, capture.holes);
  bool holesLine = false;
  for (const std::string& line : photo.summary) holesLine = holesLine || line.find("holes ") == 0;
  EXPECT_TRUE(holesLine);
  // A millimetre-scale glTF: its span in its own units, the sliders reaching its focus.
  content_files::writeTestGltf(dir / "boxes.gltf", true);
  const Content g = loadContent({(dir / "boxes.gltf").string(), {}, {}, {}});
  EXPECT_EQ(g.depthSpan.unit, "units");
  ASSERT_TRUE(g.depthSpan.known());
  EXPECT_GE(g.depthSpan.farthest, 17.99f);  // the slab's far edge, 18 units down the view axis
  const SliderSpan focus = focalSlider(g.depthSpan), range = focalRangeSlider(g.depthSpan);
  EXPECT_LT(focus.lo, g.focalDistance);
  EXPECT_GT(focus.hi, g.focalDistance);
  EXPECT_GT(range.hi, g.focalRange);
  const Content builtIn = loadContent({"teapots", {}, {}, {}});
  EXPECT_FALSE(builtIn.depthSpan.known()) << "the panel's declared ranges";
}

}  // namespace

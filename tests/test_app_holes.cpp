// tests/test_app_holes.cpp — the holes view (`--view holes`, view_pass.h): an RGB-D photo
// written by the test, its 16-bit depth map in millimetres (--depth-scale 1000, 0 = no
// reading) with holes at known pixels, rendered headless at its own size on the cpu and
// gl-compute backends: the view tints exactly those pixels, and says how many; a photo
// without holes and the built-in scene show none and say so.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app_run_support.h"
#include "content_files.h"

namespace {

constexpr int kWidth = 64, kHeight = 48;

class AppHoles : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_app_holes"};
  const fs::path& dir = folder.path;
};

// A colour photo (a vertical split in two colours, a gradient within each) and its depth in
// millimetres (a ramp from 1 m to 4 m, the right half farther), 0 where `holes` lists a
// pixel (x, y from the top left).
void writePair(const fs::path& dir, const std::set<std::pair<int, int>>& holes) {
  std::vector<std::uint8_t> rgb(std::size_t(kWidth) * kHeight * 3);
  std::vector<std::uint16_t> mm(std::size_t(kWidth) * kHeight);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const std::size_t i = std::size_t(y) * kWidth + std::size_t(x);
      const bool right = x >= kWidth / 2;
      rgb[i * 3 + 0] = std::uint8_t(right ? 40 + 2 * y : 200);
      rgb[i * 3 + 1] = std::uint8_t(right ? 120 : 60 + 2 * y);
      rgb[i * 3 + 2] = std::uint8_t(right ? 200 : 40);
      mm[i] = holes.count({x, y}) ? 0 : std::uint16_t(1000 + 30 * y + (right ? 1500 : 0));
    }
  content_files::writePng8(dir / "photo.png", kWidth, kHeight, 3, rgb);
  content_files::writePng16(dir / "photo_depth.png", kWidth, kHeight, mm);
}

// The pixels the view tinted: red and blue alike and above green (grey depth has all three
// alike, the sky more blue than red).
std::set<std::pair<int, int>> tinted(const Png& png) {
  std::set<std::pair<int, int>> marked;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0; x < png.width; ++x) {
      const unsigned char* p = &png.rgba[(std::size_t(y) * png.width + std::size_t(x)) * 4];
      if (p[0] == p[2] && p[0] > p[1] + 60) marked.insert({x, y});
    }
  return marked;
}

TEST_F(AppHoles, TheHolesViewTintsExactlyThePixelsWithNoReading) {
  // A lone pixel, a pixel at a corner and at an edge, a 5 x 3 block across the colour edge.
  std::set<std::pair<int, int>> holes = {{3, 4}, {0, 0}, {kWidth - 1, 20}, {17, kHeight - 1}};
  for (int y = 30; y < 33; ++y)
    for (int x = 30; x < 35; ++x) holes.insert({x, y});
  writePair(dir, holes);
  for (const char* backend : {"cpu", "gl-compute"}) {
    SCOPED_TRACE(backend);
    const fs::path out = freshDir(std::string("holes_") + backend);
    const RunResult r = run("--headless --frames 2 --save last --view holes --backend " + std::string(backend) +
                            " --photo " + (dir / "photo.png").string() + " --depth " + (dir / "photo_depth.png").string() +
                            " --depth-scale 1000 --out " + out.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("satdof: holes view: magenta: " + std::to_string(holes.size()) +
                         " pixels (0.6 %) had no depth reading, filled from around them"),
              std::string::npos)
        << r.out;
    const Png png = loadPng(out / "frame_0001.png");
    ASSERT_EQ(png.width, kWidth);  // the photo's own size: one pixel for one
    ASSERT_EQ(png.height, kHeight);
    EXPECT_EQ(tinted(png), holes);
  }
}

TEST_F(AppHoles, ContentWithoutHolesShowsNone) {
  writePair(dir, {});
  const RunResult photo = run("--headless --frames 2 --save last --view holes --backend cpu --photo " +
                              (dir / "photo.png").string() + " --depth " + (dir / "photo_depth.png").string() +
                              " --depth-scale 1000 --out " + (dir / "out").string());
  ASSERT_EQ(photo.exitCode, 0) << photo.err;
  EXPECT_NE(photo.out.find("satdof: holes view: no depth holes: every pixel has its own depth"), std::string::npos)
      << photo.out;
  const Png png = loadPng(dir / "out" / "frame_0001.png");
  ASSERT_EQ(png.width, kWidth);
  EXPECT_TRUE(tinted(png).empty());
  // The holes view of a photo without holes is its depth view.
  const RunResult depth = run("--headless --frames 2 --save last --view depth --backend cpu --photo " +
                              (dir / "photo.png").string() + " --depth " + (dir / "photo_depth.png").string() +
                              " --depth-scale 1000 --out " + (dir / "depth").string());
  ASSERT_EQ(depth.exitCode, 0) << depth.err;
  EXPECT_TRUE(loadPng(dir / "depth" / "frame_0001.png").rgba == png.rgba);

  const RunResult scene = run("--headless --frames 2 --save last --view holes --backend cpu --size 160x90 --out " +
                              (dir / "scene").string());
  ASSERT_EQ(scene.exitCode, 0) << scene.err;
  EXPECT_NE(scene.out.find("satdof: holes view: no depth holes"), std::string::npos) << scene.out;
  EXPECT_TRUE(tinted(loadPng(dir / "scene" / "frame_0001.png")).empty());
}

}  // namespace

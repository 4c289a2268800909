// tests/test_focus_on_open.cpp — content opens in focus on what it shows (engine/content/content.h):
// a glTF on the surface under the image's centre, at any scale; a photo at its median with a
// range from its own depths; each content's range its own, not the one before it. The
// expected depths come from the files' geometry, written here, not from the ray cast.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/content/content.h"
#include "content_files.h"
#include "engine/scene/raycast.h"

namespace fs = std::filesystem;

namespace {
using namespace satdof;

class FocusOnOpen : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("satdof_focus_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

// A camera at the origin looking down -z (the file's camera 0), a box of half-size `s`
// whose front face is at view depth 5 s on the view axis, a large box 3 s to the side at
// depth 2 s (nearer, off the centre), and a wall at depth 40 s: the bounds' centre is far
// behind the front face, so focusing there blurs the surface the camera looks at.
void writeScaledScene(const fs::path& path, float s) {
  content_files::GltfBuilder g;
  std::vector<float> p, n, uv;
  std::vector<std::uint32_t> idx;
  content_files::box(p, n, uv, idx);
  const int m = g.mesh(p, n, uv, idx, g.material({0.7f, 0.7f, 0.7f}, 0.0f, 0.8f));
  const int front = g.node(m, {0.0f, 0.0f, -6.0f * s}, {s, s, s});          // front face at z = -5 s
  const int side = g.node(m, {3.0f * s, 0.0f, -2.5f * s}, {s, s, 0.5f * s});  // x in [2 s, 4 s]
  const int wall = g.node(m, {0.0f, 0.0f, -41.0f * s}, {20.0f * s, 20.0f * s, s});
  g.roots = {front, side, wall, g.node(-1, {0, 0, 0}, {1, 1, 1}, g.camera(0.7f, 0.01f * s, 100.0f * s))};
  g.write(path);
}

// A 4x1 grey photo whose float depth map holds 2, 3, 4 and 10 m.
content::ContentRequest writeFourPixelPhoto(const fs::path& dir) {
  content_files::writePng8(dir / "p.png", 4, 1, 3, std::vector<std::uint8_t>(4 * 3, 128));
  content_files::writeExr(dir / "p_depth.exr", 4, 1, {2.0f, 3.0f, 4.0f, 10.0f});
  content::ContentRequest r;
  r.photo = dir / "p.png";
  r.depth = dir / "p_depth.exr";
  return r;
}

TEST_F(FocusOnOpen, AGltfFocusesOnTheSurfaceUnderTheCentreAtEveryScale) {
  for (const float s : {0.01f, 1.0f, 1000.0f}) {
    const fs::path file = dir / ("scene_" + std::to_string(int(s * 100)) + ".glb");
    writeScaledScene(file, s);
    const content::Content c = content::loadContent({file.string(), {}, {}, {}});
    EXPECT_NEAR(c.focalDistance, 5.0f * s, 1e-4f * s) << "scale " << s;
    // The range: the bounds' diagonal, so the scene's own depths reach at most full blur.
    EXPECT_GT(c.focalRange, 30.0f * s) << "scale " << s;
    EXPECT_LT(c.focalRange, 100.0f * s) << "scale " << s;
  }
}

TEST_F(FocusOnOpen, TheCentreRayDecidesAndAGapWithNothingBehindTakesTheNearestRayBesideIt) {
  // Two boxes 0.04 apart at depth 5 leave a gap on the axis. With a wall behind at 40, the
  // wall is what the centre shows. Without it, a ring of rays at 1/80 of the field of view
  // (0.7 rad high) reaches 0.046 to the side at depth 5: the boxes' front faces.
  std::vector<float> p, n, uv;
  std::vector<std::uint32_t> idx;
  content_files::box(p, n, uv, idx);
  for (const bool wall : {true, false}) {
    content_files::GltfBuilder g;
    const int m = g.mesh(p, n, uv, idx, -1);
    g.roots = {g.node(m, {-1.02f, 0.0f, -6.0f}), g.node(m, {1.02f, 0.0f, -6.0f}),
               g.node(-1, {0, 0, 0}, {1, 1, 1}, g.camera(0.7f, 0.01f, 100.0f))};
    if (wall) g.roots.push_back(g.node(m, {0.0f, 0.0f, -41.0f}, {20.0f, 20.0f, 1.0f}));
    const fs::path file = dir / (wall ? "wall.glb" : "gap.glb");
    g.write(file);
    EXPECT_NEAR(content::loadContent({file.string(), {}, {}, {}}).focalDistance, wall ? 40.0f : 5.0f, 1e-3f)
        << (wall ? "with" : "without") << " the wall";
  }
}

TEST_F(FocusOnOpen, APhotoFocusesAtItsMedianWithARangeFromItsOwnDepths) {
  // A 4x1 float depth map: 2, 3, 4, 10 m. Median (the upper middle of an even count or
  // the mean of the two, whichever the loader documents) between 3 and 4; the range the
  // larger distance from it to 2 or 10.
  const content::Content c = content::loadContent(writeFourPixelPhoto(dir));
  ASSERT_TRUE(c.photo);
  EXPECT_FLOAT_EQ(c.focalDistance, c.photo->median);
  EXPECT_GE(c.photo->median, 3.0f);
  EXPECT_LE(c.photo->median, 4.0f);
  EXPECT_FLOAT_EQ(c.focalRange, 10.0f - c.photo->median);
}

TEST_F(FocusOnOpen, EachContentBringsItsOwnRange) {
  writeScaledScene(dir / "big.glb", 1000.0f);
  const content::ContentRequest photo = writeFourPixelPhoto(dir);
  const float gltfRange = content::loadContent({(dir / "big.glb").string(), {}, {}, {}}).focalRange;
  const float photoRange = content::loadContent(photo).focalRange;
  const float builtInRange = content::loadContent({"teapots", {}, {}, {}}).focalRange;
  EXPECT_GT(gltfRange, 1000.0f * photoRange);
  EXPECT_LT(photoRange, 10.0f);
  EXPECT_FLOAT_EQ(builtInRange, 6.0f);  // the built-in scenes' range, the option's default
}

TEST(Raycast, FirstHitIsTheNearestTriangleAlongTheRayInWorldUnits) {
  scene::Scene s;
  scene::Mesh quad;
  quad.vertices.resize(4);
  quad.vertices[0].position = {-1, -1, 0};
  quad.vertices[1].position = {1, -1, 0};
  quad.vertices[2].position = {1, 1, 0};
  quad.vertices[3].position = {-1, 1, 0};
  quad.indices = {0, 1, 2, 0, 2, 3};
  s.meshes.push_back(quad);
  scene::Instance near, far;
  near.model = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -3)) * glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
  far.model = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -7));
  s.instances = {far, near};
  const auto t = scene::firstHit(s, {0, 0, 0}, {0, 0, -2});
  ASSERT_TRUE(t);
  EXPECT_FLOAT_EQ(*t, 1.5f);  // z = -3 at t = 1.5 along (0, 0, -2)
  EXPECT_FALSE(scene::firstHit(s, {0, 0, 0}, {0, 0, 1}));    // behind
  EXPECT_FALSE(scene::firstHit(s, {5, 0, 0}, {0, 0, -1}));   // beside
  const auto off = scene::firstHit(s, {0.8f, 0, 0}, {0, 0, -1});  // past the small quad's edge
  ASSERT_TRUE(off);
  EXPECT_FLOAT_EQ(*off, 7.0f);
}

}  // namespace

// tests/test_stage.cpp — the stage under a lone glTF model (engine/content/stage.h), on the
// CPU: the rule (rays through the bottom eighth of the image, lone under a quarter), the
// ground and lamps it adds, and what each --stage value gives:
//   * a lone figure gets a stage under auto and on, none under off; the focus found on the
//     model either way;
//   * the same figure standing on a large slab has surroundings: none under auto;
//   * the ground lies just under the bounds, reaches 60 radii, its checker cells scale with
//     the model; each lamp is 8-20 radii behind, above the ground, in a 16:9 view and the
//     first thing its ray meets; the far plane reaches the ground's corners;
//   * taking the stage off restores the scene; built-in scenes and photos never get one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/glm.hpp>

#include "content_files.h"
#include "engine/content/content.h"
#include "engine/content/stage.h"
#include "engine/scene/raycast.h"

namespace {

namespace fs = std::filesystem;
using namespace satdof;
using content::StageMode;

class Stage : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_stage"};
  fs::path lone() {
    const fs::path p = folder.path / "figure.glb";
    content_files::writeFigureGlb(p);
    return p;
  }
  fs::path onGround() {
    const fs::path p = folder.path / "figure_on_ground.glb";
    content_files::writeFigureGlb(p, 20.0f);
    return p;
  }
  static content::Content load(const fs::path& file, StageMode mode) {
    content::ContentRequest r;
    r.scene = file.string();
    r.stage = mode;
    return content::loadContent(r);
  }
};

// The figure's own instances (4 boxes): what a scene without a stage holds.
constexpr std::size_t kFigureInstances = 4;

scene::Bounds worldBoundsOf(const scene::Scene& s, std::size_t count) {
  scene::Bounds b{glm::vec3(1e30f), glm::vec3(-1e30f)};
  for (std::size_t i = 0; i < count; ++i) {
    const scene::Bounds m = scene::computeBounds(s.meshes[std::size_t(s.instances[i].mesh)]);
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 p(c & 1 ? m.hi.x : m.lo.x, c & 2 ? m.hi.y : m.lo.y, c & 4 ? m.hi.z : m.lo.z);
      const glm::vec3 w(s.instances[i].model * glm::vec4(p, 1.0f));
      b.lo = glm::min(b.lo, w);
      b.hi = glm::max(b.hi, w);
    }
  }
  return b;
}

TEST_F(Stage, CountHitsCountsTheRaysThatMeetASurface) {
  scene::Scene s;
  s.meshes.push_back(scene::makeFloor(1.0f, 1.0f));  // y = 0, x and z in [-1, 1]
  s.instances.push_back({0, glm::mat4(1.0f)});
  // From above, straight down: inside the square hits, outside misses; minT excludes hits nearer.
  const std::vector<scene::Ray> rays = {{{0, 2, 0}, {0, -1, 0}}, {{0, 2, 0}, {0.25f, -1, 0}},
                                        {{3, 2, 0}, {0, -1, 0}}, {{0, 2, 0}, {0, 1, 0}}};
  EXPECT_EQ(scene::countHits(s, rays, 0.0f), 2u);  // inside, inside, beside, away
  EXPECT_EQ(scene::countHits(s, rays, 2.5f), 0u);  // the hits lie at t = 2
  EXPECT_EQ(scene::countHits(scene::Scene{}, rays, 0.0f), 0u);
  EXPECT_EQ(scene::countHits(s, rays, 0.0f, 1), 1u) << "the small quad's first triangle alone: (0.25, 0, 0) lies in the second";
}

TEST_F(Stage, ALoneModelGetsAStageUnderAutoAndOnAndNoneUnderOff) {
  const fs::path file = lone();
  const content::Content off = load(file, StageMode::Off);
  ASSERT_TRUE(off.stage);
  const content::StageRule& rule = off.stage->rule;
  EXPECT_TRUE(rule.lone()) << rule.viewHits << " and " << rule.groundHits;
  EXPECT_EQ(rule.viewRays, content::kViewRayColumns * content::kViewRayRows);
  EXPECT_EQ(rule.groundRays, content::kFootprintColumns * content::kFootprintRows);
  EXPECT_LT(4 * rule.viewHits, rule.viewRays);
  EXPECT_LT(2 * rule.groundHits, rule.groundRays) << "the feet cover little of the footprint";
  EXPECT_FALSE(off.stageShown);
  EXPECT_EQ(off.scene->instances.size(), kFigureInstances);
  EXPECT_EQ(off.stageNote, "none (off)");
  for (const StageMode mode : {StageMode::Auto, StageMode::On}) {
    SCOPED_TRACE(std::string(content::toString(mode)));
    const content::Content c = load(file, mode);
    ASSERT_TRUE(c.stage);
    EXPECT_TRUE(c.stageShown);
    EXPECT_EQ(c.stage->lampCentres.size(), std::size_t(content::kLampCount)) << "every lamp finds a place";
    EXPECT_EQ(c.scene->instances.size(), kFigureInstances + 1 + c.stage->lampCentres.size());
    EXPECT_NE(c.stageNote.find("a ground and 5 lamps added"), std::string::npos) << c.stageNote;
    EXPECT_NE(c.stageNote.find(mode == StageMode::Auto ? "(auto: the model stands alone: " : "(on)"), std::string::npos)
        << c.stageNote;
    // The focus is found on the model before the stage is added: the same either way.
    EXPECT_EQ(c.focalDistance, off.focalDistance);
    EXPECT_EQ(c.focalRange, off.focalRange);
    EXPECT_GT(c.depthSpan.farthest, off.depthSpan.farthest) << "the focus sliders reach the lamps";
  }
}

TEST_F(Stage, AModelOnALargeGroundHasSurroundings) {
  const fs::path file = onGround();
  const content::Content c = load(file, StageMode::Auto);
  ASSERT_TRUE(c.stage);
  EXPECT_FALSE(c.stage->rule.lone());
  EXPECT_EQ(c.stage->rule.groundHits, c.stage->rule.groundRays) << "the slab under the whole footprint";
  EXPECT_FALSE(c.stageShown);
  EXPECT_EQ(c.scene->instances.size(), kFigureInstances + 1);
  EXPECT_NE(c.stageNote.find("none (auto: the model has surroundings: "), std::string::npos) << c.stageNote;
  EXPECT_TRUE(load(file, StageMode::On).stageShown) << "on: a stage whatever the rule says";
  // A scene seen from its own camera (boxes on a ground slab): the view's rays meet the ground.
  const fs::path withCamera = folder.path / "boxes.gltf";
  content_files::writeTestGltf(withCamera, true);
  const content::Content boxes = load(withCamera, StageMode::Auto);
  EXPECT_GE(4 * boxes.stage->rule.viewHits, 3 * boxes.stage->rule.viewRays);
  EXPECT_FALSE(boxes.stageShown);
}

TEST_F(Stage, GroundAndLampsArePlacedForTheModelsSize) {
  const content::Content c = load(lone(), StageMode::On);
  const scene::Scene& s = *c.scene;
  const content::Stage& stage = *c.stage;
  const scene::Bounds model = worldBoundsOf(s, kFigureInstances);
  const float r = 0.5f * glm::length(model.size());
  const scene::Camera& cam = s.camera;

  // The ground: the first instance after the model's, just under its bounds, 60 radii each
  // way of its centre, checker cells of kCellRadii radii.
  const scene::Instance& ground = s.instances[kFigureInstances];
  ASSERT_GE(ground.texture, 0);
  const scene::Mesh& groundMesh = s.meshes[std::size_t(ground.mesh)];
  const scene::Bounds g = worldBoundsOf(s, kFigureInstances + 1);
  EXPECT_LE(stage.groundY, model.lo.y);
  EXPECT_GT(stage.groundY, model.lo.y - 0.01f * r);
  EXPECT_NEAR(g.lo.y, stage.groundY, 1e-5f * r);
  EXPECT_NEAR(g.hi.x - model.centre().x, content::kGroundRadii * r, 1e-3f * r);
  EXPECT_NEAR(model.centre().z - g.lo.z, content::kGroundRadii * r, 1e-3f * r);
  float uvLo = 1e30f, uvHi = -1e30f;
  for (const scene::Vertex& v : groundMesh.vertices) {
    uvLo = std::min(uvLo, v.uv.x);
    uvHi = std::max(uvHi, v.uv.x);
  }
  const scene::Texture& checker = s.textures[std::size_t(ground.texture)];
  const float cellsPerRepeat = float(checker.width) / 32.0f;  // makeCheckerTexture: cells of 32 texels
  EXPECT_NEAR((g.hi.x - g.lo.x) / ((uvHi - uvLo) * cellsPerRepeat), content::kCellRadii * r, 1e-3f * r);
  EXPECT_GE(cam.farPlane, glm::length(glm::vec3(g.hi.x, g.lo.y, g.hi.z) - cam.position()))
      << "the camera draws the ground to its far corners";

  // The lamps: unlit, bright, small, 8-20 radii behind the model's centre, above the
  // ground, inside a 16:9 view and the first surface along their rays.
  ASSERT_EQ(stage.lampCentres.size(), std::size_t(content::kLampCount));
  const float centreDepth = cam.viewDepth(model.centre());
  const glm::mat4 clip = cam.projection(scene::Camera::kFramedAspect) * cam.view();
  for (std::size_t k = 0; k < stage.lampCentres.size(); ++k) {
    SCOPED_TRACE("lamp " + std::to_string(k));
    const scene::Instance& lamp = s.instances[kFigureInstances + 1 + k];
    EXPECT_TRUE(lamp.emissive);
    EXPECT_GE(std::min({lamp.albedo.r, lamp.albedo.g, lamp.albedo.b}), 0.78f);
    const glm::vec3 at = stage.lampCentres[k];
    const float radius = stage.lampRadii[k];
    const float behind = (cam.viewDepth(at) - centreDepth) / r;
    EXPECT_GE(behind, 8.0f - 1e-3f);
    EXPECT_LE(behind, 20.0f + 1e-3f);
    EXPECT_GT(at.y - radius, stage.groundY + 0.2f * r) << "above the ground";
    EXPECT_LT(radius, 0.1f * r) << "small";
    const glm::vec4 c = clip * glm::vec4(at, 1.0f);
    EXPECT_LT(std::abs(c.x / c.w), 0.95f);
    EXPECT_LT(std::abs(c.y / c.w), 0.95f);
    const glm::vec3 toLamp = at - cam.position();
    const auto hit = scene::firstHit(s, cam.position(), toLamp);
    ASSERT_TRUE(hit);
    EXPECT_GT(*hit * glm::length(toLamp), glm::length(toLamp) - 1.01f * radius) << "hidden behind something";
  }
  // The lamps are spread: no two within a twentieth of the image's width of each other.
  for (std::size_t a = 0; a < stage.lampCentres.size(); ++a)
    for (std::size_t b = a + 1; b < stage.lampCentres.size(); ++b) {
      const glm::vec4 pa = clip * glm::vec4(stage.lampCentres[a], 1.0f), pb = clip * glm::vec4(stage.lampCentres[b], 1.0f);
      EXPECT_GT(glm::length(glm::vec2(pa) / pa.w - glm::vec2(pb) / pb.w), 0.1f) << a << " and " << b;
    }
}

TEST_F(Stage, TakingTheStageOffRestoresTheScene) {
  const content::Content bare = load(lone(), StageMode::Off);
  scene::Scene s = *bare.scene;
  content::addStage(s, *bare.stage);
  EXPECT_GT(s.camera.farPlane, bare.scene->camera.farPlane);
  EXPECT_EQ(s.instances.size(), kFigureInstances + 1 + content::kLampCount);
  content::removeStage(s, *bare.stage);
  EXPECT_EQ(s.instances.size(), bare.scene->instances.size());
  EXPECT_EQ(s.meshes.size(), bare.scene->meshes.size());
  EXPECT_EQ(s.textures.size(), bare.scene->textures.size());
  EXPECT_EQ(s.camera.farPlane, bare.scene->camera.farPlane);
  for (std::size_t i = 0; i < s.instances.size(); ++i) EXPECT_EQ(s.instances[i].mesh, bare.scene->instances[i].mesh);
}

TEST_F(Stage, BuiltInScenesAndPhotosNeverGetOne) {
  for (const StageMode mode : {StageMode::Auto, StageMode::On}) {
    content::ContentRequest r;
    r.stage = mode;
    const content::Content c = content::loadContent(r);  // the built-in teapots
    EXPECT_FALSE(c.stage);
    EXPECT_FALSE(c.stageShown);
    EXPECT_EQ(c.scene->instances.size(), content::loadContent({}).scene->instances.size());
    EXPECT_EQ(c.stageNote, "none (a built-in scene has its own surroundings)");
  }
  const content_files::Photo p = content_files::makePhoto(32, 24);
  content_files::writePng8(folder.path / "p.png", 32, 24, 3, p.rgb);
  content_files::writeExr(folder.path / "p_depth.exr", 32, 24, p.depth);
  content::ContentRequest r;
  r.photo = folder.path / "p.png";
  r.depth = folder.path / "p_depth.exr";
  r.stage = StageMode::On;
  const content::Content photo = content::loadContent(r);
  EXPECT_FALSE(photo.stage);
  EXPECT_EQ(photo.stageNote, "none (a photo has its own surroundings)");
}

TEST_F(Stage, ModesByName) {
  for (const char* name : content::kStageModeNames) {
    const auto m = content::stageModeFromName(name);
    ASSERT_TRUE(m) << name;
    EXPECT_EQ(content::toString(*m), name);
  }
  EXPECT_FALSE(content::stageModeFromName("maybe"));
  EXPECT_TRUE(content::stageWanted(StageMode::On, {128, 128, 128, 128}));
  EXPECT_FALSE(content::stageWanted(StageMode::Off, {0, 128, 0, 128}));
  EXPECT_TRUE(content::stageWanted(StageMode::Auto, {31, 128, 111, 128}));
  EXPECT_FALSE(content::stageWanted(StageMode::Auto, {32, 128, 0, 128})) << "a quarter of the view: surroundings";
  EXPECT_FALSE(content::stageWanted(StageMode::Auto, {0, 128, 112, 128})) << "7/8 of the footprint: a ground";
}

}  // namespace

// tests/test_lens_truth_gl.cpp — the accumulation-buffer lens truth (engine/passes/lens_truth.h)
// on a headless EGL context (Mesa's llvmpipe in CI), at 160x90:
//   * a flat wall on the focal plane comes out as the scene pass drew it;
//   * a small lamp off the focal plane spreads over a disc of the thin-lens model's radius
//     (within 1 px), centred where the pinhole camera shows it;
//   * a scene with strong blur converges: N renders against 2N over 50 dB;
//   * the scene pass's second layer (depth peeling) sees past a ball to the wall behind
//     it, not the ball's own far side.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/frame/frame_targets.h"
#include "engine/gl/program.h"
#include "engine/image/image_io.h"
#include "engine/passes/lens_truth.h"
#include "engine/passes/scene_pass.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/dof_ground_truth.h"
#include "gl_test_support.h"

namespace ref = satdof::reference;
namespace scene = satdof::scene;

namespace {

using satdof::test::GlTest;
constexpr int kW = 160, kH = 90;

// A checkered wall facing the camera at view depth `wallDepth` from an eye on +z looking
// down -z, and optionally a small square white lamp (`lampSize` scene units) centred at
// `lampAt` at view depth `lampDepth`. Dark: the wall black and lit from behind, so that
// all light comes from the lamp.
scene::Scene wallScene(float wallDepth, float lampDepth = 0, float lampSize = 0, glm::vec2 lampAt = {},
                       bool dark = false) {
  scene::Scene s;
  s.meshes = {scene::makeFloor(40.0f, 40.0f)};
  s.textures = {scene::makeCheckerTexture()};
  s.camera.target = {0, 0, 0};
  s.camera.distance = wallDepth;
  s.camera.fovY = glm::radians(40.0f);
  s.lightDirection = glm::normalize(glm::vec3(-0.3f, 0.6f, 1.0f));
  const glm::mat4 stand = glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), {1, 0, 0});
  s.instances.push_back({0, stand, glm::vec3(dark ? 0.0f : 0.85f), false, 0});  // the checker
  if (dark) s.lightDirection = {0.0f, 0.0f, -1.0f};
  if (lampSize > 0) {
    const glm::mat4 lamp = glm::scale(glm::translate(glm::mat4(1.0f), {lampAt, wallDepth - lampDepth}),
                                      glm::vec3(lampSize / 80.0f));  // the floor mesh is 80 units wide
    s.instances.push_back({0, lamp * stand, {1.0f, 1.0f, 1.0f}, true, 0});
  }
  return s;
}

// A long lens: at 160 px wide, blur radii of tens of pixels.
ref::DofParams lens(float focus, float fNumber) {
  ref::DofParams p;
  p.model = ref::CocModel::ThinLens;
  p.focalDistance = focus;
  p.focalLengthMm = 300.0f;
  p.fNumber = fNumber;
  p.maxRadius = 64.0f;
  return p;
}

struct Rig {
  explicit Rig(const scene::Scene& s, int samples = 1) : pass(satdof::gl::findShaderDir(), s) {
    targets.allocate({kW, kH}, satdof::SatFormat::Uint32);
    pass.setSamples(samples);
    pass.attach(targets.targets());
  }
  ref::ImageRgba8 pinhole(const scene::Scene& s) {
    satdof::Profiler profiler;
    satdof::ProfileHistory history;
    pass.run(s, profiler);
    profiler.endFrame(history);
    profiler.drain(history);
    return satdof::readTexture(targets.targets().sceneColour, kW, kH);
  }
  satdof::FrameTargets targets;
  satdof::ScenePass pass;
};

}  // namespace

class LensTruthGl : public GlTest {};

// In focus, every eye sees the wall at the same place: the truth is the pinhole image,
// with and without MSAA. The wall is lit from behind (its ambient term alone), so it shows
// no specular highlight: a highlight moves with the eye, and a lens averages it over the
// aperture.
TEST_F(LensTruthGl, InFocusWallIsUnchanged) {
  for (const int samples : {1, 4}) {
    scene::Scene s = wallScene(6.0f);
    s.lightDirection = {0.0f, 0.0f, -1.0f};
    Rig rig(s, samples);
    const ref::ImageRgba8 sharp = rig.pinhole(s);
    satdof::LensTruthSettings settings;
    settings.maxRenders = 64;
    const satdof::LensTruth truth = satdof::renderLensTruth(rig.pass, s, rig.targets.targets(), lens(6.0f, 1.4f), settings);
    EXPECT_GT(truth.apertureRadius, 0.01);
    // Up to the last bit of the texture filter's sums, which the GL computes from each
    // eye's derivatives: a few values one step off, none more.
    std::size_t differ = 0;
    int worst = 0;
    for (std::size_t i = 0; i < sharp.pixels.size(); ++i) {
      const int d = std::abs(int(sharp.pixels[i]) - int(truth.image.pixels[i]));
      differ += d != 0;
      worst = std::max(worst, d);
    }
    EXPECT_LE(worst, 1) << "samples " << samples;
    EXPECT_LE(differ, sharp.pixels.size() / 1000) << "samples " << samples;
  }
}

// A lamp one pixel wide at depth z, on a black wall: each render lights the one pixel its
// eye puts the lamp on, and the lit pixels span the disc of the model's radius r(z): 2r
// each way within 1 px, about the pinhole image's lamp. In front of the focal plane and
// behind it.
TEST_F(LensTruthGl, LampSpreadsOverTheModelsCircleOfConfusion) {
  for (const float lampDepth : {3.0f, 12.0f}) {
    const float focus = 6.0f;
    const ref::DofParams p = lens(focus, 2.0f);
    const scene::Camera camera = wallScene(30.0f).camera;
    const float unit = 1.0f / camera.pixelsPerUnitAt(lampDepth, float(kW) / kH, kH);  // a pixel there
    // Centred on the pixel centre right of and above the image's centre.
    const scene::Scene s = wallScene(30.0f, lampDepth, unit, {0.5f * unit, 0.5f * unit}, true);
    Rig rig(s);
    const ref::ImageRgba8 sharp = rig.pinhole(s);
    satdof::LensTruthSettings settings;
    settings.firstRenders = settings.maxRenders = 1024;
    const satdof::LensTruth truth = satdof::renderLensTruth(rig.pass, s, rig.targets.targets(), p, settings);
    EXPECT_EQ(truth.renders, 1024u);
    const double r = ref::unclampedCocRadius(lampDepth, ref::cocRamp(p, kW));
    ASSERT_GT(r, 5.0);
    ASSERT_LT(r, 40.0);
    struct Box {
      int x0 = kW, x1 = -1, y0 = kH, y1 = -1;
      void add(int x, int y) { x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y); }
    } lit, lamp;
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) {
        if (truth.image.at(x, y)[0] > 0) lit.add(x, y);
        if (sharp.at(x, y)[0] > 0) lamp.add(x, y);
      }
    ASSERT_GE(lamp.x1, 0) << "the lamp is not in the pinhole image";
    EXPECT_EQ(lamp.x1 - lamp.x0, 0);
    EXPECT_EQ(lamp.y1 - lamp.y0, 0);
    EXPECT_NEAR(0.5 * (lit.x1 - lit.x0), r, 1.0) << "lamp at " << lampDepth;
    EXPECT_NEAR(0.5 * (lit.y1 - lit.y0), r, 1.0) << "lamp at " << lampDepth;
    EXPECT_NEAR(0.5 * (lit.x0 + lit.x1), lamp.x0, 1.0);
    EXPECT_NEAR(0.5 * (lit.y0 + lit.y1), lamp.y0, 1.0);
    // A disc, not a square: every lit pixel within r + 1 of the lamp, and the box's
    // corners dark.
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x)
        if (truth.image.at(x, y)[0] > 0) {
          EXPECT_LE(std::hypot(x - lamp.x0, y - lamp.y0), r + 1.0) << x << "," << y;
        }
    EXPECT_EQ(truth.image.at(lit.x0, lit.y0)[0], 0);
    EXPECT_EQ(truth.image.at(lit.x1, lit.y1)[0], 0);
  }
}

// A square aperture spreads the lamp over the box the SAT methods average: half-side the
// model's radius, its corners lit.
TEST_F(LensTruthGl, SquareApertureSpreadsOverTheBox) {
  const float lampDepth = 3.0f;
  const ref::DofParams p = lens(6.0f, 2.0f);
  const scene::Camera camera = wallScene(30.0f).camera;
  const float unit = 1.0f / camera.pixelsPerUnitAt(lampDepth, float(kW) / kH, kH);
  const scene::Scene s = wallScene(30.0f, lampDepth, unit, {0.5f * unit, 0.5f * unit}, true);
  Rig rig(s);
  satdof::LensTruthSettings settings;
  settings.shape = ref::ApertureShape::Square;
  settings.firstRenders = settings.maxRenders = 1024;
  const satdof::LensTruth truth = satdof::renderLensTruth(rig.pass, s, rig.targets.targets(), p, settings);
  const double r = ref::unclampedCocRadius(lampDepth, ref::cocRamp(p, kW));
  const int cx = kW / 2, cy = kH / 2;  // the lamp's pixel
  int x0 = kW, x1 = -1, cornersLit = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      if (truth.image.at(x, y)[0] == 0) continue;
      x0 = std::min(x0, x), x1 = std::max(x1, x);
      EXPECT_LE(std::max(std::abs(x - cx), std::abs(y - cy)), r + 1.0) << x << "," << y;
      cornersLit += std::hypot(x - cx, y - cy) > r + 1.0;  // outside the disc: the box's corners
    }
  EXPECT_NEAR(0.5 * (x1 - x0), r, 1.0);
  EXPECT_GT(cornersLit, 8);
}

// A checkered wall far behind the focal plane and a lamp in front of it, both blurred by
// 15-20 px: the doubling stops once N renders are within 50 dB of 2N, and 4N agrees as closely.
TEST_F(LensTruthGl, Converges) {
  const scene::Scene s = wallScene(20.0f, 1.5f, 0.05f, {0.03f, 0.01f});
  Rig rig(s);
  const ref::DofParams p = lens(3.0f, 4.0f);
  const ref::CocRamp ramp = ref::cocRamp(p, kW);
  ASSERT_GT(ref::unclampedCocRadius(20.0f, ramp), 10.0);
  ASSERT_GT(ref::unclampedCocRadius(1.5f, ramp), 10.0);
  satdof::LensTruthSettings settings;
  const satdof::LensTruth truth = satdof::renderLensTruth(rig.pass, s, rig.targets.targets(), p, settings);
  std::printf("converged: %zu renders, N vs 2N %.2f dB, %.1f s\n", truth.renders, truth.convergenceDb, truth.seconds);
  EXPECT_TRUE(truth.converged(settings)) << truth.renders << " renders: " << truth.convergenceDb << " dB";
  EXPECT_GE(truth.convergenceDb, 50.0);
  settings.firstRenders = settings.maxRenders = 2 * truth.renders;
  const satdof::LensTruth finer = satdof::renderLensTruth(rig.pass, s, rig.targets.targets(), p, settings);
  // The next doubling agrees about as closely (the sequence's error does not fall evenly
  // with N, and the means are rounded to 8 bits).
  EXPECT_GE(ref::psnr(truth.image, finer.image), 49.0);
  // Not the pinhole image: the blur is there.
  EXPECT_LT(ref::psnr(truth.image, rig.pinhole(s)), 35.0);
}

// The second layer behind a ball in front of the wall is the wall (its depth, and its
// colour as a frame without the ball draws it), not the ball's far side; behind the wall
// lies nothing (the sky's depth). With MSAA the first layer's depth is its nearest sample;
// the second layer still finds the wall.
TEST_F(LensTruthGl, SecondLayerSeesPastABallToTheWall) {
  const float wallDepth = 20.0f, ballDepth = 8.0f, ballRadius = 2.0f;
  scene::Scene withBall = wallScene(wallDepth);
  const scene::Scene wallOnly = withBall;
  withBall.meshes.push_back(scene::makeSphere(48));
  const glm::mat4 ball = glm::scale(glm::translate(glm::mat4(1.0f), {0, 0, wallDepth - ballDepth}), glm::vec3(ballRadius));
  withBall.instances.push_back({1, ball, {0.9f, 0.2f, 0.1f}, false, -1});
  Rig plain(wallOnly);
  const ref::ImageRgba8 wall = plain.pinhole(wallOnly);
  for (const int samples : {1, 4}) {
    SCOPED_TRACE("samples " + std::to_string(samples));
    Rig rig(withBall, samples);
    satdof::Profiler profiler;
    satdof::ProfileHistory history;
    EXPECT_EQ(rig.pass.secondLayer().colour, 0u) << "nothing drawn yet";
    rig.pass.run(withBall, profiler);
    rig.pass.drawSecondLayer(withBall, 0.0f, profiler);
    profiler.endFrame(history);
    profiler.drain(history);
    EXPECT_TRUE(history.median("scene layer 2").has_value()) << "its own section";
    const satdof::ScenePass::Layer second = rig.pass.secondLayer();
    ASSERT_NE(second.colour, 0u);
    const auto firstDepth = satdof::readDepthTexture(rig.targets.targets().depth, kW, kH);
    const auto secondDepth = satdof::readDepthTexture(second.depth, kW, kH);
    const auto secondColour = satdof::readTexture(second.colour, kW, kH);
    const auto first = satdof::readTexture(rig.targets.targets().sceneColour, kW, kH);
    int onBall = 0;
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) {
        const float d1 = firstDepth.at(x, y), d2 = secondDepth.at(x, y);
        if (d1 < wallDepth - 1.0f) {  // on the ball (with MSAA, its nearest sample)
          ++onBall;
          ASSERT_GT(d2, wallDepth - 0.5f) << "behind the ball at " << x << "," << y << ": " << d2;
          ASSERT_LT(d2, wallDepth + 5.0f) << "behind the ball at " << x << "," << y;
          if (samples == 1 && d1 < ballDepth - 0.5f) {  // well inside the silhouette
            ASSERT_TRUE(std::equal(secondColour.at(x, y), secondColour.at(x, y) + 3, wall.at(x, y)))
                << "the wall's colour at " << x << "," << y;
          }
        } else {
          ASSERT_EQ(d2, satdof::ScenePass::kSkyDepth) << "nothing behind the wall at " << x << "," << y;
        }
      }
    EXPECT_GT(onBall, 200) << "the ball covers part of the image";
    EXPECT_NE(first.pixels, wall.pixels) << "the first layer shows the ball";
    // From a depth beyond the wall (no surface is no nearer than that): nothing but sky.
    rig.pass.drawSecondLayer(withBall, wallDepth + 1.0f, profiler);
    for (const float d : satdof::readDepthTexture(rig.pass.secondLayer().depth, kW, kH).pixels)
      ASSERT_EQ(d, satdof::ScenePass::kSkyDepth);
    // The next frame's first layer makes the second stale: none until it is drawn again;
    // released, none either, until drawn again.
    rig.pass.run(withBall, profiler);
    EXPECT_EQ(rig.pass.secondLayer().colour, 0u);
    rig.pass.drawSecondLayer(withBall, 0.0f, profiler);
    EXPECT_NE(rig.pass.secondLayer().colour, 0u);
    rig.pass.releaseSecondLayer();
    EXPECT_EQ(rig.pass.secondLayer().colour, 0u);
    rig.pass.drawSecondLayer(withBall, 0.0f, profiler);
    EXPECT_EQ(satdof::readDepthTexture(rig.pass.secondLayer().depth, kW, kH).pixels, secondDepth.pixels);
    profiler.drain(history);
  }
}

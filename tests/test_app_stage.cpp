// tests/test_app_stage.cpp — the stage under a lone glTF model (engine/content/stage.h), end
// to end: the satdof binary headless on models the test writes (content_files.h), and one
// app in this process for the bokeh selection of its frame.
//   * a lone figure: a stage under auto (the default) and on, none under off, one line
//     saying which and why; the figure on a large slab: none under auto;
//   * the built-in scene renders the same bytes with every --stage value;
//   * --stage maybe: one line, exit code 2;
//   * the stage's frame (cpu backend, 640x360 and 1280x720): the ground behind the model is
//     blurred against --max-blur 0, the lamps make bokeh highlights (the count the run
//     prints), and every highlight of the frame lies on a lamp: the checker makes none.
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "app_run_support.h"
#include "content_files.h"

#include "app/app.h"
#include "engine/content/content.h"
#include "satdof/reference/bokeh.h"
#include "settings/cli.h"

namespace {

class AppStage : public ::testing::Test {
 protected:
  void SetUp() override {
    content_files::writeFigureGlb(figure);
    content_files::writeFigureGlb(onGround, 20.0f);
  }
  content_files::TempFolder folder{"satdof_test_app_stage"};
  const fs::path figure = folder.path / "figure.glb", onGround = folder.path / "on_ground.glb";
};

// The run's "satdof: stage: ..." lines.
std::vector<std::string> stageLines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("satdof: stage: ")) lines.push_back(line);
  return lines;
}

// "bokeh highlights: N found" of the run's summary (-1: not printed).
long highlightsFound(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("bokeh highlights: ([0-9]+) found"))) return -1;
  return std::stol(m[1]);
}

TEST_F(AppStage, ALoneModelGetsAStageUnderAutoAndOnAndNoneUnderOff) {
  const std::string base = "--headless --backend cpu --frames 1 --save none --size 160x90 --scene " + figure.string();
  const std::pair<const char*, const char*> cases[] = {
      {"", "satdof: stage: a ground and 5 lamps added (auto: the model stands alone: "},
      {" --stage auto", "satdof: stage: a ground and 5 lamps added (auto: the model stands alone: "},
      {" --stage on", "satdof: stage: a ground and 5 lamps added (on)"},
      {" --stage off", "satdof: stage: none (off)"}};
  for (const auto& [flag, said] : cases) {
    SCOPED_TRACE(flag);
    const RunResult r = run(base + flag);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> lines = stageLines(r.out);
    ASSERT_EQ(lines.size(), 1u) << r.out;
    EXPECT_TRUE(lines[0].starts_with(said)) << lines[0];
  }
  const RunResult ground = run("--headless --backend cpu --frames 1 --save none --size 160x90 --scene " + onGround.string());
  ASSERT_EQ(ground.exitCode, 0) << ground.err;
  const std::vector<std::string> lines = stageLines(ground.out);
  ASSERT_EQ(lines.size(), 1u) << ground.out;
  EXPECT_TRUE(lines[0].starts_with("satdof: stage: none (auto: the model has surroundings: ")) << lines[0];
}

TEST_F(AppStage, TheBuiltInSceneIsTheSameWithEveryStageValue) {
  Png first;
  for (const char* flag : {"", " --stage auto", " --stage on", " --stage off"}) {
    SCOPED_TRACE(flag);
    const fs::path out = freshDir("stage_builtin");
    const RunResult r = run("--headless --backend cpu --frames 1 --save last --size 320x180 --out " + out.string() + flag);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<std::string> lines = stageLines(r.out);
    ASSERT_EQ(lines.size(), 1u) << r.out;
    EXPECT_EQ(lines[0], "satdof: stage: none (a built-in scene has its own surroundings)");
    const Png png = loadPng(out / "frame_0000.png");
    expectNotBlank(png);
    if (first.rgba.empty()) first = png;
    else EXPECT_TRUE(png.rgba == first.rgba) << "the built-in scene changed with" << flag;
  }
}

TEST_F(AppStage, ABadValueIsOneLineAndExitCodeTwo) {
  const RunResult r = run("--headless --backend cpu --frames 1 --save none --stage maybe --scene " + figure.string());
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("--stage"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'maybe'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("auto, on, off"), std::string::npos) << r.err;
}

// The mean absolute difference of neighbouring pixels (right and below) over the rows
// [top, bottom) and the columns outside the middle third (the figure stands there): how
// sharp the ground is there.
double sharpness(const Png& png, double top, double bottom) {
  double sum = 0;
  std::size_t n = 0;
  const int y0 = int(top * png.height), y1 = int(bottom * png.height);
  for (int y = y0; y < y1; ++y)
    for (int x = 0; x + 1 < png.width; ++x) {
      if (x > png.width / 3 && x < 2 * png.width / 3) continue;
      const auto at = [&](int px, int py, int c) { return int(png.rgba[(std::size_t(py) * png.width + px) * 4 + c]); };
      for (int c = 0; c < 3; ++c) sum += std::abs(at(x + 1, y, c) - at(x, y, c)) + std::abs(at(x, y + 1, c) - at(x, y, c));
      ++n;
    }
  return sum / double(n);
}

TEST_F(AppStage, TheGroundBlursAwayFromFocusAndTheLampsMakeBokeh) {
  for (const char* size : {"640x360", "1280x720"}) {
    SCOPED_TRACE(size);
    const std::string base = std::string("--headless --backend cpu --frames 6 --size ") + size + " --scene " + figure.string();
    const fs::path blurredOut = freshDir("stage_blurred"), sharpOut = freshDir("stage_sharp");
    const RunResult blurred = run(base + " --save last --out " + blurredOut.string());
    ASSERT_EQ(blurred.exitCode, 0) << blurred.err;
    const RunResult sharp = run(base + " --save last --max-blur 0 --out " + sharpOut.string());
    ASSERT_EQ(sharp.exitCode, 0) << sharp.err;
    const Png b = loadPng(blurredOut / "frame_0005.png"), s = loadPng(sharpOut / "frame_0005.png");
    expectNotBlank(b);
    // The ground behind the figure, between the lamps and the figure's feet: its checker
    // is resolved at --max-blur 0 and blurred out of focus.
    const double sharpGround = sharpness(s, 0.3, 0.55), blurredGround = sharpness(b, 0.3, 0.55);
    std::printf("[ note ] %s: ground behind the figure, mean neighbour difference %.2f sharp, %.2f blurred\n", size,
                sharpGround, blurredGround);
    EXPECT_GT(sharpGround, 1.0) << "the checker shows at --max-blur 0";
    EXPECT_LT(blurredGround, 0.5 * sharpGround) << "the far ground is blurred";
    const long lamps = highlightsFound(blurred.out), none = highlightsFound(sharp.out);
    EXPECT_GT(lamps, 0) << blurred.out;
    EXPECT_EQ(none, 0) << "in focus everywhere (no blur), nothing is a highlight";
    // Without the stage, the figure alone makes none: the lamps make them.
    const RunResult off = run(base + " --stage off --save none");
    ASSERT_EQ(off.exitCode, 0) << off.err;
    EXPECT_EQ(highlightsFound(off.out), 0) << off.out;
  }
}

// The frame's bokeh highlights, selected on the CPU from the colour and depth the frame
// rendered (the reference every backend matches), lie on the lamps alone, and each lamp
// has some: the ground's checker, the figure and the sky make none.
TEST_F(AppStage, EveryHighlightLiesOnALamp) {
  for (const satdof::Extent size : {satdof::Extent{640, 360}, satdof::Extent{1280, 720}}) {
    const std::string sizeName = std::to_string(size.width) + "x" + std::to_string(size.height);
    SCOPED_TRACE(sizeName);
    std::vector<std::string> flags = {"satdof", "--headless", "--backend", "cpu", "--size", sizeName,
                                      "--scene", figure.string()};
    std::vector<char*> argv;
    for (std::string& f : flags) argv.push_back(f.data());
    const satdof::ParseOutcome parsed = satdof::parseCommandLine(int(argv.size()), argv.data());
    ASSERT_TRUE(parsed.options);
    const satdof::Options& o = *parsed.options;
    satdof::content::ContentRequest request{o.scene, o.photo, o.depth, o.depthMapping, o.stage};
    satdof::content::Content content = satdof::content::loadContent(request);
    ASSERT_TRUE(content.stage && content.stageShown);
    const satdof::content::Stage stage = *content.stage;
    satdof::App app(o, std::map<std::string, std::string>{}, std::move(content));
    for (int i = 0; i < 2; ++i) {
      app.renderer().renderFrame();
      app.renderer().endFrame();
    }
    auto [colour, depth] = app.renderer().readBackColourAndDepth();
    const satdof::Renderer::BlurSettings blur = app.renderer().frameBlur();
    const satdof::reference::BokehList list = satdof::reference::bokehHighlights(
        colour, depth, satdof::reference::cocRamp(blur.dof.params, size.width), blur.bokeh.select);
    ASSERT_GT(list.found, 0u);
    // Each lamp's centre and radius in pixels (row 0 at the bottom, as GL reads back).
    const satdof::scene::Camera& cam = app.renderer().scene().scene.camera;
    const float aspect = float(size.width) / float(size.height);
    const glm::mat4 clip = cam.projection(aspect) * cam.view();
    std::vector<glm::vec2> centres;
    std::vector<float> radii;
    for (std::size_t k = 0; k < stage.lampCentres.size(); ++k) {
      const glm::vec4 c = clip * glm::vec4(stage.lampCentres[k], 1.0f);
      centres.push_back({(c.x / c.w * 0.5f + 0.5f) * float(size.width), (c.y / c.w * 0.5f + 0.5f) * float(size.height)});
      radii.push_back(stage.lampRadii[k] * cam.pixelsPerUnitAt(cam.viewDepth(stage.lampCentres[k]), aspect, size.height));
    }
    std::vector<int> perLamp(centres.size(), 0);
    for (const satdof::reference::BokehSprite& s : list.sprites) {
      std::size_t nearest = 0;
      float distance = 1e30f;
      for (std::size_t k = 0; k < centres.size(); ++k)
        if (const float d = glm::length(glm::vec2(s.x, s.y) - centres[k]); d < distance) {
          distance = d;
          nearest = k;
        }
      ASSERT_LE(distance, radii[nearest] + 1.5f) << "a highlight at " << s.x << "," << s.y << " on no lamp";
      ++perLamp[nearest];
    }
    for (std::size_t k = 0; k < perLamp.size(); ++k)
      EXPECT_GT(perLamp[k], 0) << "lamp " << k << " at " << centres[k].x << "," << centres[k].y << " makes no highlight";
    std::printf("[ note ] %s: %u highlights on %zu lamps\n", sizeName.c_str(), list.found, centres.size());
  }
}

}  // namespace

// tests/test_bokeh_gl.cpp — the bokeh sprite list of the backends that run on a GL
// context (the gl-compute backend's compute shaders, engine/backends/gl_bokeh.h; the cpu
// backend's reference, uploaded) against the reference (satdof/reference/bokeh.h), read
// back from the frame's GL buffers the shared draw reads: every sprite's bytes, the
// draw-indirect command in the slot asked for, and the count before the cap. A tiny scene
// worked out by hand (the one of test_bokeh_cuda.cpp), random frames with few distinct
// depths (ties: the sort must be stable) and sizes off the flag texels and the scan's
// blocks, the cap, nothing selected and as much as the ring allows. The gl-compute
// backend runs with each SAT algorithm this GL offers (the list runs on its scan); one it
// cannot run is named with its reason. Outputs are poisoned first.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "bokeh_test_support.h"
#include "skip_support.h"
#include "engine/frame/frame_targets.h"
#include "gl_test_support.h"
#include "engine/passes/backend_pass.h"
#include "satdof/reference/bokeh.h"
#include "test_support.h"

namespace ref = satdof::reference;
namespace {

class BokehGl : public satdof::test::GlTest {};
using satdof::test::BokehResult;
using satdof::test::expectSameList;
using satdof::test::GlTest;
using satdof::test::linearRamp;

// A backend and its choices: the gl-compute backend with each SAT algorithm (its scan,
// which the bokeh list runs on too) this GL can run, and the cpu backend.
struct Config {
  std::string backend;
  satdof::BackendSelections selections;
  std::string label() const {
    return selections.empty() ? backend : backend + " / " + selections.begin()->second;
  }
};

std::unique_ptr<satdof::ComputeBackend> create(const Config& c, std::string& why) {
  return satdof::findComputeBackend(c.backend)->create(*GlTest::context(), c.selections, why);
}

std::vector<Config> configs() {
  std::vector<Config> list;
  for (const satdof::BackendOption& o : satdof::findComputeBackend("gl-compute")->options())
    if (o.key == "sat")
      for (const satdof::Choice& choice : o.choices) {
        const Config c{"gl-compute", {{"sat", choice.name}}};
        std::string why;
        if (create(c, why))
          list.push_back(c);
        else if (satdof::test::required("SATDOF_REQUIRE_GL"))  // a GL that must run them all
          ADD_FAILURE() << c.label() << ": " << why;
        else
          std::printf("%s: not run here: %s\n", c.label().c_str(), why.c_str());
      }
  list.push_back({"cpu", {}});
  return list;
}

// One frame of a backend on this colour and depth with a bokeh request in slot `slot`.
BokehResult runBackend(const Config& config, const ref::ImageRgba8& colour, const ref::ImageR32F& depth,
                       const ref::CocRamp& ramp, const ref::BokehSettings& settings, int slot = 2) {
  std::string why;
  std::unique_ptr<satdof::ComputeBackend> made = create(config, why);
  if (!made) {
    ADD_FAILURE() << config.label() << ": " << why;
    return {};
  }
  satdof::FrameTargets targets;
  targets.allocate({colour.width, colour.height}, satdof::SatFormat::Uint32);
  const satdof::Targets& t = targets.targets();
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t.sceneColour, 0, 0, 0, colour.width, colour.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      colour.pixels.data());
  glTextureSubImage2D(t.depth, 0, 0, 0, depth.width, depth.height, GL_RED, GL_FLOAT, depth.pixels.data());
  const std::uint8_t poison[4] = {0xA5, 0x5A, 0xA5, 0x5A};
  for (GLuint b : {t.bokehSprites, t.bokehCommands})
    glClearNamedBufferData(b, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, poison);
  satdof::BackendPass pass(std::move(made));
  pass.backend().attach(t);
  satdof::Profiler profiler;
  satdof::BokehRequest request;
  request.select = settings;
  request.ramp = ramp;
  request.slot = slot;
  pass.run(satdof::FilterSettings{}, &request, profiler);
  BokehResult list;
  glGetNamedBufferSubData(t.bokehCommands, GLintptr(slot) * satdof::kBokehCommandBytes, sizeof list.command,
                          &list.command);
  list.sprites.resize(std::min<std::size_t>(list.command.instanceCount, satdof::kMaxBokehSprites));
  glGetNamedBufferSubData(t.bokehSprites, 0, GLsizeiptr(list.sprites.size() * sizeof(ref::BokehSprite)),
                          list.sprites.data());
  pass.backend().detach();
  return list;
}

// The scene of bokeh_test_support.h, whose sprites are worked out by hand.
TEST_F(BokehGl, TinySceneGivesTheSpritesWorkedOutByHand) {
  const std::vector<Config> backends = configs();
  const satdof::test::TinyBokehScene scene;
  for (const Config& backend : backends) {
    SCOPED_TRACE(backend.label());
    scene.expectWorkedOutSprites(runBackend(backend, scene.colour, scene.depth, scene.ramp, scene.settings));
  }
}

// Random frames rich in highlights (lamps, glints, white walls, equal light:
// bokeh_test_support.h) at a few depths (long runs of equal keys, so an unstable sort
// shows), widths off the four-pixel groups and the ring radius's steps, rows of one to
// three 1024-pixel segments (the last one partial); with and without the cap; a low and
// a high floor, contrasts of 1 and 2; a floor nothing passes.
TEST_F(BokehGl, RandomFramesGiveTheReferenceList) {
  const std::vector<Config> backends = configs();
  auto rng = satdof::test::freshRng();
  struct Size {
    int width, height;
  };
  struct Select {
    std::uint32_t threshold, contrast;
  };
  for (const Size size : {Size{1, 1}, {5, 3}, {33, 7}, {257, 129}, {513, 70}, {640, 360}, {1024, 3}, {2100, 11}}) {
    const ref::ImageRgba8 colour = satdof::test::highlightFrame(size.width, size.height, rng);
    ref::ImageR32F depth(size.width, size.height);
    std::uniform_int_distribution<int> coarse(0, 7);
    for (float& d : depth.pixels) d = 2.0f + 4.0f * float(coarse(rng));
    const ref::CocRamp ramp = linearRamp(10, 8, 16, size.width);
    for (const std::uint32_t cap : {65536u, 100u, 1u}) {
      for (const Select select : {Select{150, 16}, {240, 32}, {254, 32}}) {
        const std::uint32_t threshold = select.threshold;
        ref::BokehSettings s;
        s.threshold = threshold;
        s.contrast = select.contrast;
        s.maxSprites = cap;
        const ref::BokehList want = ref::bokehHighlights(colour, depth, ramp, s);
        for (const Config& backend : backends) {
          SCOPED_TRACE(backend.label() + " " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                       " cap " + std::to_string(cap) + " threshold " + std::to_string(threshold) + " contrast " +
                       std::to_string(select.contrast) + "/16, " + std::to_string(want.found) + " found");
          expectSameList(runBackend(backend, colour, depth, ramp, s, int(cap % satdof::kBokehSlots)), want);
        }
      }
    }
  }
}

// As many highlights as the ring allows: white points on every fourth pixel of every
// fourth row of a black frame (203x101: the ring at distance 3 passes between them), far
// behind the focus, each one a highlight: 51 x 26, under the cap and over it. A white
// frame (a white surface: none) and a black one: none.
TEST_F(BokehGl, ManyOrNoneSelected) {
  const std::vector<Config> backends = configs();
  enum Frame { Points, White, Black };
  for (const Frame frame : {Points, White, Black}) {
    ref::ImageRgba8 colour(203, 101);
    std::memset(colour.pixels.data(), frame == White ? 255 : 0, colour.pixels.size());
    if (frame == Points)
      for (int y = 0; y < 101; y += 4)
        for (int x = 0; x < 203; x += 4) std::memset(colour.at(x, y), 255, 4);
    ref::ImageR32F depth(203, 101, 40.0f);
    for (int x = 0; x < 203; x += 3) depth.at(x, x % 101) = 30.0f;  // a few nearer ones: an order to sort
    const ref::CocRamp ramp = linearRamp(10, 8, 16, 203);
    for (const std::uint32_t cap : {65536u, 1000u}) {
      ref::BokehSettings s;
      s.threshold = 200;
      s.maxSprites = cap;
      const ref::BokehList want = ref::bokehHighlights(colour, depth, ramp, s);
      EXPECT_EQ(want.found, frame == Points ? 51u * 26u : 0u);
      for (const Config& backend : backends) {
        SCOPED_TRACE(backend.label() + " frame " + std::to_string(int(frame)) + " cap " + std::to_string(cap));
        expectSameList(runBackend(backend, colour, depth, ramp, s), want);
      }
    }
  }
}

}  // namespace

// tests/window_test_support.h — where the default scene's teapots land in a window test's
// image: an instance's screen box and centre pixel from the scene's own camera and
// projection, and the lamps' centres. Shared by test_app_window.cpp, test_app_input.cpp
// and test_app.cpp's bokeh tests (after
// app_run_support.h, in the same anonymous namespace).
#pragma once

#include <glm/glm.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/scene/scene.h"

namespace {

struct Box {
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  int cx() const { return (x0 + x1) / 2; }
  int cy() const { return (y0 + y1) / 2; }
};

// Where an instance of the default scene lands in a w x h image (the app's own camera
// and projection), and where its centre does.
Box screenBox(const satdof::scene::Scene& s, int instance, int w, int h, int& cx, int& cy) {
  const auto& inst = s.instances[std::size_t(instance)];
  const glm::mat4 m = s.camera.projection(float(w) / float(h)) * s.camera.view() * inst.model;
  auto toPixel = [&](glm::vec3 p, int& x, int& y) {
    const glm::vec4 c = m * glm::vec4(p, 1.0f);
    x = int((c.x / c.w * 0.5f + 0.5f) * float(w));
    y = int((0.5f - c.y / c.w * 0.5f) * float(h));
  };
  Box b;
  for (const auto& v : s.meshes[std::size_t(inst.mesh)].vertices) {
    int x = 0, y = 0;
    toPixel(v.position, x, y);
    b.x0 = std::max(0, std::min(b.x0, x));
    b.y0 = std::max(0, std::min(b.y0, y));
    b.x1 = std::min(w - 1, std::max(b.x1, x));
    b.y1 = std::min(h - 1, std::max(b.y1, y));
  }
  toPixel(satdof::scene::computeBounds(s.meshes[std::size_t(inst.mesh)]).centre(), cx, cy);
  return b;
}

// The centre pixels of the default scene's lamps (its emissive instances) in a w x h image.
[[maybe_unused]] std::vector<std::pair<int, int>> lampCentres(int w, int h) {
  const satdof::scene::Scene scene = satdof::scene::makeDefaultScene();
  std::vector<std::pair<int, int>> centres;
  for (std::size_t i = 0; i < scene.instances.size(); ++i) {
    if (!scene.instances[i].emissive) continue;
    int cx = 0, cy = 0;
    screenBox(scene, int(i), w, h, cx, cy);
    centres.emplace_back(cx, cy);
  }
  return centres;
}

}  // namespace

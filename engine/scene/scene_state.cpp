// engine/scene/scene_state.cpp — see scene_state.h.
#include "engine/scene/scene_state.h"

#include <algorithm>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>

namespace satdof::scene {
namespace {
constexpr float kTurnRadiansPerSecond = 0.6f;  // the animation's teapot speed
}  // namespace

SceneState::SceneState(Scene s) : scene(std::move(s)), startCamera(scene.camera) {
  for (const Instance& i : scene.instances) baseModels.push_back(i.model);
}

void SceneState::instancesChanged() {
  baseModels.resize(std::min(baseModels.size(), scene.instances.size()));
  for (std::size_t i = baseModels.size(); i < scene.instances.size(); ++i) baseModels.push_back(scene.instances[i].model);
}

void SceneState::animate(float seconds) {
  animationTime += seconds;
  for (std::size_t i = 0; i < scene.instances.size(); ++i) {
    Instance& inst = scene.instances[i];
    if (!inst.turns) continue;
    // Turn about the teapot's own vertical axis (through its bounding-box centre).
    const glm::vec3 centre = glm::vec3(baseModels[i] * glm::vec4(0, 0, 0, 1));
    const float angle = kTurnRadiansPerSecond * animationTime * (i % 2 ? 1.0f : -1.0f);
    inst.model = glm::translate(glm::mat4(1.0f), centre) * glm::rotate(glm::mat4(1.0f), angle, {0, 1, 0}) *
                 glm::translate(glm::mat4(1.0f), -centre) * baseModels[i];
  }
}

}  // namespace satdof::scene

// engine/scene/scene_state.h — the scene as the app runs it: the scene itself, the camera and
// instance placements it started with (for reset and the animation), the animation's clock
// and the last preset applied (P cycles them).
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "engine/scene/scene.h"

namespace satdof::scene {

struct SceneState {
  Scene scene;
  Camera startCamera;
  std::vector<glm::mat4> baseModels;  // the instances' models before the animation
  float animationTime = 0;
  int presetIndex = -1;

  SceneState() = default;
  explicit SceneState(Scene s);
  // After instances were added to or taken off the end of the scene (a stage): the models
  // kept for the animation follow, the new ones as they are.
  void instancesChanged();
  // The teapots turn about their own vertical axes, `seconds` further on.
  void animate(float seconds);
};

}  // namespace satdof::scene

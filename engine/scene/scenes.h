// The scenes a user (--scene NAME) and the DoF quality tool (satdof quality) can render,
// as a registry: the default teapots, and two scenes made for the textbook SAT blur's
// artifacts.
//   teapots       the default scene (scene.h)
//   sharp-front   a teapot in focus in front of a far, blurred checkered wall: a
//                 background pixel's box takes in the sharp teapot (the colour halo)
//   blurred-front a teapot close to the camera, blurred, in front of a sharp checkered
//                 wall: the blurred teapot should spread over the wall (the hard edge)
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "engine/scene/scene.h"

namespace satdof::scene {

struct SceneEntry {
  std::string_view name;
  std::string_view description;
  Scene (*make)();
  // The focal distances the quality tool renders it at (the first is the scene's default).
  std::vector<float> (*focalDistances)(const Scene& scene);
};

std::span<const SceneEntry> sceneEntries();  // the default first
const SceneEntry* findScene(std::string_view name);

Scene makeSharpInFrontScene();
Scene makeBlurredInFrontScene();

}  // namespace satdof::scene

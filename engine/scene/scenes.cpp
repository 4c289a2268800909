// The scene registry (see scenes.h) and the two artifact scenes.
#include "engine/scene/scenes.h"

#include <array>

#include <glm/gtc/matrix_transform.hpp>

namespace satdof::scene {
namespace {

// A checkered wall facing the camera (the floor mesh stood up), `depth` units in front of
// an eye on the +z axis looking down -z.
Instance wallAt(float z) {
  const glm::mat4 m = glm::rotate(glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, z}), glm::radians(90.0f), {1, 0, 0});
  Instance wall{FloorMesh, m, {0.85f, 0.85f, 0.85f}};
  wall.texture = 0;  // the checker (wallAndTeapot)
  return wall;
}

// A teapot whose bounding-box centre sits at `centre`, scaled by `scale`.
Instance teapotAt(const Scene& s, glm::vec3 centre, float scale, float yawDegrees, glm::vec3 albedo) {
  const Bounds b = computeBounds(s.meshes[TeapotMesh]);
  glm::mat4 m = glm::translate(glm::mat4(1.0f), centre);
  m = glm::rotate(m, glm::radians(yawDegrees), {0, 1, 0});
  m = glm::scale(m, glm::vec3(scale));
  m = glm::translate(m, -b.centre());
  Instance teapot{TeapotMesh, m, albedo};
  teapot.subject = teapot.turns = true;
  return teapot;
}

// Floor-mesh slot for the wall, the teapot, and an eye at (0, 0, eyeZ) looking down -z.
Scene wallAndTeapot(float eyeZ) {
  Scene s;
  s.meshes.resize(2);
  s.meshes[FloorMesh] = makeFloor(40.0f, 40.0f);
  s.meshes[TeapotMesh] = makeTeapot(48);
  s.textures.push_back(makeCheckerTexture());
  s.camera.target = {0.0f, 0.0f, 0.0f};
  s.camera.distance = eyeZ;
  s.camera.fovY = glm::radians(40.0f);
  s.camera.nearPlane = 0.1f;
  s.camera.farPlane = 100.0f;
  s.lightDirection = glm::normalize(glm::vec3(-0.3f, 0.6f, 1.0f));
  return s;
}

std::vector<float> teapotFocals(const Scene& s) {
  std::vector<float> focals;
  const std::vector<int> teapots = teapotsByDepth(s);
  for (int pick : {1, 0, 3})  // the default (second nearest), the nearest, a far one
    if (std::size_t(pick) < teapots.size())
      focals.push_back(s.camera.viewDepth(instanceCentre(s, s.instances[std::size_t(teapots[std::size_t(pick)])])));
  return focals;
}

std::vector<float> focusOnTeapot(const Scene& s) { return {suggestedFocalDistance(s)}; }

std::vector<float> focusOnWall(const Scene& s) {
  return {s.camera.viewDepth(glm::vec3(s.instances[0].model[3]))};
}

const std::array kScenes{
    SceneEntry{"teapots", "five teapots on a checkered floor at depths 4 to 32 (the default)", makeDefaultScene,
               teapotFocals},
    SceneEntry{"sharp-front", "a sharp teapot 3 m in front of a blurred wall 20 m behind it (colour halos)",
               makeSharpInFrontScene, focusOnTeapot},
    SceneEntry{"blurred-front", "a blurred teapot 1.6 m away in front of a sharp wall at 6 m (hard edges)",
               makeBlurredInFrontScene, focusOnWall},
};

}  // namespace

Scene makeSharpInFrontScene() {
  Scene s = wallAndTeapot(3.0f);
  s.instances.push_back(wallAt(-20.0f));
  s.instances.push_back(teapotAt(s, {0.0f, 0.0f, 0.0f}, 0.8f, -30.0f, {0.85f, 0.12f, 0.10f}));
  return s;
}

Scene makeBlurredInFrontScene() {
  Scene s = wallAndTeapot(6.0f);
  s.instances.push_back(wallAt(0.0f));
  s.instances.push_back(teapotAt(s, {0.55f, -0.15f, 4.4f}, 0.35f, 20.0f, {0.10f, 0.55f, 0.22f}));
  return s;
}

std::span<const SceneEntry> sceneEntries() { return kScenes; }

const SceneEntry* findScene(std::string_view name) {
  for (const SceneEntry& e : kScenes)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace satdof::scene

// Default demo scene (see scene.h): where the teapots stand, their colours, the camera
// pose and the light, plus small queries the app uses to pick an initial focus.
#include "engine/scene/scene.h"

#include <algorithm>

#include <glm/gtc/matrix_transform.hpp>

namespace satdof::scene {
namespace {

struct TeapotPlacement {
  float viewDepth;   // wanted view depth of the teapot's bounding-box centre
  float lateral;     // world x, negative = left of the row's axis
  float yawDegrees;  // rotation about +y (0 = spout to +x)
  glm::vec3 albedo;
};

constexpr float kTeapotScale = 1.3f;

// Model matrix standing a teapot on the floor at world x = lateral, with z chosen so
// its bounding-box centre sits at the wanted view depth.
glm::mat4 placeTeapot(const Camera& camera, const Bounds& objectBounds,
                      const TeapotPlacement& p) {
  const glm::mat4 rotateScale =
      glm::scale(glm::rotate(glm::mat4(1.0f), glm::radians(p.yawDegrees), {0, 1, 0}),
                 glm::vec3(kTeapotScale));
  const glm::vec3 centreOffset = glm::vec3(rotateScale * glm::vec4(objectBounds.centre(), 1));
  const glm::vec3 f = camera.forward();
  const glm::vec3 base = glm::vec3(p.lateral, 0.0f, 0.0f) + centreOffset - camera.position();
  // Depth is linear in the translation: solve dot(base + z * e_z, f) = depth for z.
  const float z = (p.viewDepth - glm::dot(base, f)) / f.z;
  return glm::translate(glm::mat4(1.0f), {p.lateral, 0.0f, z}) * rotateScale;
}

glm::mat4 placeOnFloor(glm::vec3 position, float uniformScale) {
  return glm::scale(glm::translate(glm::mat4(1.0f), position), glm::vec3(uniformScale));
}

}  // namespace

Scene makeDefaultScene() {
  Scene scene;
  scene.meshes.resize(4);
  scene.meshes[FloorMesh] = makeFloor(40.0f, 40.0f);  // one texture repeat per 2 units
  scene.meshes[TeapotMesh] = makeTeapot(48);
  scene.meshes[SphereMesh] = makeSphere(48);
  scene.meshes[TorusMesh] = makeTorus(1.0f, 0.3f, 48, 24);

  // Eye about 1.8 units above the floor, looking slightly down the -z axis: low enough
  // that the far teapots stay well apart on screen, high enough to see the floor.
  Camera& cam = scene.camera;
  cam.target = {0.0f, 0.65f, 0.0f};
  cam.distance = 6.0f;
  cam.yaw = 0.0f;
  cam.pitch = 0.2f;
  cam.fovY = glm::radians(40.0f);
  cam.nearPlane = 0.1f;
  cam.farPlane = 100.0f;

  // The floor reaches 50 units ahead of the target and 30 behind it.
  scene.textures.push_back(makeCheckerTexture());
  Instance floor{FloorMesh, glm::translate(glm::mat4(1.0f), {0.0f, 0.0f, -10.0f}), {0.8f, 0.8f, 0.8f}};
  floor.texture = 0;
  scene.instances.push_back(floor);

  const Bounds teapotBounds = computeBounds(scene.meshes[TeapotMesh]);
  const TeapotPlacement teapots[] = {
      {4.0f, 0.8f, -30.0f, {0.80f, 0.10f, 0.08f}},    // red, near, right
      {8.0f, -1.5f, 25.0f, {0.10f, 0.55f, 0.22f}},    // green, left
      {14.0f, 2.0f, -55.0f, {0.12f, 0.30f, 0.85f}},   // blue, right
      {22.0f, -3.0f, 40.0f, {0.90f, 0.65f, 0.10f}},   // gold, left
      {32.0f, 0.3f, -20.0f, {0.60f, 0.20f, 0.75f}},   // purple, far, centre
  };
  for (const TeapotPlacement& p : teapots) {
    Instance& teapot = scene.instances.emplace_back(Instance{TeapotMesh, placeTeapot(cam, teapotBounds, p), p.albedo});
    teapot.subject = teapot.turns = true;
  }

  // Extras off the row: they add depth cues between the teapots without hiding them.
  scene.instances.push_back(
      {SphereMesh, placeOnFloor({-3.2f, 0.45f, -0.5f}, 0.45f), {0.90f, 0.90f, 0.88f}});
  scene.instances.push_back(
      {SphereMesh, placeOnFloor({6.5f, 0.7f, -12.0f}, 0.7f), {0.95f, 0.45f, 0.15f}});
  scene.instances.push_back(
      {TorusMesh, placeOnFloor({-5.5f, 0.3f, -6.0f}, 1.0f), {0.20f, 0.65f, 0.70f}});

  // Small lamps far behind, just above the horizon: points of light that the depth of
  // field spreads into discs, and that the bokeh highlights draw as the aperture's shape.
  // Near-white tints, so each is brighter than the default highlight threshold.
  struct Lamp {
    glm::vec3 position;
    glm::vec3 colour;
  };
  const Lamp lamps[] = {{{-9.0f, 2.6f, -34.0f}, {1.00f, 0.95f, 0.80f}}, {{-4.5f, 3.1f, -40.0f}, {0.85f, 0.95f, 1.00f}},
                        {{0.5f, 2.4f, -30.0f}, {1.00f, 0.92f, 0.85f}},  {{5.0f, 3.3f, -44.0f}, {1.00f, 0.97f, 0.78f}},
                        {{10.0f, 2.8f, -36.0f}, {0.90f, 1.00f, 0.92f}}};
  for (const Lamp& lamp : lamps)
    scene.instances.push_back({SphereMesh, placeOnFloor(lamp.position, 0.16f), lamp.colour, true});

  scene.lightDirection = glm::normalize(glm::vec3(-0.4f, 1.0f, 0.5f));
  return scene;
}

Texture makeCheckerTexture() {
  constexpr int kSize = 256, kCell = 32;
  Texture t{kSize, kSize, std::vector<std::uint8_t>(kSize * kSize * 4), false};
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const bool light = ((x / kCell) + (y / kCell)) % 2 == 0;
      std::uint8_t* p = &t.rgba[std::size_t(y * kSize + x) * 4];
      p[0] = light ? 235 : 60;
      p[1] = light ? 228 : 70;
      p[2] = light ? 210 : 95;
      p[3] = 255;
    }
  return t;
}

glm::vec3 instanceCentre(const Scene& scene, const Instance& instance) {
  const Bounds b = computeBounds(scene.meshes.at(std::size_t(instance.mesh)));
  return glm::vec3(instance.model * glm::vec4(b.centre(), 1.0f));
}

std::vector<int> teapotsByDepth(const Scene& scene) {
  std::vector<int> order;
  std::vector<float> depth(scene.instances.size(), 0.0f);
  for (std::size_t i = 0; i < scene.instances.size(); ++i) {
    if (!scene.instances[i].subject) continue;
    depth[i] = scene.camera.viewDepth(instanceCentre(scene, scene.instances[i]));
    order.push_back(int(i));
  }
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return depth[std::size_t(a)] < depth[std::size_t(b)]; });
  return order;
}

float suggestedFocalDistance(const Scene& scene) {
  const std::vector<int> teapots = teapotsByDepth(scene);
  if (teapots.empty()) return scene.camera.distance;
  const int pick = teapots[std::min<std::size_t>(1, teapots.size() - 1)];
  return scene.camera.viewDepth(instanceCentre(scene, scene.instances[std::size_t(pick)]));
}

}  // namespace satdof::scene

// Scene description for the depth-of-field demo: meshes, their placed instances, the
// camera and the light, with no OpenGL in sight.
//
// The default scene follows the classic depth-of-field figure: a row of teapots of
// distinct colours standing on a checkered floor at clearly different distances from
// the camera, staggered left and right so each one is visible, so that focusing on one
// blurs the others by visibly different amounts.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "scene/camera.h"
#include "scene/mesh.h"

namespace satdof::scene {

struct Instance {
  int mesh = 0;                 // index into Scene::meshes
  glm::mat4 model{1.0f};        // object -> world
  glm::vec3 albedo{0.8f};       // linear RGB base colour
  bool emissive = false;        // a lamp: shown at its colour, unlit
};

struct Scene {
  std::vector<Mesh> meshes;
  std::vector<Instance> instances;
  Camera camera;
  // Unit vector from the surfaces towards the (directional) light, in world space.
  glm::vec3 lightDirection{0.0f, 1.0f, 0.0f};
};

// Mesh slots of makeDefaultScene(), in Scene::meshes order.
enum DefaultMesh : int { FloorMesh = 0, TeapotMesh = 1, SphereMesh = 2, TorusMesh = 3 };

// Floor, five teapots at view depths 4, 8, 14, 22 and 32 (staggered left and right),
// two spheres and a torus off to the sides, a light from above-left-front.
Scene makeDefaultScene();

// Centre of an instance's bounding box in world space.
glm::vec3 instanceCentre(const Scene& scene, const Instance& instance);

// Indices into scene.instances of the teapots, nearest first (by view depth of their
// centres).
std::vector<int> teapotsByDepth(const Scene& scene);

// A focal distance to start with: the view depth (the linear depth the scene pass
// writes) of the second-nearest teapot's centre. Falls back to the nearest teapot, and
// to the camera's orbit distance when the scene has no teapot.
float suggestedFocalDistance(const Scene& scene);

}  // namespace satdof::scene

// Scene description for the depth-of-field demo: meshes, their placed instances, the
// camera and the light, with no OpenGL in sight.
//
// The default scene follows the classic depth-of-field figure: a row of teapots of
// distinct colours standing on a checkered floor at clearly different distances from
// the camera, staggered left and right so each one is visible, so that focusing on one
// blurs the others by visibly different amounts.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "engine/scene/camera.h"
#include "engine/scene/mesh.h"

namespace satdof::scene {

// An RGBA8 image a surface samples with its uv (row 0 at v = 0, as a glTF image's first
// row), repeated beyond [0, 1] and mipmapped.
struct Texture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4
  bool srgb = false;               // sRGB-encoded colour (a glTF base colour), else linear
};

// The shading (shaders/scene.frag): ambient 0.18 * albedo, Lambert diffuse * 0.85 * diffuse,
// a Blinn-Phong highlight of colour `specular` and exponent `shininess`, plus `emission`. The
// defaults are the built-in scenes' look; glTF materials map onto the same terms
// (engine/content/gltf_scene.h).
struct Instance {
  int mesh = 0;                 // index into Scene::meshes
  glm::mat4 model{1.0f};        // object -> world
  glm::vec3 albedo{0.8f};       // linear RGB base colour
  bool emissive = false;        // a lamp: shown at its colour, unlit
  int texture = -1;             // index into Scene::textures, multiplies the albedo (-1: none)
  float diffuse = 1.0f;         // weight of the lit diffuse term (a metal's is 0)
  glm::vec3 specular{0.35f};    // highlight colour
  float shininess = 48.0f;      // highlight exponent
  bool subject = false;         // what presets orbit and the focus suggestion picks (teapots)
  bool turns = false;           // the animation turns it about its vertical axis (teapots)
  // A glTF material's extras; the defaults leave the built-in scenes as they are.
  glm::mat3 uvTransform{1.0f};  // the textures' uv: (uvTransform * (uv, 1)).xy (KHR_texture_transform)
  glm::vec3 emission{0.0f};     // linear RGB added to the shaded colour (emissive factor x strength)
  int emissiveTexture = -1;     // index into Scene::textures, multiplies the emission (-1: none)
};

struct Scene {
  std::vector<Mesh> meshes;
  std::vector<Instance> instances;
  std::vector<Texture> textures;
  Camera camera;
  // Unit vector from the surfaces towards the (directional) light, in world space.
  glm::vec3 lightDirection{0.0f, 1.0f, 0.0f};
  // Presets (presets.h) place the camera at their distances times the chosen subject's
  // bounding radius (a loaded scene of any size), instead of in scene units (the built-in
  // scenes, whose teapots are about one unit across).
  bool presetsFollowSubjectSize = false;
};

// The built-in scenes' floor and wall texture: a two-tone checker, 256 x 256, cells of 32.
Texture makeCheckerTexture();

// Mesh slots of makeDefaultScene(), in Scene::meshes order.
enum DefaultMesh : int { FloorMesh = 0, TeapotMesh = 1, SphereMesh = 2, TorusMesh = 3 };

// Floor, five teapots at view depths 4, 8, 14, 22 and 32 (staggered left and right),
// two spheres and a torus off to the sides, a light from above-left-front.
Scene makeDefaultScene();

// Centre of an instance's bounding box in world space.
glm::vec3 instanceCentre(const Scene& scene, const Instance& instance);

// Indices into scene.instances of the subjects (Instance::subject: the teapots of the
// built-in scenes), nearest first (by view depth of their centres).
std::vector<int> teapotsByDepth(const Scene& scene);

// A focal distance to start with: the view depth (the linear depth the scene pass
// writes) of the second-nearest subject's centre. Falls back to the nearest subject, and
// to the camera's orbit distance when the scene has none.
float suggestedFocalDistance(const Scene& scene);

}  // namespace satdof::scene

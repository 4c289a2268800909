// engine/content/gltf_scene.h — a glTF 2.0 file (.gltf with its buffers, or .glb) as a
// scene::Scene the scene pass draws like the built-in ones, read by Debian's libtinygltf
// (its images decoded by image_files.h, with the same size limits as a photo's).
//
// What is read: the default scene's node tree (matrix or translation/rotation/scale) and
// the triangles of every mesh primitive (triangles, strips and fans; positions, normals,
// the first uv set, of any component type, sparse or not, Draco- or meshopt-compressed;
// smooth normals are made where a primitive has none), each placed instance of a primitive
// an Instance with its material:
//   base colour factor x base colour texture (sRGB)      -> albedo, texture
//   its KHR_texture_transform (offset, rotation, scale)  -> uvTransform
//   metallic m, roughness r                              -> diffuse 1 - m, highlight colour
//       mix(0.35, base colour, m) x (1 - 0.75 r), exponent 4 + 252 (1 - r)^2
//   emissive factor x KHR_materials_emissive_strength   -> emission (added to the colour),
//       x the emissive texture (sRGB)                    -> emissiveTexture
//   KHR_materials_unlit                                  -> emissive (drawn unlit)
// (at m = 0, r about 0.57 the built-in scenes' 0.35 and 48). The extensions read, refused
// and warned about: gltf_extensions.h. Not read: skins, morph targets, animations, lights,
// alpha (drawn opaque), vertex colours, the normal, occlusion and metallic-roughness
// textures, texture samplers (textures repeat), the other uv sets, points and lines.
// What is left out that changes the picture is said in `warnings`, one line each kind: an
// image missing or not decoded (its material's base colour is used), an extension used and
// not read, skins, morph targets, animations, point and line primitives, vertex colours,
// alpha modes, a texture on another uv set.
// The camera: the file's first camera, where a node places it and it is a perspective one
// (its position and view direction become the orbit camera's, its roll is dropped; its
// vertical field of view and clip planes are kept); otherwise one that frames the bounds
// (every corner in a 16:9 view).
// Every instance is a subject: presets orbit them at distances scaled by their size.
// The file is read by gltf_files.h (what a hostile file is refused for); the node graph is
// walked within the limits below (a DAG can reach a node by exponentially many paths), and
// a node that is its own ancestor (a cycle) is refused.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/scene/scene.h"

namespace satdof::content {

// The node graph's limits: its depth, the node placements (every path to a node places it
// again) and the mesh instances (one per primitive placed). A city of a few hundred meshes
// uses a small part of them.
inline constexpr int kMaxNodeDepth = 256;
inline constexpr std::size_t kMaxNodeVisits = 1'000'000;
inline constexpr std::size_t kMaxInstances = 100'000;
// The vertex and index values read from all accessors (floats and indices, 4 bytes each and
// more in the scene's vertices): 2^27, tens of millions of triangles.
inline constexpr std::size_t kMaxValuesRead = std::size_t(1) << 27;

struct GltfScene {
  scene::Scene scene;
  std::size_t triangles = 0;
  scene::Bounds bounds;       // world space
  float focalDistance = 0;    // the view depth of the bounds' centre: the start focus
  float focalRange = 0;       // the linear camera's range for its size: half the bounds' radius
  std::string cameraNote;     // which camera is used ("the file's camera 'Cam'", "framed")
  // What the file holds that is not drawn, one line each kind, naming the file ("'x.gltf':
  // image 'a.png': no such file; the material's base colour is used"): printed by the
  // caller as "satdof: warning: LINE", the load going on.
  std::vector<std::string> warnings;
};

// Throws ContentError (content_error.h): not glTF, a missing buffer, no triangles, a limit, ...
GltfScene loadGltfScene(const std::filesystem::path& path);

}  // namespace satdof::content

// engine/content/gltf_extensions.h — the glTF extensions the loader reads, and the lines it
// gives for what a file holds that it does not draw:
//   read        KHR_texture_transform (a texture's offset, rotation, scale; its texCoord
//               override when that is the first uv set), KHR_mesh_quantization (integer
//               attributes: the accessor reader takes every component type),
//               KHR_materials_emissive_strength, KHR_materials_unlit (drawn at its colour,
//               unlit, as the built-in lamps), KHR_draco_mesh_compression and
//               EXT_meshopt_compression (gltf_compressed.h)
//   refused     a file whose extensionsRequired names any other (the glTF 2.0 specification
//               has a loader refuse what it cannot draw correctly): one ContentError line
//   warned      every other extension in extensionsUsed, and skins, morph targets,
//               animations, point and line primitives, vertex colours, alpha modes BLEND
//               and MASK: one line each kind, the scene drawn without them
// A warning names the file as a ContentError does ("'x.gltf': uses KHR_lights_punctual,
// which is not read: ..."); the caller prints each as "satdof: warning: LINE".
#pragma once

#include <tiny_gltf.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

namespace satdof::content {

bool readsExtension(std::string_view name);

// Adds `line` unless `warnings` holds it already.
void warnOnce(std::vector<std::string>& warnings, const std::string& line);

// Throws ContentError for an extension required and not read; warns for the rest above.
void checkExtensions(const tinygltf::Model& model, const std::filesystem::path& file,
                     std::vector<std::string>& warnings);

// A texture reference's uv: KHR_texture_transform's matrix (the identity without one) and
// the uv set it reads (the extension's texCoord where it has one, else the reference's).
struct TextureUv {
  glm::mat3 transform{1.0f};
  int texCoord = 0;
  bool transformed = false;  // the reference has a KHR_texture_transform
};
TextureUv textureUv(const tinygltf::TextureInfo& info);

// KHR_texture_transform's translation x rotation x scale, column-major as glm, applied as
// uv' = (m * (uv, 1)).xy: u' = cos r sx u + sin r sy v + ox, v' = -sin r sx u + cos r sy v + oy
// (r in radians; the direction Khronos's sample viewer and TextureTransformTest take).
glm::mat3 textureTransformMatrix(glm::vec2 offset, float rotation, glm::vec2 scale);

// emissiveFactor x KHR_materials_emissive_strength's emissiveStrength: linear RGB, >= 0.
glm::vec3 emissionOf(const tinygltf::Material& material);

// KHR_materials_unlit: shown at its base colour, unlit.
bool isUnlit(const tinygltf::Material& material);

}  // namespace satdof::content

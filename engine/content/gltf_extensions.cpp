// engine/content/gltf_extensions.cpp — see gltf_extensions.h. tinygltf keeps every extension
// object as a generic Value; the numbers read from them are checked finite before use.
#include "engine/content/gltf_extensions.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/content/content_error.h"

namespace satdof::content {
namespace {

constexpr std::string_view kRead[] = {"KHR_texture_transform",         "KHR_mesh_quantization",
                                      "KHR_materials_emissive_strength", "KHR_materials_unlit",
                                      "KHR_draco_mesh_compression",    "EXT_meshopt_compression"};

const tinygltf::Value* member(const tinygltf::Value& object, const char* key) {
  if (!object.IsObject() || !object.Has(key)) return nullptr;
  return &object.Get(key);
}

std::optional<double> finite(const tinygltf::Value* v) {
  if (!v || !v->IsNumber()) return std::nullopt;
  const double d = v->GetNumberAsDouble();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

// A [x, y] array of finite numbers, or `fallback`.
glm::vec2 pair(const tinygltf::Value* v, glm::vec2 fallback) {
  if (!v || !v->IsArray() || v->ArrayLen() != 2) return fallback;
  const auto x = finite(&v->Get(0)), y = finite(&v->Get(1));
  return x && y ? glm::vec2(float(*x), float(*y)) : fallback;
}

const tinygltf::Value* extension(const tinygltf::ExtensionMap& map, const char* name) {
  const auto it = map.find(name);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

bool readsExtension(std::string_view name) { return std::find(std::begin(kRead), std::end(kRead), name) != std::end(kRead); }

void warnOnce(std::vector<std::string>& warnings, const std::string& line) {
  if (std::find(warnings.begin(), warnings.end(), line) == warnings.end()) warnings.push_back(line);
}

void checkExtensions(const tinygltf::Model& model, const std::filesystem::path& file, std::vector<std::string>& warnings) {
  for (const std::string& name : model.extensionsRequired)
    if (!readsExtension(name))
      throw ContentError(file, "requires " + (name.empty() ? std::string("an unnamed extension") : name) +
                                   ", which this build does not read");
  const std::string f = quotedPath(file) + ": ";
  for (const std::string& name : model.extensionsUsed)
    if (!readsExtension(name)) warnOnce(warnings, f + "uses " + name + ", which is not read: drawn without it");
  if (!model.skins.empty()) warnOnce(warnings, f + "has skins, which are not read: skinned meshes are drawn unposed");
  if (!model.animations.empty())
    warnOnce(warnings, f + "has animations, which are not read: the scene is drawn as it stands");
  for (const tinygltf::Mesh& mesh : model.meshes)
    for (const tinygltf::Primitive& p : mesh.primitives) {
      if (!p.targets.empty())
        warnOnce(warnings, f + "has morph targets, which are not read: meshes are drawn in their base shape");
      if (p.mode >= TINYGLTF_MODE_POINTS && p.mode <= TINYGLTF_MODE_LINE_STRIP)
        warnOnce(warnings, f + "has point or line primitives, which are not drawn");
      if (p.attributes.count("COLOR_0"))
        warnOnce(warnings, f + "has vertex colours (COLOR_0), which are not read: the materials' colours are used");
    }
  for (const tinygltf::Material& m : model.materials) {
    if (m.alphaMode == "BLEND")
      warnOnce(warnings, f + "has materials of alpha mode BLEND, which is not read: they are drawn opaque");
    else if (m.alphaMode == "MASK")
      warnOnce(warnings, f + "has materials of alpha mode MASK, which is not read: they are drawn opaque, nothing cut out");
  }
}

glm::mat3 textureTransformMatrix(glm::vec2 offset, float rotation, glm::vec2 scale) {
  const float c = std::cos(rotation), s = std::sin(rotation);
  // Rows of T R S: (c sx, s sy, ox), (-s sx, c sy, oy), (0, 0, 1); glm's m[column][row].
  glm::mat3 m(1.0f);
  m[0] = {c * scale.x, -s * scale.x, 0.0f};
  m[1] = {s * scale.y, c * scale.y, 0.0f};
  m[2] = {offset.x, offset.y, 1.0f};
  return m;
}

TextureUv textureUv(const tinygltf::TextureInfo& info) {
  TextureUv out;
  out.texCoord = info.texCoord;
  const tinygltf::Value* t = extension(info.extensions, "KHR_texture_transform");
  if (!t || !t->IsObject()) return out;
  out.transformed = true;
  const float rotation = float(finite(member(*t, "rotation")).value_or(0.0));
  out.transform = textureTransformMatrix(pair(member(*t, "offset"), glm::vec2(0.0f)), rotation,
                                         pair(member(*t, "scale"), glm::vec2(1.0f)));
  if (const auto texCoord = finite(member(*t, "texCoord")))
    out.texCoord = *texCoord >= 0.0 && *texCoord < 1e6 ? int(*texCoord) : 1;  // out of range: not the first set
  return out;
}

glm::vec3 emissionOf(const tinygltf::Material& material) {
  glm::vec3 factor(0.0f);
  if (material.emissiveFactor.size() == 3)
    for (int i = 0; i < 3; ++i) {
      const double v = material.emissiveFactor[std::size_t(i)];
      factor[i] = std::isfinite(v) ? std::clamp(float(v), 0.0f, 1.0f) : 0.0f;
    }
  float strength = 1.0f;
  if (const tinygltf::Value* e = extension(material.extensions, "KHR_materials_emissive_strength"))
    if (const auto s = finite(member(*e, "emissiveStrength"))) strength = float(std::clamp(*s, 0.0, 1e6));
  return factor * strength;
}

bool isUnlit(const tinygltf::Material& material) { return extension(material.extensions, "KHR_materials_unlit") != nullptr; }

}  // namespace satdof::content

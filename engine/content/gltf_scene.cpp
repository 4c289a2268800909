// engine/content/gltf_scene.cpp — see gltf_scene.h. Debian ships tinygltf compiled
// (libtinygltf.so, with its JSON parser and stb_image inside): gltf_files.h reads the file
// into its model with the checks a hostile file needs; this file turns the model into the
// scene, reading accessors only inside their buffers and walking the node graph within limits.
#include "engine/content/gltf_scene.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <new>
#include <optional>
#include <stdexcept>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "engine/content/content_error.h"
#include "engine/content/gltf_accessors.h"
#include "engine/content/gltf_extensions.h"
#include "engine/content/gltf_files.h"

namespace satdof::content {
namespace {

// 1000000 as "1,000,000" (the limits in messages).
std::string thousands(std::size_t n) {
  std::string s = std::to_string(n);
  for (std::size_t i = s.size(); i > 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

// ---- Primitives -> meshes.
std::vector<std::uint32_t> triangleList(std::vector<std::uint32_t> indices, int mode) {
  if (mode == TINYGLTF_MODE_TRIANGLES || mode == -1) {
    indices.resize(indices.size() / 3 * 3);
    return indices;
  }
  std::vector<std::uint32_t> out;
  for (std::size_t i = 2; i < indices.size(); ++i) {
    if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
      const bool even = i % 2 == 0;
      out.insert(out.end(), {indices[even ? i - 2 : i - 1], indices[even ? i - 1 : i - 2], indices[i]});
    } else {  // fan
      out.insert(out.end(), {indices[0], indices[i - 1], indices[i]});
    }
  }
  return out;
}

// Smooth normals where the file has none: area-weighted face normals summed per vertex.
void makeNormals(scene::Mesh& mesh) {
  for (scene::Vertex& v : mesh.vertices) v.normal = glm::vec3(0.0f);
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    scene::Vertex& a = mesh.vertices[mesh.indices[t]];
    scene::Vertex& b = mesh.vertices[mesh.indices[t + 1]];
    scene::Vertex& c = mesh.vertices[mesh.indices[t + 2]];
    const glm::vec3 n = glm::cross(b.position - a.position, c.position - a.position);
    a.normal += n;
    b.normal += n;
    c.normal += n;
  }
  for (scene::Vertex& v : mesh.vertices) {
    const float l = glm::length(v.normal);
    v.normal = l > 0.0f ? v.normal / l : glm::vec3(0.0f, 1.0f, 0.0f);
  }
}

std::optional<scene::Mesh> readPrimitive(const AccessorReader& reader, const tinygltf::Primitive& p,
                                         const std::filesystem::path& file) {
  if (p.mode != -1 && p.mode != TINYGLTF_MODE_TRIANGLES && p.mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
      p.mode != TINYGLTF_MODE_TRIANGLE_FAN)
    return std::nullopt;  // points and lines: nothing to shade
  const auto position = p.attributes.find("POSITION");
  if (position == p.attributes.end()) return std::nullopt;
  const std::vector<float> xyz = reader.floats(position->second, 3);
  const std::size_t n = xyz.size() / 3;
  scene::Mesh mesh;
  mesh.vertices.resize(n);
  for (std::size_t i = 0; i < n; ++i) mesh.vertices[i].position = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
  if (auto uv = p.attributes.find("TEXCOORD_0"); uv != p.attributes.end() && reader.count(uv->second) == n) {
    const std::vector<float> st = reader.floats(uv->second, 2);
    for (std::size_t i = 0; i < n; ++i) mesh.vertices[i].uv = {st[2 * i], st[2 * i + 1]};
  }
  std::vector<std::uint32_t> indices;
  if (p.indices >= 0) {
    indices = reader.indices(p.indices);
    for (std::uint32_t i : indices)
      if (i >= n)
        throw ContentError(file, "accessor " + std::to_string(p.indices) + ": index " + std::to_string(i) +
                                     " past the primitive's " + std::to_string(n) + " vertices");
  } else {
    indices.resize(n);
    for (std::size_t i = 0; i < n; ++i) indices[i] = std::uint32_t(i);
  }
  mesh.indices = triangleList(std::move(indices), p.mode);
  if (mesh.indices.empty()) return std::nullopt;
  const auto normal = p.attributes.find("NORMAL");
  if (normal != p.attributes.end() && reader.count(normal->second) == n) {
    const std::vector<float> nrm = reader.floats(normal->second, 3);
    for (std::size_t i = 0; i < n; ++i) {
      const glm::vec3 v(nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]);
      const float l = glm::length(v);
      mesh.vertices[i].normal = l > 0.0f ? v / l : glm::vec3(0.0f, 1.0f, 0.0f);
    }
  } else {
    makeNormals(mesh);
  }
  return mesh;
}

glm::mat4 localTransform(const tinygltf::Node& node) {
  if (node.matrix.size() == 16) {
    glm::mat4 m;
    for (int i = 0; i < 16; ++i) glm::value_ptr(m)[i] = float(node.matrix[std::size_t(i)]);  // column-major, as glm
    return m;
  }
  glm::mat4 m(1.0f);
  if (node.translation.size() == 3)
    m = glm::translate(m, glm::vec3(float(node.translation[0]), float(node.translation[1]), float(node.translation[2])));
  if (node.rotation.size() == 4)
    m *= glm::mat4_cast(glm::quat(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]),
                                  float(node.rotation[2])));
  if (node.scale.size() == 3) m = glm::scale(m, glm::vec3(float(node.scale[0]), float(node.scale[1]), float(node.scale[2])));
  return m;
}

// ---- The node tree -> instances.
class Builder {
 public:
  Builder(const tinygltf::Model& model, const std::filesystem::path& file, std::vector<std::string>& warnings)
      : model_(model), file_(file), reader_(model, file), onPath_(model.nodes.size(), false), warnings_(warnings) {}

  // A node and its subtree. A node may be reached by many paths (a DAG): every path places
  // it again, so the visits and instances are counted against their limits; a node that is
  // its own ancestor is a cycle.
  void visit(int nodeIndex, const glm::mat4& parent, int depth) {
    if (nodeIndex < 0 || std::size_t(nodeIndex) >= model_.nodes.size())
      throw ContentError(file_, "node " + std::to_string(nodeIndex) + " does not exist");
    if (onPath_[std::size_t(nodeIndex)])
      throw ContentError(file_, "node " + std::to_string(nodeIndex) + " is its own ancestor: its node graph has a cycle");
    if (depth > kMaxNodeDepth)
      throw ContentError(file_, "its node tree is deeper than " + std::to_string(kMaxNodeDepth) + " levels");
    if (++visits_ > kMaxNodeVisits)
      throw ContentError(file_, "its node graph places nodes more than " + thousands(kMaxNodeVisits) +
                                    " times (nodes reached by too many paths)");
    const tinygltf::Node& node = model_.nodes[std::size_t(nodeIndex)];
    const glm::mat4 world = parent * localTransform(node);
    if (node.camera == 0 && !cameraPose) cameraPose = world;
    if (node.mesh >= 0) {
      if (std::size_t(node.mesh) >= model_.meshes.size())
        throw ContentError(file_, "node " + std::to_string(nodeIndex) + " names mesh " + std::to_string(node.mesh) +
                                      ", which does not exist");
      const tinygltf::Mesh& mesh = model_.meshes[std::size_t(node.mesh)];
      for (std::size_t p = 0; p < mesh.primitives.size(); ++p) addInstance(node.mesh, int(p), world);
    }
    onPath_[std::size_t(nodeIndex)] = true;
    for (int child : node.children) visit(child, world, depth + 1);
    onPath_[std::size_t(nodeIndex)] = false;
  }

  scene::Scene scene;
  std::size_t triangles = 0;
  std::optional<glm::mat4> cameraPose;  // where a node places camera 0

 private:
  void addInstance(int meshIndex, int primitiveIndex, const glm::mat4& world) {
    if (scene.instances.size() >= kMaxInstances)
      throw ContentError(file_, "places more than " + thousands(kMaxInstances) + " mesh instances");
    const auto key = std::make_pair(meshIndex, primitiveIndex);
    auto cached = meshes_.find(key);
    if (cached == meshes_.end()) {
      const tinygltf::Primitive& p = model_.meshes[std::size_t(meshIndex)].primitives[std::size_t(primitiveIndex)];
      std::optional<scene::Mesh> mesh = readPrimitive(reader_, p, file_);
      int slot = -1;
      if (mesh) {
        slot = int(scene.meshes.size());
        scene.meshes.push_back(std::move(*mesh));
      }
      cached = meshes_.emplace(key, slot).first;
    }
    if (cached->second < 0) return;
    scene::Instance instance;
    instance.mesh = cached->second;
    instance.model = world;
    instance.subject = true;
    applyMaterial(model_.meshes[std::size_t(meshIndex)].primitives[std::size_t(primitiveIndex)].material, instance);
    triangles += scene.meshes[std::size_t(instance.mesh)].indices.size() / 3;
    scene.instances.push_back(instance);
  }

  void applyMaterial(int materialIndex, scene::Instance& instance) {
    glm::vec3 base(1.0f);
    float metallic = 1.0f, roughness = 1.0f;  // glTF's defaults
    if (materialIndex >= 0 && std::size_t(materialIndex) < model_.materials.size()) {
      const tinygltf::Material& material = model_.materials[std::size_t(materialIndex)];
      const tinygltf::PbrMetallicRoughness& pbr = material.pbrMetallicRoughness;
      if (pbr.baseColorFactor.size() >= 3)
        base = {float(pbr.baseColorFactor[0]), float(pbr.baseColorFactor[1]), float(pbr.baseColorFactor[2])};
      metallic = std::clamp(float(pbr.metallicFactor), 0.0f, 1.0f);
      roughness = std::clamp(float(pbr.roughnessFactor), 0.0f, 1.0f);
      // The textures read the first uv set, through the base colour's transform (the
      // emissive texture's own where the base colour has none).
      const TextureUv baseUv = textureUv(pbr.baseColorTexture), emissiveUv = textureUv(material.emissiveTexture);
      instance.texture = firstUvSet(baseUv, "base colour") ? texture(pbr.baseColorTexture.index) : -1;
      instance.emission = emissionOf(material);
      if (instance.emission != glm::vec3(0.0f) && firstUvSet(emissiveUv, "emissive"))
        instance.emissiveTexture = texture(material.emissiveTexture.index);
      instance.uvTransform = instance.texture >= 0 || instance.emissiveTexture < 0 ? baseUv.transform : emissiveUv.transform;
      if (instance.texture >= 0 && instance.emissiveTexture >= 0 && baseUv.transform != emissiveUv.transform)
        warnOnce(warnings_, quotedPath(file_) + ": a material's emissive texture has a KHR_texture_transform of its own, "
                                                "which is not read: the base colour texture's is used");
      instance.emissive = isUnlit(material);  // drawn at its colour, as the built-in lamps
    } else {
      metallic = 0.0f;  // no material: the spec's default material is a dull white dielectric
    }
    instance.albedo = base;
    instance.diffuse = 1.0f - metallic;
    instance.specular = glm::mix(glm::vec3(0.35f), base, metallic) * (1.0f - 0.75f * roughness);
    instance.shininess = 4.0f + 252.0f * (1.0f - roughness) * (1.0f - roughness);
  }

  // Whether a texture reference reads the first uv set (the only one read); a warning if not.
  bool firstUvSet(const TextureUv& uv, const char* which) {
    if (uv.texCoord == 0) return true;
    warnOnce(warnings_, quotedPath(file_) + ": a material's " + which + " texture reads uv set " +
                            std::to_string(uv.texCoord) + ", which is not read: it is left out");
    return false;
  }

  // A glTF texture's image as a scene texture (each image uploaded once); -1 when none.
  int texture(int textureIndex) {
    if (textureIndex < 0 || std::size_t(textureIndex) >= model_.textures.size()) return -1;
    const int source = model_.textures[std::size_t(textureIndex)].source;
    if (source < 0 || std::size_t(source) >= model_.images.size()) return -1;
    if (auto it = textures_.find(source); it != textures_.end()) return it->second;
    const tinygltf::Image& image = model_.images[std::size_t(source)];
    if (image.width <= 0 || image.height <= 0 || image.component != 4 || image.bits != 8 ||
        image.image.size() != std::size_t(image.width) * std::size_t(image.height) * 4)
      return textures_[source] = -1;
    scene.textures.push_back({image.width, image.height, image.image, true});
    return textures_[source] = int(scene.textures.size()) - 1;
  }

  const tinygltf::Model& model_;
  std::filesystem::path file_;
  AccessorReader reader_;
  std::map<std::pair<int, int>, int> meshes_;  // (mesh, primitive) -> scene mesh (-1: nothing to draw)
  std::map<int, int> textures_;                // image -> scene texture
  std::vector<bool> onPath_;                   // the nodes from a root to the one visited
  std::size_t visits_ = 0;
  std::vector<std::string>& warnings_;
};

scene::Bounds worldBounds(const scene::Scene& s) {
  scene::Bounds b{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
  std::vector<scene::Bounds> meshBounds;
  for (const scene::Mesh& m : s.meshes) meshBounds.push_back(scene::computeBounds(m));
  for (const scene::Instance& i : s.instances) {
    const scene::Bounds& m = meshBounds[std::size_t(i.mesh)];
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec3 p(corner & 1 ? m.hi.x : m.lo.x, corner & 2 ? m.hi.y : m.lo.y, corner & 4 ? m.hi.z : m.lo.z);
      const glm::vec3 w(i.model * glm::vec4(p, 1.0f));
      b.lo = glm::min(b.lo, w);
      b.hi = glm::max(b.hi, w);
    }
  }
  return b;
}

// The orbit distance at which every corner of the bounds is in a 16:9 view, with a margin:
// by bisection between the bounding sphere's distance (all in view) and nothing.
float frameDistance(const scene::Bounds& b, scene::Camera cam) {
  const float radius = std::max(0.5f * glm::length(b.size()), 1e-3f);
  float inView = radius / std::sin(0.5f * cam.fovY) * 1.05f, outOfView = 0.0f;
  for (int step = 0; step < 40; ++step) {
    cam.distance = 0.5f * (inView + outOfView);
    cam.nearPlane = cam.distance * 1e-3f;
    cam.farPlane = cam.distance + 4.0f * radius;
    const glm::mat4 clip = cam.projection(scene::Camera::kFramedAspect) * cam.view();
    bool all = true;
    for (int corner = 0; corner < 8 && all; ++corner) {
      const glm::vec3 p(corner & 1 ? b.hi.x : b.lo.x, corner & 2 ? b.hi.y : b.lo.y, corner & 4 ? b.hi.z : b.lo.z);
      const glm::vec4 c = clip * glm::vec4(p, 1.0f);
      all = c.w > cam.nearPlane && std::abs(c.x) <= 0.92f * c.w && std::abs(c.y) <= 0.92f * c.w;
    }
    (all ? inView : outOfView) = cam.distance;
  }
  return inView;
}

// The orbit camera: framing the bounds, or at the file's camera.
std::string placeCamera(const tinygltf::Model& model, const std::optional<glm::mat4>& pose, const scene::Bounds& b,
                        scene::Camera& cam) {
  const glm::vec3 centre = b.centre();
  const float radius = std::max(0.5f * glm::length(b.size()), 1e-3f);
  cam.fovY = glm::radians(40.0f);
  cam.target = centre;
  cam.yaw = 0.5f;
  cam.pitch = 0.35f;
  cam.distance = frameDistance(b, cam);
  std::string note = "framed: no camera in the file";
  const tinygltf::Camera* fileCamera = model.cameras.empty() ? nullptr : &model.cameras[0];
  if (fileCamera && fileCamera->type != "perspective") note = "framed: the file's first camera is not a perspective one";
  else if (fileCamera && !pose) note = "framed: no node places the file's first camera";
  else if (fileCamera) {
    const glm::vec3 eye(*pose * glm::vec4(0, 0, 0, 1));
    const glm::vec3 dir = glm::vec3(*pose * glm::vec4(0, 0, -1, 0));
    const auto finite = [](glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
    if (!finite(eye) || !finite(dir) || !std::isfinite(glm::length(centre - eye))) {
      note = "framed: the node that places the file's first camera puts it at no finite place";
    } else if (glm::length(dir) > 0.0f) {
      const glm::vec3 f = glm::normalize(dir);
      const float along = glm::dot(centre - eye, f);
      cam.distance = along > 0.01f * radius ? along : radius;
      cam.target = eye + f * cam.distance;
      cam.pitch = std::clamp(std::asin(std::clamp(-f.y, -1.0f, 1.0f)), scene::Camera::kMinPitch, scene::Camera::kMaxPitch);
      cam.yaw = std::atan2(-f.x, -f.z);
      if (fileCamera->perspective.yfov > 0.0 && fileCamera->perspective.yfov < 3.1)  // radians, under 180 degrees
        cam.fovY = float(fileCamera->perspective.yfov);
      note = "the file's camera" + (fileCamera->name.empty() ? std::string() : " '" + fileCamera->name + "'");
    }
  }
  cam.minDistance = std::min(radius * 0.05f, cam.distance);
  cam.maxDistance = std::max(cam.distance * 8.0f, radius * 4.0f);
  cam.nearPlane = std::max(radius * 1e-3f, cam.minDistance * 0.02f);
  cam.farPlane = cam.maxDistance + 2.0f * radius;
  if (fileCamera && pose && fileCamera->type == "perspective" && note.starts_with("the file's camera")) {
    if (fileCamera->perspective.znear > 0.0 && std::isfinite(float(fileCamera->perspective.znear)))
      cam.nearPlane = float(fileCamera->perspective.znear);
    if (fileCamera->perspective.zfar > fileCamera->perspective.znear && std::isfinite(float(fileCamera->perspective.zfar)))
      cam.farPlane = std::max(cam.farPlane, float(fileCamera->perspective.zfar));
  }
  return note;
}

GltfScene readScene(const std::filesystem::path& path) {
  GltfScene out;
  const tinygltf::Model model = loadGltfModel(path, out.warnings);
  Builder builder(model, path, out.warnings);
  if (!model.scenes.empty()) {
    const int s = model.defaultScene >= 0 && std::size_t(model.defaultScene) < model.scenes.size() ? model.defaultScene : 0;
    for (int root : model.scenes[std::size_t(s)].nodes) builder.visit(root, glm::mat4(1.0f), 0);
  } else {  // no scene: every node no other node names as a child
    std::vector<bool> child(model.nodes.size(), false);
    for (const tinygltf::Node& n : model.nodes)
      for (int c : n.children)
        if (c >= 0 && std::size_t(c) < child.size()) child[std::size_t(c)] = true;
    for (std::size_t i = 0; i < model.nodes.size(); ++i)
      if (!child[i]) builder.visit(int(i), glm::mat4(1.0f), 0);
  }
  if (builder.triangles == 0)
    throw ContentError(path, model.meshes.empty() ? "has no mesh: nothing to draw"
                                                  : "has no triangles in its scene: nothing to draw");
  out.scene = std::move(builder.scene);
  out.triangles = builder.triangles;
  out.bounds = worldBounds(out.scene);
  if (!std::isfinite(out.bounds.lo.x + out.bounds.lo.y + out.bounds.lo.z + out.bounds.hi.x + out.bounds.hi.y + out.bounds.hi.z))
    throw ContentError(path, "has positions that are not finite numbers");
  if (!std::isfinite(glm::length(out.bounds.size())))
    throw ContentError(path, "spans more than a float can measure: its positions or node transforms are too large");
  out.cameraNote = placeCamera(model, builder.cameraPose, out.bounds, out.scene.camera);
  out.scene.lightDirection = glm::normalize(glm::vec3(-0.4f, 1.0f, 0.5f));
  out.scene.presetsFollowSubjectSize = true;
  out.focalRange = std::max(0.25f * glm::length(out.bounds.size()), 1e-3f);
  out.focalDistance = std::max(out.scene.camera.viewDepth(out.bounds.centre()), out.scene.camera.nearPlane * 2.0f);
  if (!std::isfinite(out.focalDistance) || !std::isfinite(out.focalRange))
    throw ContentError(path, "gives no finite place to focus: its positions or node transforms are too large");
  return out;
}

}  // namespace

GltfScene loadGltfScene(const std::filesystem::path& path) {
  try {
    return readScene(path);
  } catch (const std::bad_alloc&) {  // within the limits, still more than this machine holds
    throw ContentError(path, "needs more memory than there is to load");
  } catch (const std::length_error&) {
    throw ContentError(path, "needs more memory than there is to load");
  }
}

}  // namespace satdof::content

// engine/content/content.cpp — see content.h.
#include "engine/content/content.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <span>

#include "engine/content/content_error.h"
#include "engine/content/gltf_scene.h"
#include "engine/content/image_files.h"
#include "engine/text/parse.h"
#include "satdof/reference/coc.h"
#include "engine/scene/raycast.h"
#include "engine/scene/scenes.h"

namespace satdof::content {
namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string vec(const glm::vec3& v) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.3g, %.3g, %.3g)", double(v.x), double(v.y), double(v.z));
  return text;
}

std::string withThousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s.push_back(',');
    s.push_back(digits[i]);
  }
  return s;
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", 100.0 * share);
  return text;
}

// The nearest and farthest view depth of the bounds' corners from the camera: the
// distances the scene spans, in its units. A camera inside the bounds sees from its near
// plane; one that sees none of them, around the focus.
DepthSpan boundsSpan(const scene::Camera& camera, const scene::Bounds& b, float focus) {
  float nearest = std::numeric_limits<float>::infinity(), farthest = -nearest;
  for (int k = 0; k < 8; ++k) {
    const glm::vec3 corner((k & 1) ? b.hi.x : b.lo.x, (k & 2) ? b.hi.y : b.lo.y, (k & 4) ? b.hi.z : b.lo.z);
    const float d = camera.viewDepth(corner);
    nearest = std::min(nearest, d);
    farthest = std::max(farthest, d);
  }
  nearest = std::max(nearest, camera.nearPlane);
  if (!(farthest > nearest) || !std::isfinite(farthest)) {
    nearest = focus / 10.0f;
    farthest = focus * 10.0f;
  }
  return {nearest, farthest, "units"};
}

// The depth-map suffixes a photo's depth is looked for by, and a photo's extensions.
constexpr const char* kDepthSuffixes[] = {"_depth", ".depth"};
constexpr const char* kDepthExtensions[] = {".png", ".exr", ".PNG", ".EXR"};
constexpr const char* kPhotoExtensions[] = {".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG"};

std::optional<std::filesystem::path> firstExisting(const std::filesystem::path& folder, const std::string& stem,
                                                   std::span<const char* const> suffixes,
                                                   std::span<const char* const> extensions) {
  std::error_code ec;
  for (const char* s : suffixes)
    for (const char* e : extensions)
      if (const auto p = folder / (stem + s + e); std::filesystem::is_regular_file(p, ec)) return p;
  return std::nullopt;
}

// The stem of a depth map's name without its depth suffix, or nullopt when it has none.
std::optional<std::string> photoStemOfDepth(const std::filesystem::path& p) {
  const std::string stem = p.stem().string();
  for (const char* s : kDepthSuffixes) {
    const std::string suffix = s;
    if (stem.size() > suffix.size() && lowerCase(stem).ends_with(suffix)) return stem.substr(0, stem.size() - suffix.size());
  }
  return std::nullopt;
}

}  // namespace

bool isSceneFile(const std::string& scene) {
  const std::string s = lowerCase(scene);
  return s.ends_with(".gltf") || s.ends_with(".glb");
}

Content loadContent(const ContentRequest& request) {
  Content c;
  if (!request.photo.empty()) {
    c.kind = ContentKind::Photo;
    c.name = request.photo.filename().string();
    c.photo = loadPhoto(request.photo, request.depth, request.depthMapping);
    const Photo& p = *c.photo;
    c.focalDistance = p.median;
    c.focalRange = std::max({p.median - p.nearest, p.farthest - p.median, 1e-3f * p.median});
    c.depthSpan = {p.nearest, p.farthest, "m", p.holeCount, p.holeShare()};
    c.summary = {"photo " + c.name + ", " + std::to_string(p.colour.width) + "x" + std::to_string(p.colour.height),
                 "depth " + request.depth.filename().string() + " (" + p.depthDescription + ")",
                 "distances " + number(p.nearest) + ".." + number(p.farthest) + " m, median " + number(p.median) + " m"};
    c.stageNote = "none (a photo has its own surroundings)";
    if (p.holeCount > 0)
      c.summary.push_back("holes " + withThousands(p.holeCount) + " pixels (" + percent(p.holeShare()) +
                          " %): no reading, filled from the surfaces around them");
    return c;
  }
  if (isSceneFile(request.scene)) {
    GltfScene g = loadGltfScene(request.scene);
    c.kind = ContentKind::Gltf;
    c.name = std::filesystem::path(request.scene).filename().string();
    const auto centre = scene::viewDepthAtCentre(g.scene);
    c.focalDistance = centre ? *centre : g.focalDistance;
    c.focalRange = std::max(glm::length(g.bounds.size()), 1e-3f * c.focalDistance);
    c.depthSpan = boundsSpan(g.scene.camera, g.bounds, c.focalDistance);
    c.summary = {"glTF " + c.name, withThousands(g.triangles) + " triangles, " + std::to_string(g.scene.instances.size()) +
                                       " instances of " + std::to_string(g.scene.meshes.size()) + " meshes",
                 "bounds " + vec(g.bounds.lo) + " .. " + vec(g.bounds.hi), "camera: " + g.cameraNote};
    c.warnings = std::move(g.warnings);
    Stage stage = planStage(g.scene, g.bounds, c.depthSpan);
    c.stageShown = stageWanted(request.stage, stage.rule);
    c.stageNote = stageNote(request.stage, stage, c.stageShown);
    if (c.stageShown) {
      addStage(g.scene, stage);
      c.depthSpan = stage.stagedSpan;
    }
    c.stage = std::move(stage);
    c.scene = std::move(g.scene);
    return c;
  }
  const scene::SceneEntry* entry = scene::findScene(request.scene);
  if (!entry) throw ContentError(request.scene, "is neither a built-in scene nor a .gltf / .glb file");
  c.kind = ContentKind::BuiltIn;
  c.name = std::string(entry->name);
  c.scene = entry->make();
  c.focalDistance = entry->focalDistances(*c.scene).front();
  c.focalRange = reference::DofParams{}.focalRange;
  std::size_t triangles = 0;
  for (const scene::Instance& i : c.scene->instances) triangles += c.scene->meshes[std::size_t(i.mesh)].indices.size() / 3;
  c.stageNote = "none (a built-in scene has its own surroundings)";
  c.summary = {"built-in scene " + c.name + ", " + withThousands(triangles) + " triangles"};
  return c;
}

ContentRequest dropRequest(const std::vector<std::filesystem::path>& files, const DepthMapping& mapping) {
  ContentRequest r;
  r.depthMapping = mapping;
  if (files.empty()) throw ContentError("", "nothing was dropped");
  if (files.size() == 1 && isSceneFile(files[0].string())) {
    r.scene = files[0].string();
    return r;
  }
  if (files.size() > 2) throw ContentError(files[0], "dropped with " + std::to_string(files.size() - 1) +
                                                         " other files: drop one scene, or a photo (and its depth map)");
  for (const auto& f : files) {
    checkReadableFile(f);
    if (isSceneFile(f.string())) throw ContentError(f, "a glTF scene is dropped alone");
    if (!looksLikeImage(f)) throw ContentError(f, "is neither a glTF scene (.gltf, .glb) nor an image (PNG, JPEG, EXR)");
  }
  if (files.size() == 2) {  // the one with a depth suffix is the depth map
    const bool firstIsDepth = photoStemOfDepth(files[0]).has_value();
    r.photo = files[firstIsDepth ? 1 : 0];
    r.depth = files[firstIsDepth ? 0 : 1];
    return r;
  }
  const std::filesystem::path& f = files[0];
  if (const auto stem = photoStemOfDepth(f)) {  // a depth map: its photo beside it
    constexpr const char* kNoSuffix[] = {""};
    const auto photo = firstExisting(f.parent_path(), *stem, kNoSuffix, kPhotoExtensions);
    if (!photo) throw ContentError(f, "is a depth map with no photo beside it (" + *stem + ".png or " + *stem + ".jpg)");
    r.photo = *photo;
    r.depth = f;
    return r;
  }
  const std::string stem = f.stem().string();
  const auto depth = firstExisting(f.parent_path(), stem, kDepthSuffixes, kDepthExtensions);
  if (!depth) throw ContentError(f, "has no depth map beside it (" + stem + "_depth.png or " + stem + ".depth.png)");
  r.photo = f;
  r.depth = *depth;
  return r;
}

}  // namespace satdof::content

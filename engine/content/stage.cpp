// engine/content/stage.cpp — see stage.h.
#include "engine/content/stage.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/scene/raycast.h"

namespace satdof::content {
namespace {

// A ray may test this many triangles before it counts as a miss: 256 rays stay around a
// second on a model of millions of triangles.
constexpr std::size_t kRuleTrianglesPerRay = std::size_t(1) << 20;

// Where each lamp is wanted: a point of a 16:9 image (x -1..1, y -1..1) and how far behind
// the model's centre, in bounding radii; spread left to right over the image's upper part,
// left and right of a centred model, at different depths so they blur by different amounts.
struct LampSpot {
  float x, y, radiiBehind;
  glm::vec3 colour;
};
constexpr std::array<LampSpot, kLampCount> kLampSpots = {{{-0.82f, 0.62f, 9.0f, {1.00f, 0.95f, 0.80f}},
                                                          {-0.45f, 0.74f, 16.0f, {0.85f, 0.95f, 1.00f}},
                                                          {0.06f, 0.82f, 20.0f, {1.00f, 0.92f, 0.85f}},
                                                          {0.48f, 0.70f, 12.0f, {1.00f, 0.97f, 0.78f}},
                                                          {0.84f, 0.58f, 14.0f, {0.90f, 1.00f, 0.92f}}}};
constexpr float kGroundAlbedo = 0.45f;
// Where a lamp's spot lies under the ground or behind the model, it moves up the image in
// these steps, to this height at most; then, from its first height again, out towards the
// image's side nearer to it (the centre's lamp: to the right), by these shifts in turn;
// where none is free it is left out.
constexpr float kLampStepY = 0.04f, kLampTopY = 0.94f;
constexpr float kLampShiftsX[] = {0.0f, 0.15f, -0.15f, 0.3f, -0.3f, 0.45f};

float boundingRadius(const scene::Bounds& b) { return std::max(0.5f * glm::length(b.size()), 1e-3f); }

}  // namespace

std::string_view toString(StageMode mode) {
  switch (mode) {
    case StageMode::Auto: return "auto";
    case StageMode::On: return "on";
    case StageMode::Off: return "off";
  }
  return "auto";
}

std::optional<StageMode> stageModeFromName(std::string_view name) {
  for (StageMode m : {StageMode::Auto, StageMode::On, StageMode::Off})
    if (toString(m) == name) return m;
  return std::nullopt;
}

StageRule applyStageRule(const scene::Scene& scene, const scene::Bounds& bounds) {
  StageRule rule;
  const scene::Camera& cam = scene.camera;
  std::vector<scene::Ray> view, ground;
  for (int row = 0; row < kViewRayRows; ++row)
    for (int column = 0; column < kViewRayColumns; ++column) {
      const float x = -1.0f + 2.0f * (float(column) + 0.5f) / float(kViewRayColumns);
      const float y = -1.0f + 0.25f * (float(row) + 0.5f) / float(kViewRayRows);  // the bottom eighth
      view.push_back({cam.position(), scene::viewRay(cam, x, y, scene::Camera::kFramedAspect)});
    }
  // Straight down from a tenth of the bounds' height above their floor, one ray per cell of
  // a grid over their footprint: each meets what lies in that lowest tenth, a ground's top.
  const float top = bounds.lo.y + 0.1f * bounds.size().y;
  for (int row = 0; row < kFootprintRows; ++row)
    for (int column = 0; column < kFootprintColumns; ++column)
      ground.push_back({{bounds.lo.x + bounds.size().x * (float(column) + 0.5f) / float(kFootprintColumns), top,
                         bounds.lo.z + bounds.size().z * (float(row) + 0.5f) / float(kFootprintRows)},
                        {0.0f, -1.0f, 0.0f}});
  // t along a view ray is the view depth: hits nearer than the near plane are not drawn.
  rule.viewRays = int(view.size());
  rule.viewHits = int(scene::countHits(scene, view, cam.nearPlane, kRuleTrianglesPerRay));
  rule.groundRays = int(ground.size());
  rule.groundHits = int(scene::countHits(scene, ground, 0.0f, kRuleTrianglesPerRay));
  return rule;
}

Stage planStage(const scene::Scene& bare, const scene::Bounds& bounds, const DepthSpan& bareSpan) {
  Stage s;
  s.rule = applyStageRule(bare, bounds);
  s.bareSpan = s.stagedSpan = bareSpan;
  const scene::Camera& cam = bare.camera;
  s.bareFarPlane = cam.farPlane;
  const float r = boundingRadius(bounds);
  const glm::vec3 centre = bounds.centre();
  // Just under the bounds: a model's flat underside never fights the ground for depth.
  s.groundY = bounds.lo.y - 1e-3f * r;

  scene::Scene& p = s.parts;
  const float half = kGroundRadii * r;
  const float cellsPerRepeat = 8.0f;  // makeCheckerTexture: 256 texels, cells of 32
  p.meshes.push_back(scene::makeFloor(half, 2.0f * half / (cellsPerRepeat * kCellRadii * r)));
  p.meshes.push_back(scene::makeSphere(16));
  p.textures.push_back(scene::makeCheckerTexture());
  // Darker than the built-in floor (albedo 0.8): a lamp must outshine what lies around it
  // twice over in linear light to make a bokeh sprite (satdof/reference/bokeh.h), and its
  // lamps lie on the far ground, not on a sky. Lit from above, its light cells stay near
  // 0.37 of white in linear light (about 160 of 255 encoded), far under the threshold.
  scene::Instance ground{0, glm::translate(glm::mat4(1.0f), {centre.x, s.groundY, centre.z}), glm::vec3(kGroundAlbedo)};
  ground.texture = 0;
  ground.specular = glm::vec3(0.2f);
  p.instances.push_back(ground);

  const glm::vec3 eye = cam.position();
  const scene::RayCaster model(bare);  // prepared once for every lamp position tried
  const float centreDepth = cam.viewDepth(centre);
  float farthestLamp = 0;
  for (const LampSpot& spot : kLampSpots) {
    const float depth = centreDepth + spot.radiiBehind * r;
    bool placed = false;
    for (const float dx : kLampShiftsX) {
      const float x = std::clamp(spot.x + (spot.x < 0.0f ? -dx : dx), -0.92f, 0.92f);
      for (float y = spot.y; y <= kLampTopY && !placed; y += kLampStepY) {
        const glm::vec3 dir = scene::viewRay(cam, x, y, scene::Camera::kFramedAspect);
        const glm::vec3 at = eye + depth * dir;
        const float radius = kLampAngle * depth * glm::length(dir);
        if (!(at.y - s.groundY > std::max(0.25f * r, 3.0f * radius))) continue;  // under or on the ground
        if (const auto hit = model.firstHit(eye, dir); hit && *hit < depth) continue;  // behind the model
        p.instances.push_back({1, glm::scale(glm::translate(glm::mat4(1.0f), at), glm::vec3(radius)), spot.colour, true});
        s.lampCentres.push_back(at);
        s.lampRadii.push_back(radius);
        farthestLamp = std::max(farthestLamp, depth + radius);
        placed = true;
      }
      if (placed) break;
    }
  }
  // The far plane reaches the ground's farthest corner from the camera at its largest
  // orbit distance (zoomed out), whichever way it turns.
  const float cornerFromTarget = glm::length(glm::vec3(half, 0.0f, half)) + glm::length(cam.target - glm::vec3(centre.x, s.groundY, centre.z));
  s.farPlane = std::max(cam.farPlane, 1.05f * (cornerFromTarget + std::max(cam.maxDistance, cam.distance)));
  if (s.stagedSpan.known()) s.stagedSpan.farthest = std::max(s.stagedSpan.farthest, farthestLamp);
  return s;
}

bool stageWanted(StageMode mode, const StageRule& rule) {
  return mode == StageMode::On || (mode == StageMode::Auto && rule.lone());
}

void addStage(scene::Scene& scene, const Stage& stage) {
  const int meshBase = int(scene.meshes.size()), textureBase = int(scene.textures.size());
  scene.meshes.insert(scene.meshes.end(), stage.parts.meshes.begin(), stage.parts.meshes.end());
  scene.textures.insert(scene.textures.end(), stage.parts.textures.begin(), stage.parts.textures.end());
  for (scene::Instance i : stage.parts.instances) {
    i.mesh += meshBase;
    if (i.texture >= 0) i.texture += textureBase;
    scene.instances.push_back(i);  // not a subject: presets keep orbiting the model
  }
  scene.camera.farPlane = std::max(scene.camera.farPlane, stage.farPlane);
}

void removeStage(scene::Scene& scene, const Stage& stage) {
  const auto cut = [](auto& list, std::size_t n) { list.resize(list.size() - std::min(n, list.size())); };
  cut(scene.instances, stage.parts.instances.size());
  cut(scene.meshes, stage.parts.meshes.size());
  cut(scene.textures, stage.parts.textures.size());
  scene.camera.farPlane = stage.bareFarPlane;
}

std::string stageNote(StageMode mode, const Stage& stage, bool shown) {
  const StageRule& r = stage.rule;
  const std::string counts = std::to_string(r.viewHits) + " of " + std::to_string(r.viewRays) +
                             " rays through the image's bottom eighth and " + std::to_string(r.groundHits) + " of " +
                             std::to_string(r.groundRays) + " down through the bounds' lowest tenth meet a surface";
  const std::string why = mode == StageMode::Auto
                              ? (r.lone() ? "auto: the model stands alone: " : "auto: the model has surroundings: ") + counts
                              : std::string(toString(mode));
  if (!shown) return "none (" + why + ")";
  const std::size_t lamps = stage.lampCentres.size();
  return "a ground and " + std::to_string(lamps) + (lamps == 1 ? " lamp" : " lamps") + " added (" + why + ")";
}

}  // namespace satdof::content

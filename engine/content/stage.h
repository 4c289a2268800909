// engine/content/stage.h — a stage for a glTF model that stands alone: a helmet or a
// character on an empty sky has nothing behind it to blur, so no depth of field shows.
// The stage is scene geometry (every backend sees the same frame):
//   ground  a square kGroundRadii bounding radii on each side of the model's centre, just
//           under its bounds, with the built-in scenes' checker at cells of kCellRadii
//           radii: a pattern whose blur shows how far it lies from the focus;
//   lamps   up to kLampCount small unlit near-white spheres, 8 to 20 radii behind the model's
//           centre (in view depth from the content's camera), above the ground, in sight
//           (not hidden by the model) at points spread over the upper part of a 16:9 image,
//           each kLampAngle of the view across: points of light the blur spreads into discs
//           and the bokeh highlights draw as sprites.
// Deciding "alone" (--stage auto), from the content itself with 256 rays of the CPU ray cast
// (engine/scene/raycast.h), before the stage is added:
//   view    kViewRayColumns x kViewRayRows rays from the content's camera through the
//           bottom eighth of a 16:9 image: a model standing on ground, or in a room, seen
//           from its own camera meets something with nearly all of them;
//   ground  kFootprintColumns x kFootprintRows rays straight down over the bounds'
//           footprint (x by z) from a tenth of their height: a ground or floor the content
//           brings meets nearly all of them, even framed from afar (where it is thin
//           in the image and the view rays pass under it); a model's feet, wheels or
//           plinth meet fewer;
// alone when fewer than a quarter of the view rays and fewer than seven eighths of the
// ground rays meet a surface. A floor turned against the axes covers less of its footprint
// and may pass for alone: --stage off is the user's word on it.
// Built-in scenes and photos have their own surroundings and never get one (content.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "engine/content/depth_span.h"
#include "engine/scene/scene.h"

namespace satdof::content {

// --stage: auto (where the rule below says the model is alone), on, off.
enum class StageMode { Auto, On, Off };
std::string_view toString(StageMode mode);
std::optional<StageMode> stageModeFromName(std::string_view name);
inline constexpr const char* kStageModeNames[] = {"auto", "on", "off"};

inline constexpr int kViewRayColumns = 32, kViewRayRows = 4;
inline constexpr int kFootprintColumns = 16, kFootprintRows = 8;
inline constexpr float kGroundRadii = 60.0f;  // the ground's half side, in bounding radii
inline constexpr float kCellRadii = 0.35f;    // a checker cell's side, in bounding radii
inline constexpr int kLampCount = 5;
inline constexpr float kLampAngle = 0.004f;   // a lamp's radius over its distance: ~4 px at 720 rows

// The rule's rays: how many of how many meet a surface, of each kind.
struct StageRule {
  int viewHits = 0, viewRays = 0;
  int groundHits = 0, groundRays = 0;
  bool lone() const { return 4 * viewHits < viewRays && 8 * groundHits < 7 * groundRays; }
};
// The rule on `scene` as seen from its camera, `bounds` its world bounds.
StageRule applyStageRule(const scene::Scene& scene, const scene::Bounds& bounds);

struct Stage {
  StageRule rule;          // the rule's counts on the content as loaded
  scene::Scene parts;      // the ground and lamp meshes, their instances, the checker
                           // (indices into parts' own lists; addStage offsets them)
  std::vector<glm::vec3> lampCentres;  // world space, where each lamp was placed
  std::vector<float> lampRadii;
  float groundY = 0;       // the ground's height
  float farPlane = 0;      // the far plane that draws all of it from any orbit distance
  float bareFarPlane = 0;  // the content's own
  DepthSpan bareSpan, stagedSpan;  // the content's distances without and with the stage
};

// The stage for `bare` (a glTF scene as loaded, its camera the one it opens with), whose
// world bounds are `bounds` and distances `bareSpan`; always made, whether or not shown.
Stage planStage(const scene::Scene& bare, const scene::Bounds& bounds, const DepthSpan& bareSpan);
bool stageWanted(StageMode mode, const StageRule& rule);
// Appends the stage's parts to `scene` (after everything else) and widens its camera's far
// plane; removeStage takes them off the end again and restores the far plane.
void addStage(scene::Scene& scene, const Stage& stage);
void removeStage(scene::Scene& scene, const Stage& stage);
// The line that says whether the stage is shown and why ("added: a ground and 5 lamps (auto:
// ...)"), without the "stage: " before it.
std::string stageNote(StageMode mode, const Stage& stage, bool shown);

}  // namespace satdof::content

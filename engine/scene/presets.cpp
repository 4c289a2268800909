// Scene presets (see presets.h). Poses were picked by eye on the default scene.
#include "engine/scene/presets.h"

#include <algorithm>
#include <array>

namespace satdof::scene {
namespace {

constexpr std::array<Preset, 3> kPresets = {{
    {"portrait", "The near red teapot sharp, everything behind it strongly blurred", 0, 3.5f, 0.25f, 0.15f,
     4.0f, 20.0f},
    {"landscape", "Focus far away with a gentle blur: the whole row reads, the front softens", 3, 20.0f, 0.0f,
     0.12f, 24.0f, 6.0f},
    {"macro", "Close to the green teapot, a very thin plane of focus", 1, 3.0f, -0.4f, 0.3f, 0.8f, 24.0f},
}};

}  // namespace

std::span<const Preset> presets() { return kPresets; }

const Preset* findPreset(std::string_view name) {
  for (const Preset& p : kPresets)
    if (p.name == name) return &p;
  return nullptr;
}

PresetPose applyPreset(const Preset& preset, Scene& scene) {
  Camera& c = scene.camera;
  const std::vector<int> teapots = teapotsByDepth(scene);
  float scale = 1;
  if (!teapots.empty()) {
    const Instance& pick = scene.instances[std::size_t(teapots[std::size_t(std::clamp(preset.teapot, 0, int(teapots.size()) - 1))])];
    c.target = instanceCentre(scene, pick);
    if (scene.presetsFollowSubjectSize) {
      const Bounds b = computeBounds(scene.meshes.at(std::size_t(pick.mesh)));
      const glm::vec3 lo(pick.model * glm::vec4(b.lo, 1.0f)), hi(pick.model * glm::vec4(b.hi, 1.0f));
      scale = std::max(0.5f * glm::length(hi - lo), 1e-4f);
    }
  }
  c.distance = std::clamp(preset.distance * scale, c.minDistance, c.maxDistance);
  c.yaw = preset.yaw;
  c.pitch = preset.pitch;
  return {c.viewDepth(c.target), scale};
}

}  // namespace satdof::scene

// Scene presets: a camera pose and focus settings that make a classic picture of the
// default scene (portrait: the near teapot sharp, the rest melting away; landscape:
// everything far sharp, a little blur up close; macro: close to one teapot, a thin plane
// of focus). The app cycles them with P, the panel lists them, a script sets them.
#pragma once

#include <span>
#include <string_view>

#include "engine/scene/scene.h"

namespace satdof::scene {

struct Preset {
  std::string_view name;
  std::string_view description;  // one line
  int teapot;                    // the camera orbits this teapot's centre (0: nearest)
  float distance, yaw, pitch;    // the orbit camera around it
  float focalRange, maxBlur;     // the focus goes to the surface at the image centre
};

std::span<const Preset> presets();
const Preset* findPreset(std::string_view name);

// Sets the camera of `scene`. The pose's distances (and the preset's focal range) are in
// scene units times `scale`: 1 for the built-in scenes, the subject's bounding radius for
// a loaded scene (Scene::presetsFollowSubjectSize).
struct PresetPose {
  float targetDepth = 0;  // view depth of the orbit target (the subject's centre; the app
                          // focuses on the surface in front of it)
  float scale = 1;
};
PresetPose applyPreset(const Preset& preset, Scene& scene);

}  // namespace satdof::scene

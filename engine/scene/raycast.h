// engine/scene/raycast.h — the first surface along a ray through the scene's triangles, on
// the CPU. Content opens in focus on what the camera looks at (engine/content/content.h): the
// view depth of the surface under the image's centre is known before the first frame is
// drawn, headless or in a window, whatever the render size (the centre ray is the camera's
// forward axis at any aspect ratio).
#pragma once

#include <cstddef>
#include <optional>

#include <glm/glm.hpp>

#include "engine/scene/scene.h"

namespace satdof::scene {

// The nearest hit along origin + t * direction (t > 0) over every instance's triangles
// (both faces), as the distance t in units of |direction|; nullopt when nothing is hit.
// Instances whose world bounds the ray misses are skipped; `maxTriangles` bounds the work
// (triangles tested), after which the nearest hit so far is returned.
std::optional<float> firstHit(const Scene& scene, glm::vec3 origin, glm::vec3 direction,
                              std::size_t maxTriangles = std::size_t(64) << 20);

// The view depth of the surface the camera looks at: along the centre ray, or where that
// ray passes through a gap, along the nearest ray (to the centre) of a small pattern that
// spans a tenth of the field of view. nullopt when none hits.
std::optional<float> viewDepthAtCentre(const Scene& scene);

}  // namespace satdof::scene

// engine/scene/raycast.h — the first surface along a ray through the scene's triangles, on
// the CPU. Content opens in focus on what the camera looks at (engine/content/content.h): the
// view depth of the surface under the image's centre is known before the first frame is
// drawn, headless or in a window, whatever the render size (the centre ray is the camera's
// forward axis at any aspect ratio).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "engine/scene/scene.h"

namespace satdof::scene {

// The work one ray may do at most (triangles tested) unless told otherwise.
inline constexpr std::size_t kMaxTrianglesPerRay = std::size_t(64) << 20;

// A ray: origin + t * direction.
struct Ray {
  glm::vec3 origin, direction;
};

// The scene prepared once for many rays (each mesh's bounds, each instance's world ->
// object matrix); it keeps a reference to `scene`, which must outlive it unchanged.
class RayCaster {
 public:
  explicit RayCaster(const Scene& scene);
  // The nearest t > minT along origin + t * direction (at most `maxTriangles` tested);
  // with `anyHit`, the first found. Infinity when none.
  float cast(glm::vec3 origin, glm::vec3 direction, std::size_t maxTriangles, float minT, bool anyHit) const;
  // firstHit below, on the prepared scene.
  std::optional<float> firstHit(glm::vec3 origin, glm::vec3 direction,
                                std::size_t maxTriangles = kMaxTrianglesPerRay) const;

 private:
  const Scene& scene_;
  std::vector<Bounds> meshBounds_;
  std::vector<glm::mat4> toObject_;
};

// The nearest hit along origin + t * direction (t > 0) over every instance's triangles
// (both faces), as the distance t in units of |direction|; nullopt when nothing is hit.
// Instances whose world bounds the ray misses are skipped; `maxTriangles` bounds the work
// (triangles tested), after which the nearest hit so far is returned.
std::optional<float> firstHit(const Scene& scene, glm::vec3 origin, glm::vec3 direction,
                              std::size_t maxTriangles = kMaxTrianglesPerRay);


// How many of `rays` hit a triangle at some t > minT (in units of each direction's length):
// each ray stops at the first hit it finds, or after `maxTrianglesPerRay` triangles tested
// (then it counts as a miss). The mesh bounds and the instances' inverse matrices are
// computed once for all the rays.
std::size_t countHits(const Scene& scene, std::span<const Ray> rays, float minT,
                      std::size_t maxTrianglesPerRay = kMaxTrianglesPerRay);

// The direction from the camera's eye through the point (ndcX, ndcY) of an image of
// `aspect` (x -1 left .. 1 right, y -1 bottom .. 1 top, as Camera::projection(aspect) shows
// it), scaled so that its forward component is 1: t along it is the view depth.
glm::vec3 viewRay(const Camera& camera, float ndcX, float ndcY, float aspect);

// The view depth of the surface the camera looks at: along the centre ray, or where that
// ray passes through a gap, along the nearest ray (to the centre) of a small pattern that
// spans a tenth of the field of view. nullopt when none hits.
std::optional<float> viewDepthAtCentre(const Scene& scene);

}  // namespace satdof::scene

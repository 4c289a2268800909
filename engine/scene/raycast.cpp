// engine/scene/raycast.cpp — see raycast.h. Möller-Trumbore in each instance's object space
// (the ray carried there by the inverse model matrix, so that t is the same parameter),
// after a slab test against the mesh's bounds.
#include "engine/scene/raycast.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace satdof::scene {

namespace {

// Whether origin + t dir meets the box for some t in (0, tMax).
bool hitsBox(const Bounds& b, glm::vec3 origin, glm::vec3 dir, float tMax) {
  float t0 = 0.0f, t1 = tMax;
  for (int a = 0; a < 3; ++a) {
    if (std::abs(dir[a]) < 1e-30f) {
      if (origin[a] < b.lo[a] || origin[a] > b.hi[a]) return false;
      continue;
    }
    float near = (b.lo[a] - origin[a]) / dir[a], far = (b.hi[a] - origin[a]) / dir[a];
    if (near > far) std::swap(near, far);
    t0 = std::max(t0, near);
    t1 = std::min(t1, far);
    if (t0 > t1) return false;
  }
  return true;
}

// Möller-Trumbore, both faces: t of the hit, or a negative number.
float hitTriangle(glm::vec3 o, glm::vec3 d, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  const glm::vec3 e1 = b - a, e2 = c - a;
  const glm::vec3 p = glm::cross(d, e2);
  const float det = glm::dot(e1, p);
  if (std::abs(det) < 1e-30f) return -1.0f;
  const float inv = 1.0f / det;
  const glm::vec3 s = o - a;
  const float u = glm::dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return -1.0f;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(d, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return -1.0f;
  return glm::dot(e2, q) * inv;
}

std::optional<float> finiteOrNone(float t) { return std::isfinite(t) ? std::optional(t) : std::nullopt; }

}  // namespace

RayCaster::RayCaster(const Scene& scene) : scene_(scene) {
  meshBounds_.reserve(scene.meshes.size());
  for (const Mesh& m : scene.meshes) meshBounds_.push_back(computeBounds(m));
  toObject_.reserve(scene.instances.size());
  for (const Instance& i : scene.instances) toObject_.push_back(glm::inverse(i.model));
}

float RayCaster::cast(glm::vec3 origin, glm::vec3 direction, std::size_t maxTriangles, float minT, bool anyHit) const {
  float best = std::numeric_limits<float>::infinity();
  std::size_t tested = 0;
  for (std::size_t k = 0; k < scene_.instances.size(); ++k) {
    const Instance& instance = scene_.instances[k];
    const glm::vec3 o(toObject_[k] * glm::vec4(origin, 1.0f));
    const glm::vec3 d(toObject_[k] * glm::vec4(direction, 0.0f));  // t keeps its meaning
    if (!std::isfinite(o.x + o.y + o.z + d.x + d.y + d.z)) continue;
    if (!hitsBox(meshBounds_[std::size_t(instance.mesh)], o, d, best)) continue;
    const Mesh& mesh = scene_.meshes[std::size_t(instance.mesh)];
    for (std::size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
      if (++tested > maxTriangles) return best;
      const float t = hitTriangle(o, d, mesh.vertices[mesh.indices[i]].position,
                                  mesh.vertices[mesh.indices[i + 1]].position,
                                  mesh.vertices[mesh.indices[i + 2]].position);
      if (t > minT && t < best) {
        best = t;
        if (anyHit) return best;
      }
    }
  }
  return best;
}

std::optional<float> RayCaster::firstHit(glm::vec3 origin, glm::vec3 direction, std::size_t maxTriangles) const {
  return finiteOrNone(cast(origin, direction, maxTriangles, 0.0f, false));
}

std::optional<float> firstHit(const Scene& scene, glm::vec3 origin, glm::vec3 direction, std::size_t maxTriangles) {
  return RayCaster(scene).firstHit(origin, direction, maxTriangles);
}

std::size_t countHits(const Scene& scene, std::span<const Ray> rays, float minT, std::size_t maxTrianglesPerRay) {
  const RayCaster caster(scene);
  std::size_t hits = 0;
  for (const Ray& r : rays)
    if (std::isfinite(caster.cast(r.origin, r.direction, maxTrianglesPerRay, minT, true))) ++hits;
  return hits;
}

glm::vec3 viewRay(const Camera& camera, float ndcX, float ndcY, float aspect) {
  const glm::vec3 forward = camera.forward();
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  const float halfHeight = std::tan(0.5f * camera.fovYFor(aspect)), halfWidth = halfHeight * std::max(aspect, 1e-6f);
  return forward + ndcX * halfWidth * right + ndcY * halfHeight * up;
}

std::optional<float> viewDepthAtCentre(const Scene& scene) {
  const Camera& cam = scene.camera;
  const RayCaster caster(scene);
  const glm::vec3 eye = cam.position(), forward = cam.forward();
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  // The centre first, then rings at 1/80, 1/40 and 1/20 of the vertical field of view
  // (8 directions each): the first ring with a hit gives the nearest of its hits.
  const float halfHeight = std::tan(0.5f * cam.fovY);
  for (const float ring : {0.0f, 1.0f / 80.0f, 1.0f / 40.0f, 1.0f / 20.0f}) {
    std::optional<float> nearest;
    const int steps = ring == 0.0f ? 1 : 8;
    for (int k = 0; k < steps; ++k) {
      const float angle = 6.2831853f * float(k) / float(steps);
      const glm::vec3 dir = forward + 2.0f * halfHeight * ring * (std::cos(angle) * right + std::sin(angle) * up);
      // With the forward component 1, t along dir is the view depth itself.
      const auto t = caster.firstHit(eye, dir);
      if (t && t > cam.nearPlane && (!nearest || *t < *nearest)) nearest = t;
    }
    if (nearest) return nearest;
  }
  return std::nullopt;
}

}  // namespace satdof::scene

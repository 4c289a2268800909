// Procedural mesh generators (see mesh.h): lathe surfaces, swept tubes, and the teapot,
// floor, sphere and torus built from them.
//
// The teapot is assembled from four closed parts rather than loaded from a data file:
// a lathed body, a lathed lid with knob, a tapered tube for the spout and a constant
// tube for the handle. The spout and handle ends are buried inside the body, so the
// parts intersect but each stays a closed, consistently wound surface.
#include "engine/scene/mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace satdof::scene {
namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;
constexpr float kAxisEpsilon = 1e-6f;  // a profile point this close to the axis is a pole

glm::vec3 safeNormalize(glm::vec3 v, glm::vec3 fallback) {
  const float len = glm::length(v);
  return len > 1e-12f ? v / len : fallback;
}

// Unit normal of a profile polyline at each point, pointing to the right of the
// direction of travel (outwards, given the orientation rule in mesh.h).
std::vector<glm::vec2> profileNormals(const std::vector<glm::vec2>& pts, bool closed) {
  const std::size_t n = pts.size();
  std::vector<glm::vec2> normals(n);
  for (std::size_t i = 0; i < n; ++i) {
    glm::vec2 prev, next;
    if (closed) {
      // The last point repeats the first one; skip it when wrapping.
      const std::size_t m = n - 1;
      prev = pts[(i + m - 1) % m];
      next = pts[(i + 1) % m];
    } else {
      prev = pts[i == 0 ? 0 : i - 1];
      next = pts[i + 1 == n ? n - 1 : i + 1];
    }
    const glm::vec2 t = next - prev;
    const glm::vec2 nrm(t.y, -t.x);
    const float len = glm::length(nrm);
    normals[i] = len > 1e-12f ? nrm / len : glm::vec2(1.0f, 0.0f);
  }
  return normals;
}

glm::vec3 bezier(const TubeSpec& s, float t) {
  const float u = 1.0f - t;
  return u * u * u * s.p0 + 3.0f * u * u * t * s.p1 + 3.0f * u * t * t * s.p2 +
         t * t * t * s.p3;
}

glm::vec3 bezierTangent(const TubeSpec& s, float t) {
  const float u = 1.0f - t;
  const glm::vec3 d = 3.0f * u * u * (s.p1 - s.p0) + 6.0f * u * t * (s.p2 - s.p1) +
                      3.0f * t * t * (s.p3 - s.p2);
  return safeNormalize(d, glm::vec3(1.0f, 0.0f, 0.0f));
}

// Point on the tube wall at length parameter s in [0, 1] and angle index j.
glm::vec3 tubePoint(const TubeSpec& spec, float s, int j, int roundSegments) {
  const float a = kTwoPi * float(j % roundSegments) / float(roundSegments);
  const glm::vec3 binormal(0.0f, 0.0f, 1.0f);
  const glm::vec3 tangent = bezierTangent(spec, s);
  const glm::vec3 normal = safeNormalize(glm::cross(binormal, tangent), {0, 1, 0});
  const float r = glm::mix(spec.radiusStart, spec.radiusEnd, s);
  return bezier(spec, s) + r * (std::cos(a) * normal + std::sin(a) * binormal);
}

std::vector<ProfileSection> teapotBodyProfile(int samplesPerSpan) {
  std::vector<ProfileSection> profile;
  profile.push_back({{{0.0f, 0.0f}, {0.2f, 0.0f}, {0.40f, 0.0f}}, false});  // base
  const std::vector<glm::vec2> side = {
      {0.40f, 0.0f},   {0.50f, 0.035f}, {0.585f, 0.12f}, {0.635f, 0.26f},
      {0.635f, 0.40f}, {0.59f, 0.54f},  {0.51f, 0.655f}, {0.445f, 0.725f},
      {0.42f, 0.75f}};
  profile.push_back({sampleCatmullRom(side, samplesPerSpan), false});
  profile.push_back({{{0.42f, 0.75f}, {0.21f, 0.75f}, {0.0f, 0.75f}}, false});  // top
  return profile;
}

std::vector<ProfileSection> teapotLidProfile(int samplesPerSpan) {
  std::vector<ProfileSection> profile;
  // The lid starts just below the body's top disk so that disk stays hidden inside it.
  profile.push_back({{{0.0f, 0.745f}, {0.235f, 0.745f}, {0.47f, 0.745f}}, false});
  profile.push_back({{{0.47f, 0.745f}, {0.47f, 0.775f}}, false});  // rim
  const std::vector<glm::vec2> dome = {{0.47f, 0.775f}, {0.40f, 0.80f}, {0.28f, 0.838f},
                                       {0.15f, 0.862f}, {0.07f, 0.875f}};
  profile.push_back({sampleCatmullRom(dome, samplesPerSpan), false});
  const std::vector<glm::vec2> knob = {{0.07f, 0.875f}, {0.05f, 0.895f}, {0.06f, 0.925f},
                                       {0.09f, 0.95f},  {0.085f, 0.978f}, {0.045f, 0.996f},
                                       {0.0f, 1.0f}};
  profile.push_back({sampleCatmullRom(knob, samplesPerSpan), false});
  return profile;
}

}  // namespace

Bounds computeBounds(const Mesh& mesh) {
  Bounds b;
  if (mesh.vertices.empty()) return b;
  b.lo = b.hi = mesh.vertices.front().position;
  for (const Vertex& v : mesh.vertices) {
    b.lo = glm::min(b.lo, v.position);
    b.hi = glm::max(b.hi, v.position);
  }
  return b;
}

void appendMesh(Mesh& mesh, const Mesh& part) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  mesh.vertices.insert(mesh.vertices.end(), part.vertices.begin(), part.vertices.end());
  mesh.indices.reserve(mesh.indices.size() + part.indices.size());
  for (std::uint32_t i : part.indices) mesh.indices.push_back(base + i);
}

std::vector<glm::vec2> sampleCatmullRom(const std::vector<glm::vec2>& controls,
                                        int samplesPerSpan) {
  std::vector<glm::vec2> out;
  const std::size_t n = controls.size();
  if (n < 2) return controls;
  samplesPerSpan = std::max(samplesPerSpan, 1);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const glm::vec2 p1 = controls[i];
    const glm::vec2 p2 = controls[i + 1];
    const glm::vec2 p0 = i == 0 ? 2.0f * p1 - p2 : controls[i - 1];
    const glm::vec2 p3 = i + 2 == n ? 2.0f * p2 - p1 : controls[i + 2];
    for (int k = 0; k < samplesPerSpan; ++k) {
      const float t = float(k) / float(samplesPerSpan);
      const float t2 = t * t;
      const float t3 = t2 * t;
      out.push_back(0.5f * (2.0f * p1 + (p2 - p0) * t +
                            (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * t2 +
                            (3.0f * p1 - p0 - 3.0f * p2 + p3) * t3));
    }
  }
  out.push_back(controls.back());
  return out;
}

Mesh makeLathe(const std::vector<ProfileSection>& profile, int segments) {
  segments = std::max(segments, 3);
  Mesh mesh;
  for (const ProfileSection& section : profile) {
    std::vector<glm::vec2> pts = section.points;
    if (pts.size() < 2) continue;
    if (section.closed) pts.push_back(pts.front());
    const std::vector<glm::vec2> normals2d = profileNormals(pts, section.closed);

    // Arc length along the section, normalised to [0, 1], for the v coordinate.
    std::vector<float> arc(pts.size(), 0.0f);
    for (std::size_t i = 1; i < pts.size(); ++i)
      arc[i] = arc[i - 1] + glm::length(pts[i] - pts[i - 1]);
    const float total = std::max(arc.back(), 1e-12f);

    const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
    const auto ring = static_cast<std::uint32_t>(segments + 1);
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const float r = pts[i].x;
      const bool pole = r < kAxisEpsilon;
      for (int j = 0; j <= segments; ++j) {
        // j == segments duplicates j == 0 (same position, u = 1) for the texture seam.
        const float phi = kTwoPi * float(j % segments) / float(segments);
        const float c = std::cos(phi);
        const float s = std::sin(phi);
        Vertex v;
        v.position = pole ? glm::vec3(0.0f, pts[i].y, 0.0f) : glm::vec3(r * c, pts[i].y, r * s);
        const glm::vec2 n = normals2d[i];
        v.normal = pole ? glm::vec3(0.0f, n.y >= 0.0f ? 1.0f : -1.0f, 0.0f)
                        : glm::normalize(glm::vec3(n.x * c, n.y, n.x * s));
        v.uv = {float(j) / float(segments), arc[i] / total};
        mesh.vertices.push_back(v);
      }
    }
    for (std::uint32_t i = 0; i + 1 < pts.size(); ++i) {
      const bool poleHere = pts[i].x < kAxisEpsilon;
      const bool poleNext = pts[i + 1].x < kAxisEpsilon;
      if (poleHere && poleNext) continue;
      for (std::uint32_t j = 0; j < ring - 1; ++j) {
        const std::uint32_t a = base + i * ring + j;
        const std::uint32_t b = base + (i + 1) * ring + j;
        const std::uint32_t c = b + 1;
        const std::uint32_t d = a + 1;
        // (a, b, d) spans (d profile) x (d angle), which points outwards.
        if (poleHere) {
          mesh.indices.insert(mesh.indices.end(), {a, b, c});
        } else if (poleNext) {
          mesh.indices.insert(mesh.indices.end(), {a, b, d});
        } else {
          mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
        }
      }
    }
  }
  return mesh;
}

Mesh makeTube(const TubeSpec& spec, int lengthSegments, int roundSegments) {
  lengthSegments = std::max(lengthSegments, 1);
  roundSegments = std::max(roundSegments, 3);
  Mesh mesh;
  const auto ring = static_cast<std::uint32_t>(roundSegments + 1);
  constexpr float h = 1e-3f;  // step of the finite difference along the tube
  for (int i = 0; i <= lengthSegments; ++i) {
    const float s = float(i) / float(lengthSegments);
    const float s0 = std::max(s - h, 0.0f);
    const float s1 = std::min(s + h, 1.0f);
    for (int j = 0; j <= roundSegments; ++j) {
      const glm::vec3 p = tubePoint(spec, s, j, roundSegments);
      const glm::vec3 dS = tubePoint(spec, s1, j, roundSegments) -
                           tubePoint(spec, s0, j, roundSegments);
      // Derivative along the angle, from the neighbouring ring points.
      const glm::vec3 dA = tubePoint(spec, s, j + 1, roundSegments) -
                           tubePoint(spec, s, j + roundSegments - 1, roundSegments);
      Vertex v;
      v.position = p;
      v.normal = safeNormalize(glm::cross(dA, dS), {0, 1, 0});
      v.uv = {s, float(j) / float(roundSegments)};
      mesh.vertices.push_back(v);
    }
  }
  for (std::uint32_t i = 0; i < std::uint32_t(lengthSegments); ++i) {
    for (std::uint32_t j = 0; j < ring - 1; ++j) {
      const std::uint32_t a = i * ring + j;
      const std::uint32_t b = a + 1;         // next angle
      const std::uint32_t c = b + ring;      // next angle, next ring
      const std::uint32_t d = a + ring;      // next ring
      // (b - a) x (d - a) = (d angle) x (d length): outwards.
      mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
    }
  }
  // Flat caps: the fan (centre, j, j + 1) faces along the tangent.
  for (int end = 0; end < 2; ++end) {
    const float s = float(end);
    const glm::vec3 tangent = bezierTangent(spec, s);
    const glm::vec3 capNormal = end == 0 ? -tangent : tangent;
    const auto centre = static_cast<std::uint32_t>(mesh.vertices.size());
    mesh.vertices.push_back({bezier(spec, s), capNormal, {0.5f, 0.5f}});
    for (int j = 0; j <= roundSegments; ++j) {
      const float a = kTwoPi * float(j) / float(roundSegments);
      mesh.vertices.push_back({tubePoint(spec, s, j, roundSegments), capNormal,
                               {0.5f + 0.5f * std::cos(a), 0.5f + 0.5f * std::sin(a)}});
    }
    for (std::uint32_t j = 0; j < ring - 1; ++j) {
      const std::uint32_t p = centre + 1 + j;
      if (end == 1) {
        mesh.indices.insert(mesh.indices.end(), {centre, p, p + 1});
      } else {
        mesh.indices.insert(mesh.indices.end(), {centre, p + 1, p});
      }
    }
  }
  return mesh;
}

std::vector<Mesh> makeTeapotParts(int segments) {
  segments = std::max(segments, 8);
  const int perSpan = std::max(2, segments / 12);
  const int round = std::max(8, segments / 2);
  const int along = std::max(8, segments / 2);

  // Spout: rises from inside the lower body out to a tip level with the rim.
  TubeSpec spout;
  spout.p0 = {0.42f, 0.22f, 0.0f};
  spout.p1 = {0.78f, 0.24f, 0.0f};
  spout.p2 = {0.76f, 0.56f, 0.0f};
  spout.p3 = {0.98f, 0.72f, 0.0f};
  spout.radiusStart = 0.125f;
  spout.radiusEnd = 0.048f;

  // Handle: a loop on -x whose two ends are buried in the body.
  TubeSpec handle;
  handle.p0 = {-0.48f, 0.62f, 0.0f};
  handle.p1 = {-1.02f, 0.76f, 0.0f};
  handle.p2 = {-1.0f, 0.10f, 0.0f};
  handle.p3 = {-0.55f, 0.20f, 0.0f};
  handle.radiusStart = 0.045f;
  handle.radiusEnd = 0.045f;

  return {makeLathe(teapotBodyProfile(perSpan), segments),
          makeLathe(teapotLidProfile(perSpan), segments), makeTube(spout, along, round),
          makeTube(handle, along, round)};
}

Mesh makeTeapot(int segments) {
  Mesh teapot;
  for (const Mesh& part : makeTeapotParts(segments)) appendMesh(teapot, part);
  return teapot;
}

Mesh makeFloor(float halfSize, float uvScale) {
  Mesh mesh;
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  mesh.vertices = {
      {{-halfSize, 0.0f, -halfSize}, up, {0.0f, 0.0f}},
      {{-halfSize, 0.0f, halfSize}, up, {0.0f, uvScale}},
      {{halfSize, 0.0f, halfSize}, up, {uvScale, uvScale}},
      {{halfSize, 0.0f, -halfSize}, up, {uvScale, 0.0f}},
  };
  // Counter-clockwise seen from +y.
  mesh.indices = {0, 1, 2, 0, 2, 3};
  return mesh;
}

Mesh makeSphere(int segments) {
  segments = std::max(segments, 4);
  const int rings = std::max(segments / 2, 2);
  ProfileSection arc;
  for (int k = 0; k <= rings; ++k) {
    const float theta = std::numbers::pi_v<float> * float(k) / float(rings);
    const float r = (k == 0 || k == rings) ? 0.0f : std::sin(theta);
    arc.points.push_back({r, -std::cos(theta)});
  }
  Mesh mesh = makeLathe({arc}, segments);
  // On a sphere the exact normal is the position itself.
  for (Vertex& v : mesh.vertices) v.normal = glm::normalize(v.position);
  return mesh;
}

Mesh makeTorus(float majorRadius, float minorRadius, int majorSegments, int minorSegments) {
  minorSegments = std::max(minorSegments, 3);
  ProfileSection circle;
  circle.closed = true;
  for (int k = 0; k < minorSegments; ++k) {
    const float theta = kTwoPi * float(k) / float(minorSegments);
    circle.points.push_back(
        {majorRadius + minorRadius * std::cos(theta), minorRadius * std::sin(theta)});
  }
  return makeLathe({circle}, majorSegments);
}

}  // namespace satdof::scene

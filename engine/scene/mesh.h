// Triangle meshes for the demo scene, generated procedurally on the CPU.
//
// Every generator returns an indexed triangle list with counter-clockwise front faces
// (seen from outside) and unit-length outward vertex normals, ready to upload as one
// interleaved vertex buffer plus one index buffer. Nothing here touches OpenGL: the
// scene description stays testable without a context.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace satdof::scene {

// Interleaved vertex layout: location 0 position, 1 normal, 2 uv (tightly packed,
// 32 bytes per vertex).
struct Vertex {
  glm::vec3 position;
  glm::vec3 normal;
  glm::vec2 uv;
};

struct Mesh {
  std::vector<Vertex> vertices;
  std::vector<std::uint32_t> indices;  // three per triangle
};

// Axis-aligned bounding box in the mesh's own coordinates.
struct Bounds {
  glm::vec3 lo{0.0f};
  glm::vec3 hi{0.0f};
  glm::vec3 centre() const { return 0.5f * (lo + hi); }
  glm::vec3 size() const { return hi - lo; }
};

Bounds computeBounds(const Mesh& mesh);

// Appends `part` to `mesh`, offsetting its indices.
void appendMesh(Mesh& mesh, const Mesh& part);

// One smooth run of a lathe profile in the (radius, height) plane. Normals are smooth
// within a section and hard between sections (each section gets its own vertex rings).
// The profile must run so that the solid lies on its left: from the axis at the bottom,
// outwards, up, and back to the axis at the top. A closed section is a loop (last point
// joins the first); its points must then run counter-clockwise in the (r, y) plane.
struct ProfileSection {
  std::vector<glm::vec2> points;  // x = radius (>= 0), y = height
  bool closed = false;
};

// Surface of revolution of `profile` about the y axis with `segments` steps around.
// Triangles collapsing at points on the axis are left out.
Mesh makeLathe(const std::vector<ProfileSection>& profile, int segments);

// Samples a Catmull-Rom spline through `controls` (passing through every one), with
// `samplesPerSpan` steps between consecutive controls. The end points are exact copies.
std::vector<glm::vec2> sampleCatmullRom(const std::vector<glm::vec2>& controls,
                                        int samplesPerSpan);

// Closed tube of circular cross-section along a cubic Bezier centreline lying in the
// xy plane, with radius varying linearly from `radiusStart` to `radiusEnd`, capped with
// flat disks at both ends.
struct TubeSpec {
  glm::vec3 p0, p1, p2, p3;  // Bezier control points (z is ignored: the plane z = 0)
  float radiusStart = 0.1f;
  float radiusEnd = 0.1f;
};
Mesh makeTube(const TubeSpec& spec, int lengthSegments, int roundSegments);

// The parts of the teapot, each a closed surface: body, lid (with knob), spout, handle.
// The spout points to +x, the handle sits on -x.
std::vector<Mesh> makeTeapotParts(int segments);

// A teapot about one unit tall, base at y = 0, body centred on the y axis, spout to +x.
// `segments` is the number of steps around the body (clamped to at least 8).
Mesh makeTeapot(int segments);

// A square in the xz plane at y = 0, normal +y, spanning [-halfSize, halfSize] in x and
// z; uv runs from 0 to uvScale across it (uvScale = number of texture repeats).
Mesh makeFloor(float halfSize, float uvScale);

// Unit sphere centred at the origin (`segments` steps around, half as many pole to pole).
Mesh makeSphere(int segments);

// Torus about the y axis, centred at the origin.
Mesh makeTorus(float majorRadius, float minorRadius, int majorSegments, int minorSegments);

}  // namespace satdof::scene

// Tests of the scene description: mesh generators (index ranges, degenerate triangles,
// unit and outward normals, winding that agrees with the normals, closed surfaces),
// the orbit camera, and the default scene's depth layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>

#include <glm/glm.hpp>

#include "engine/scene/camera.h"
#include "engine/scene/mesh.h"
#include "engine/scene/scene.h"

namespace satdof::scene {
namespace {

glm::vec3 corner(const Mesh& m, std::size_t tri, int k) {
  return m.vertices[m.indices[3 * tri + std::size_t(k)]].position;
}

glm::vec3 faceCross(const Mesh& m, std::size_t tri) {
  const glm::vec3 a = corner(m, tri, 0);
  return glm::cross(corner(m, tri, 1) - a, corner(m, tri, 2) - a);
}

void expectWellFormed(const Mesh& m, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_FALSE(m.vertices.empty());
  ASSERT_FALSE(m.indices.empty());
  ASSERT_EQ(m.indices.size() % 3, 0u);
  for (std::uint32_t i : m.indices) ASSERT_LT(i, m.vertices.size());
  for (const Vertex& v : m.vertices) {
    ASSERT_NEAR(glm::length(v.normal), 1.0f, 1e-4f);
    ASSERT_TRUE(std::isfinite(v.position.x + v.position.y + v.position.z));
    ASSERT_TRUE(std::isfinite(v.uv.x + v.uv.y));
  }
  const std::size_t triangles = m.indices.size() / 3;
  std::size_t degenerate = 0;
  for (std::size_t t = 0; t < triangles; ++t)
    if (glm::length(faceCross(m, t)) < 1e-10f) ++degenerate;
  EXPECT_LE(double(degenerate), 0.001 * double(triangles)) << degenerate << " degenerate";
}

// Every non-degenerate triangle's winding normal agrees with its vertex normals.
void expectWindingMatchesNormals(const Mesh& m, const char* what) {
  SCOPED_TRACE(what);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < m.indices.size() / 3; ++t) {
    const glm::vec3 c = faceCross(m, t);
    if (glm::length(c) < 1e-10f) continue;
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 n = m.vertices[m.indices[3 * t + std::size_t(k)]].normal;
      if (glm::dot(glm::normalize(c), n) <= 0.0f) ++bad;
    }
  }
  EXPECT_EQ(bad, 0u);
}

// Closed and consistently oriented: after welding equal positions, every directed
// edge occurs exactly once and its reverse exactly once.
void expectClosed(const Mesh& m, const char* what) {
  SCOPED_TRACE(what);
  std::map<std::tuple<long, long, long>, int> ids;
  std::vector<int> weld(m.vertices.size());
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    const glm::vec3 p = m.vertices[i].position * 1e5f;
    const auto key = std::make_tuple(std::lround(p.x), std::lround(p.y), std::lround(p.z));
    weld[i] = ids.emplace(key, int(ids.size())).first->second;
  }
  std::map<std::pair<int, int>, int> directed;
  for (std::size_t t = 0; t < m.indices.size() / 3; ++t) {
    if (glm::length(faceCross(m, t)) < 1e-10f) continue;
    for (int k = 0; k < 3; ++k) {
      const int a = weld[m.indices[3 * t + std::size_t(k)]];
      const int b = weld[m.indices[3 * t + std::size_t((k + 1) % 3)]];
      ++directed[{a, b}];
    }
  }
  std::size_t problems = 0;
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    if (count != 1 || reverse == directed.end() || reverse->second != 1) ++problems;
  }
  EXPECT_EQ(problems, 0u);
}

TEST(Mesh, SphereNormalsPointOutward) {
  const Mesh m = makeSphere(32);
  expectWellFormed(m, "sphere");
  expectWindingMatchesNormals(m, "sphere");
  expectClosed(m, "sphere");
  for (const Vertex& v : m.vertices) {
    EXPECT_NEAR(glm::length(v.position), 1.0f, 1e-5f);
    EXPECT_GT(glm::dot(v.normal, v.position), 0.99f);
  }
}

TEST(Mesh, TorusIsClosedAndOutward) {
  const float major = 1.0f, minor = 0.3f;
  const Mesh m = makeTorus(major, minor, 40, 16);
  expectWellFormed(m, "torus");
  expectWindingMatchesNormals(m, "torus");
  expectClosed(m, "torus");
  for (const Vertex& v : m.vertices) {
    // Outward = away from the nearest point of the core circle.
    const glm::vec3 ring = major * glm::normalize(glm::vec3(v.position.x, 0, v.position.z));
    EXPECT_GT(glm::dot(v.normal, v.position - ring), 0.0f);
    EXPECT_NEAR(glm::length(v.position - ring), minor, 1e-4f);
  }
}

TEST(Mesh, TeapotPartsAreClosedAndWoundOutward) {
  const char* names[] = {"body", "lid", "spout", "handle"};
  const std::vector<Mesh> parts = makeTeapotParts(32);
  ASSERT_EQ(parts.size(), 4u);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    expectWellFormed(parts[i], names[i]);
    expectWindingMatchesNormals(parts[i], names[i]);
    expectClosed(parts[i], names[i]);
  }
}

TEST(Mesh, TeapotBodyNormalsPointAwayFromAxis) {
  const Mesh body = makeTeapotParts(48).front();
  // On the side wall (away from the flat base and top), normals face away from the axis.
  for (const Vertex& v : body.vertices) {
    const glm::vec2 radial(v.position.x, v.position.z);
    if (v.position.y < 0.02f || v.position.y > 0.73f || glm::length(radial) < 0.3f) continue;
    EXPECT_GT(glm::dot(glm::vec2(v.normal.x, v.normal.z), radial), 0.0f);
  }
}

TEST(Mesh, TeapotShape) {
  const Mesh m = makeTeapot(48);
  expectWellFormed(m, "teapot");
  expectWindingMatchesNormals(m, "teapot");
  expectClosed(m, "teapot");
  const Bounds b = computeBounds(m);
  EXPECT_NEAR(b.lo.y, 0.0f, 1e-5f);
  EXPECT_NEAR(b.hi.y, 1.0f, 0.05f);
  EXPECT_NEAR(b.centre().z, 0.0f, 1e-3f);
  EXPECT_NEAR(b.centre().x, 0.0f, 0.1f);
  EXPECT_GT(b.hi.x, 0.9f);   // spout
  EXPECT_LT(b.lo.x, -0.85f); // handle
  EXPECT_NEAR(b.size().z, 2.0f * 0.635f, 0.02f);  // widest part of the body
}

TEST(Mesh, TeapotSegmentsControlDetail) {
  EXPECT_LT(makeTeapot(16).indices.size(), makeTeapot(64).indices.size());
  EXPECT_FALSE(makeTeapot(0).indices.empty());  // clamped, not empty
}

TEST(Mesh, Floor) {
  const Mesh m = makeFloor(5.0f, 10.0f);
  expectWellFormed(m, "floor");
  expectWindingMatchesNormals(m, "floor");
  ASSERT_EQ(m.indices.size(), 6u);
  for (std::size_t t = 0; t < 2; ++t) EXPECT_GT(glm::normalize(faceCross(m, t)).y, 0.999f);
  float maxUv = 0.0f;
  for (const Vertex& v : m.vertices) {
    EXPECT_EQ(v.normal, glm::vec3(0, 1, 0));
    EXPECT_EQ(v.position.y, 0.0f);
    EXPECT_EQ(std::fabs(v.position.x), 5.0f);
    maxUv = std::max({maxUv, v.uv.x, v.uv.y});
  }
  EXPECT_EQ(maxUv, 10.0f);
}

glm::vec3 projectToNdc(const Camera& cam, float aspect, glm::vec3 p) {
  const glm::vec4 clip = cam.projection(aspect) * cam.view() * glm::vec4(p, 1.0f);
  return glm::vec3(clip) / clip.w;
}

TEST(Camera, TargetProjectsToScreenCentre) {
  Camera cam;
  cam.target = {1.0f, 2.0f, -3.0f};
  cam.distance = 7.0f;
  cam.yaw = 0.6f;
  cam.pitch = 0.3f;
  const glm::vec3 ndc = projectToNdc(cam, 16.0f / 9.0f, cam.target);
  EXPECT_NEAR(ndc.x, 0.0f, 1e-5f);
  EXPECT_NEAR(ndc.y, 0.0f, 1e-5f);
  EXPECT_GT(ndc.z, -1.0f);
  EXPECT_LT(ndc.z, 1.0f);
  EXPECT_NEAR(glm::length(cam.position() - cam.target), 7.0f, 1e-4f);
  EXPECT_NEAR(cam.viewDepth(cam.target), 7.0f, 1e-4f);
  // viewDepth matches -z in view space.
  const glm::vec3 p(0.5f, -1.0f, 2.0f);
  EXPECT_NEAR(cam.viewDepth(p), -(cam.view() * glm::vec4(p, 1.0f)).z, 1e-4f);
}

// The lens's eyes (apertureView / apertureProjection): a point on the focal plane stays
// where the pinhole camera shows it from every eye; a point at depth z moves by
// |offset| * |1 - focus / z| scene units at the focal plane, pixelsPerUnitAt pixels each.
TEST(Camera, ApertureKeepsTheFocalPlaneAndShiftsOtherDepths) {
  Camera cam;
  cam.target = {0.5f, 1.0f, -2.0f};
  cam.distance = 9.0f;
  cam.yaw = 0.4f;
  cam.pitch = 0.25f;
  const float aspect = 16.0f / 9.0f, focus = 6.0f;
  const int height = 720;
  const glm::vec3 right = glm::normalize(glm::cross(cam.forward(), glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, cam.forward());
  auto toPixels = [&](glm::vec2 ndc) { return glm::vec2(ndc.x * aspect, ndc.y) * (0.5f * float(height)); };
  auto pixels = [&](glm::vec2 offset, glm::vec3 p) {
    const glm::vec4 clip = cam.apertureProjection(aspect, offset, focus) * cam.apertureView(offset) * glm::vec4(p, 1.0f);
    return toPixels(glm::vec2(clip) / clip.w);
  };
  for (const glm::vec2 offset : {glm::vec2(0.03f, 0.0f), glm::vec2(-0.02f, 0.05f), glm::vec2(0.0f, -0.04f)}) {
    for (const float lateral : {0.0f, 0.7f, -1.3f}) {
      const glm::vec3 onFocus = cam.position() + focus * cam.forward() + lateral * right + 0.4f * lateral * up;
      const glm::vec2 still = pixels({0, 0}, onFocus);
      EXPECT_NEAR(glm::length(pixels(offset, onFocus) - still), 0.0f, 1e-3f);
      EXPECT_NEAR(glm::length(still - toPixels(glm::vec2(projectToNdc(cam, aspect, onFocus)))), 0.0f, 1e-3f);
      for (const float z : {2.0f, 4.0f, 15.0f, 60.0f}) {
        const glm::vec3 p = cam.position() + z * cam.forward() + lateral * right;
        const float expected = glm::length(offset) * std::abs(1.0f - focus / z) * cam.pixelsPerUnitAt(focus, aspect, height);
        EXPECT_NEAR(glm::length(pixels(offset, p) - pixels({0, 0}, p)), expected, 1e-3f * (1.0f + expected))
            << "z " << z;
      }
    }
  }
}

TEST(Camera, PositivePitchLooksDown) {
  Camera cam;
  cam.pitch = 0.3f;
  EXPECT_GT(cam.position().y, cam.target.y);
  EXPECT_LT(cam.forward().y, 0.0f);
}

TEST(Camera, PitchAndDistanceAreClamped) {
  Camera cam;
  cam.orbit(0.0f, 1e6f);
  EXPECT_FLOAT_EQ(cam.pitch, Camera::kMaxPitch);
  EXPECT_LT(cam.pitch, 1.5707963f);
  cam.orbit(0.0f, -1e6f);
  EXPECT_FLOAT_EQ(cam.pitch, Camera::kMinPitch);
  EXPECT_GT(cam.pitch, -1.5707963f);
  // The view stays valid at the limit.
  const glm::mat4 v = cam.view();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(v[c][r]));
  cam.zoom(1000.0f);
  EXPECT_FLOAT_EQ(cam.distance, Camera::kMinDistance);
  cam.zoom(-1000.0f);
  EXPECT_FLOAT_EQ(cam.distance, Camera::kMaxDistance);
}

TEST(Camera, OrbitKeepsDistanceAndYawBounded) {
  Camera cam;
  cam.distance = 5.0f;
  for (int i = 0; i < 1000; ++i) cam.orbit(37.0f, 0.0f);
  EXPECT_LE(std::fabs(cam.yaw), 3.1416f);
  EXPECT_NEAR(glm::length(cam.position() - cam.target), 5.0f, 1e-4f);
}

TEST(DefaultScene, TeapotsAtClearlyDifferentDepths) {
  const Scene scene = makeDefaultScene();
  const std::vector<int> order = teapotsByDepth(scene);
  ASSERT_GE(order.size(), 4u);
  // The row, in instance order, recedes from the camera.
  std::vector<float> depths;
  for (const Instance& inst : scene.instances)
    if (inst.mesh == TeapotMesh)
      depths.push_back(scene.camera.viewDepth(instanceCentre(scene, inst)));
  for (std::size_t i = 1; i < depths.size(); ++i) EXPECT_GT(depths[i], depths[i - 1]);
  for (std::size_t i = 0; i < depths.size(); ++i)
    for (std::size_t j = i + 1; j < depths.size(); ++j)
      EXPECT_GT(std::fabs(depths[i] - depths[j]), 2.0f);
  EXPECT_NEAR(depths.front(), 4.0f, 1e-3f);
  EXPECT_GT(depths.front(), scene.camera.nearPlane + 1.0f);
  EXPECT_LT(depths.back(), scene.camera.farPlane);
  // Distinct colours.
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j)
      EXPECT_GT(glm::length(scene.instances[std::size_t(order[i])].albedo -
                            scene.instances[std::size_t(order[j])].albedo),
                0.2f);
}

TEST(DefaultScene, EveryTeapotIsInView) {
  const Scene scene = makeDefaultScene();
  const Mesh& teapot = scene.meshes[TeapotMesh];
  for (int i : teapotsByDepth(scene)) {
    const glm::mat4& model = scene.instances[std::size_t(i)].model;
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (const Vertex& v : teapot.vertices) {
      const glm::vec3 ndc = projectToNdc(scene.camera, 16.0f / 9.0f,
                                         glm::vec3(model * glm::vec4(v.position, 1.0f)));
      lo = glm::min(lo, ndc);
      hi = glm::max(hi, ndc);
    }
    SCOPED_TRACE(i);
    EXPECT_GT(lo.x, -1.0f);
    EXPECT_LT(hi.x, 1.0f);
    EXPECT_GT(lo.y, -1.0f);
    EXPECT_LT(hi.y, 1.0f);
    EXPECT_GT(lo.z, -1.0f);
    EXPECT_LT(hi.z, 1.0f);
  }
}

TEST(DefaultScene, TeapotsStandOnTheFloor) {
  const Scene scene = makeDefaultScene();
  for (const Instance& inst : scene.instances) {
    ASSERT_GE(inst.mesh, 0);
    ASSERT_LT(std::size_t(inst.mesh), scene.meshes.size());
    if (inst.mesh != TeapotMesh) continue;
    const glm::vec4 base = inst.model * glm::vec4(0, 0, 0, 1);
    EXPECT_NEAR(base.y, 0.0f, 1e-5f);
  }
  EXPECT_NEAR(glm::length(scene.lightDirection), 1.0f, 1e-5f);
  EXPECT_GT(scene.lightDirection.y, 0.0f);
}

TEST(DefaultScene, SuggestedFocusIsTheSecondTeapot) {
  const Scene scene = makeDefaultScene();
  const std::vector<int> order = teapotsByDepth(scene);
  ASSERT_GE(order.size(), 2u);
  const float expected =
      scene.camera.viewDepth(instanceCentre(scene, scene.instances[std::size_t(order[1])]));
  EXPECT_FLOAT_EQ(suggestedFocalDistance(scene), expected);
  EXPECT_NEAR(suggestedFocalDistance(scene), 8.0f, 1e-3f);
  Scene empty;
  empty.camera.distance = 6.0f;
  EXPECT_FLOAT_EQ(suggestedFocalDistance(empty), 6.0f);
}

}  // namespace
}  // namespace satdof::scene

// tests/test_gltf_extensions.cpp — what real exporters write, read by the glTF loader
// (engine/content/gltf_scene.h, gltf_extensions.h, gltf_compressed.h), each file made here:
//   * a texture image missing or not an image: one warning line naming it, the material's
//     base colour drawn; an extension used and not read: one line however often it appears;
//     one required and not read: refused, naming it; skins, animations, morph targets, lines,
//     vertex colours and alpha modes: one line each kind
//   * KHR_texture_transform's matrix for a known offset, rotation and scale
//   * KHR_mesh_quantization: positions of each integer type, normalized or not, read back
//     to the specification's floats, the node's transform dequantizing them; sparse values
//   * emissiveFactor x KHR_materials_emissive_strength
//   * Draco- and meshopt-compressed meshes, encoded here by the libraries' own encoders,
//     decode to the original triangles; a stream cut short or sizes past the budget are
//     refused in one line
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/content/content_error.h"
#include "engine/content/gltf_scene.h"
#include "gltf_ext_files.h"

namespace {

namespace fs = std::filesystem;
using namespace satdof::content;
using content_files::GltfBuilder;

constexpr int kByte = 5120, kUByte = 5121, kShort = 5122, kUShort = 5123, kUInt = 5125, kFloat = 5126;

class GltfExtensions : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_gltf_extensions"};
  const fs::path& dir = folder.path;

  std::string quoted(const fs::path& p) const { return std::string(1, '\'') + p.string() + '\''; }

  std::string errorOf(const fs::path& file) const {
    try {
      loadGltfScene(file);
    } catch (const ContentError& e) {
      return e.what();
    }
    return "";
  }

  void expectRefused(const fs::path& file, const std::string& words) const {
    SCOPED_TRACE(file.filename().string());
    const std::string e = errorOf(file);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_EQ(e.rfind(quoted(file) + ": ", 0), 0u) << e;
    EXPECT_NE(e.find(words), std::string::npos) << e;
  }

  // A builder holding one float triangle mesh (material `material`) placed by node 0.
  static GltfBuilder triangle(int material = -1) {
    GltfBuilder g;
    const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0}, uv = {0, 0, 1, 0, 0, 1};
    g.roots = {g.node(g.mesh(p, {}, uv, {0, 1, 2}, material), {0, 0, 0})};
    return g;
  }
};

std::size_t countHolding(const std::vector<std::string>& lines, const std::string& words) {
  const auto holds = [&](const std::string& l) { return l.find(words) != std::string::npos; };
  return std::size_t(std::count_if(lines.begin(), lines.end(), holds));
}

TEST_F(GltfExtensions, AMissingOrBrokenTextureIsOneWarningAndTheBaseColour) {
  GltfBuilder g;
  g.images = {R"({"uri":"albedo.png"})", R"({"uri":"bad.png"})"};
  g.textures = {R"({"source":0})", R"({"source":1})"};
  const int missing = g.material({0.2f, 0.4f, 0.6f}, 0.0f, 0.5f, 0);
  const int missingAgain = g.material({0.9f, 0.1f, 0.1f}, 0.0f, 0.5f, 0);
  const int broken = g.material({0.3f, 0.3f, 0.3f}, 0.0f, 0.5f, 1);
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0}, uv = {0, 0, 1, 0, 0, 1};
  g.roots = {g.node(g.mesh(p, {}, uv, {0, 1, 2}, missing), {0, 0, 0}), g.node(g.mesh(p, {}, uv, {0, 1, 2}, missingAgain), {2, 0, 0}),
             g.node(g.mesh(p, {}, uv, {0, 1, 2}, broken), {4, 0, 0})};
  content_files::writeBytes(dir / "bad.png", "this is not a PNG");
  const fs::path file = dir / "helmet.gltf";
  g.write(file);
  GltfScene s;
  ASSERT_NO_THROW(s = loadGltfScene(file));
  ASSERT_EQ(s.scene.instances.size(), 3u);
  EXPECT_EQ(s.scene.instances[0].texture, -1);
  EXPECT_EQ(s.scene.instances[0].albedo, glm::vec3(0.2f, 0.4f, 0.6f));
  EXPECT_EQ(s.scene.instances[2].texture, -1);
  EXPECT_TRUE(s.scene.textures.empty());
  ASSERT_EQ(s.warnings.size(), 2u) << (s.warnings.empty() ? "" : s.warnings[0]);
  EXPECT_EQ(s.warnings[0], quoted(file) + ": image 'albedo.png': no such file; the material's base colour is used");
  EXPECT_EQ(s.warnings[1].rfind(quoted(file) + ": image 'bad.png': ", 0), 0u) << s.warnings[1];
  EXPECT_NE(s.warnings[1].find("; the material's base colour is used"), std::string::npos) << s.warnings[1];
  // A missing buffer is still refused: the mesh cannot be drawn without it.
  content_files::writeBytes(dir / "nobuffer.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"gone.bin"}]})");
  expectRefused(dir / "nobuffer.gltf", "'gone.bin': no such file");
}

TEST_F(GltfExtensions, AnExtensionUsedAndNotReadIsOneWarningAndOneRequiredIsRefused) {
  GltfBuilder g = triangle();
  const std::string clearcoat = R"({"pbrMetallicRoughness":{},"extensions":{"KHR_materials_clearcoat":{"clearcoatFactor":1}}})";
  g.materials = {clearcoat, clearcoat};
  const fs::path used = dir / "used.gltf";
  gltf_ext_files::write(g, used, R"(,"extensionsUsed":["KHR_materials_clearcoat","KHR_texture_transform","KHR_lights_punctual"])");
  const GltfScene s = loadGltfScene(used);
  EXPECT_EQ(s.triangles, 1u);
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_EQ(s.warnings[0], quoted(used) + ": uses KHR_materials_clearcoat, which is not read: drawn without it");
  EXPECT_EQ(countHolding(s.warnings, "KHR_lights_punctual, which is not read"), 1u);
  EXPECT_EQ(countHolding(s.warnings, "KHR_texture_transform"), 0u);  // read

  const fs::path required = dir / "required.glb";
  gltf_ext_files::write(g, required, R"(,"extensionsUsed":["EXT_foo"],"extensionsRequired":["KHR_mesh_quantization","EXT_foo"])");
  EXPECT_EQ(errorOf(required), quoted(required) + ": requires EXT_foo, which this build does not read");
}

TEST_F(GltfExtensions, WhatIsNotDrawnIsOneWarningEachKind) {
  GltfBuilder g = triangle();
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::vector<float> colours = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const int pos = gltf_ext_files::accessor(g, g.view(p.data(), 36, 34962), 3, "VEC3", kFloat);
  const int col = gltf_ext_files::accessor(g, g.view(colours.data(), 36, 34962), 3, "VEC3", kFloat);
  g.materials = {R"({"alphaMode":"BLEND"})", R"({"alphaMode":"MASK"})", R"({"alphaMode":"BLEND"})"};
  const std::string a = "\"POSITION\":" + std::to_string(pos);
  const int lines = gltf_ext_files::primitiveMesh(g, a, -1, -1, ",\"mode\":1");
  const int coloured = gltf_ext_files::primitiveMesh(g, a + ",\"COLOR_0\":" + std::to_string(col), -1, 0);
  const int morphed = gltf_ext_files::primitiveMesh(g, a, -1, 1, ",\"targets\":[{\"POSITION\":" + std::to_string(pos) + "}]");
  const int blended = gltf_ext_files::primitiveMesh(g, a, -1, 2);
  for (int m : {lines, coloured, morphed, blended}) g.roots.push_back(g.node(m, {0, 0, 0}));
  const fs::path file = dir / "dropped.gltf";
  gltf_ext_files::write(g, file, R"(,"skins":[{"joints":[0]}],"animations":[{"channels":[],"samplers":[]}])");
  const GltfScene s = loadGltfScene(file);
  EXPECT_EQ(s.triangles, 4u);  // the line primitive is not drawn
  for (const char* words : {"has skins", "has animations", "has morph targets", "has point or line primitives",
                            "has vertex colours (COLOR_0)", "alpha mode BLEND", "alpha mode MASK"})
    EXPECT_EQ(countHolding(s.warnings, words), 1u) << words;
  EXPECT_EQ(s.warnings.size(), 7u);
  for (const std::string& w : s.warnings) EXPECT_EQ(w.rfind(quoted(file) + ": ", 0), 0u) << w;
}

TEST_F(GltfExtensions, TextureTransformGivesItsMatrix) {
  GltfBuilder g;
  std::vector<std::uint8_t> rgba(4 * 4 * 4, 200);
  const int t = g.texture(4, 4, rgba);
  const std::string tt = R"("extensions":{"KHR_texture_transform":{"offset":[0.25,0.5],"rotation":0.3,"scale":[2,3]}})";
  g.materials = {R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":)" + std::to_string(t) + "," + tt + "}}}",
                 R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":)" + std::to_string(t) +
                     R"(,"extensions":{"KHR_texture_transform":{"texCoord":1}}}}})",
                 R"({"pbrMetallicRoughness":{"baseColorTexture":{"index":)" + std::to_string(t) + "}}}"};
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0}, uv = {0, 0, 1, 0, 0, 1};
  for (int m = 0; m < 3; ++m) g.roots.push_back(g.node(g.mesh(p, {}, uv, {0, 1, 2}, m), {float(m), 0, 0}));
  const fs::path file = dir / "transform.gltf";
  gltf_ext_files::write(g, file, R"(,"extensionsUsed":["KHR_texture_transform"])");
  const GltfScene s = loadGltfScene(file);
  ASSERT_EQ(s.scene.instances.size(), 3u);
  const glm::mat3 m = s.scene.instances[0].uvTransform;
  const float c = std::cos(0.3f), sn = std::sin(0.3f);
  for (const glm::vec2 uvIn : {glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(0, 1), glm::vec2(0.3f, 0.7f)}) {
    const glm::vec3 out = m * glm::vec3(uvIn, 1.0f);
    EXPECT_NEAR(out.x, c * 2 * uvIn.x + sn * 3 * uvIn.y + 0.25f, 1e-6f);
    EXPECT_NEAR(out.y, -sn * 2 * uvIn.x + c * 3 * uvIn.y + 0.5f, 1e-6f);
    EXPECT_FLOAT_EQ(out.z, 1.0f);
  }
  EXPECT_EQ(s.scene.instances[0].texture, 0);
  // texCoord 1: the second uv set, not read: the texture left out, one line.
  EXPECT_EQ(s.scene.instances[1].texture, -1);
  EXPECT_EQ(countHolding(s.warnings, "base colour texture reads uv set 1, which is not read"), 1u);
  // None: the identity, as the built-in scenes'.
  EXPECT_EQ(s.scene.instances[2].uvTransform, glm::mat3(1.0f));
  EXPECT_EQ(s.scene.instances[2].texture, 0);
}

TEST_F(GltfExtensions, QuantizedPositionsReadAsTheSpecificationSaysAndTheNodeDequantizes) {
  struct Case {
    int type;
    std::array<int, 9> values;
  };
  const Case cases[] = {{kByte, {-128, -127, 0, 127, 5, -5, 1, 2, 3}},
                        {kUByte, {0, 255, 128, 1, 2, 3, 200, 100, 50}},
                        {kShort, {-32768, -32767, 0, 32767, 1000, -1000, 1, 2, 3}},
                        {kUShort, {0, 65535, 32768, 1, 2, 3, 60000, 100, 50}}};
  for (const Case& c : cases)
    for (const bool normalized : {false, true}) {
      SCOPED_TRACE("componentType " + std::to_string(c.type) + (normalized ? " normalized" : ""));
      const int size = c.type == kByte || c.type == kUByte ? 1 : 2, stride = 4 * size;  // VEC3 padded to 4 bytes
      std::string bytes(std::size_t(3 * stride), '\0');
      std::vector<float> expected;
      for (int i = 0; i < 9; ++i) {
        const int v = c.values[std::size_t(i)];
        std::memcpy(&bytes[std::size_t((i / 3) * stride + (i % 3) * size)], &v, std::size_t(size));  // little-endian
        const float max = c.type == kByte ? 127.0f : c.type == kUByte ? 255.0f : c.type == kShort ? 32767.0f : 65535.0f;
        expected.push_back(normalized ? std::max(float(v) / max, -1.0f) : float(v));
      }
      GltfBuilder g;
      const int pos = gltf_ext_files::accessor(g, gltf_ext_files::stridedView(g, bytes, stride), 3, "VEC3", c.type, normalized);
      // Normals as normalized bytes, uvs as normalized unsigned shorts (KHR_mesh_quantization).
      const std::int8_t n[12] = {0, 127, 0, 0, 0, 0, -128, 0, 0, 0, 127, 0};
      const std::uint16_t st[6] = {0, 65535, 32768, 0, 65535, 65535};
      const int nrm = gltf_ext_files::accessor(g, gltf_ext_files::stridedView(g, std::string(reinterpret_cast<const char*>(n), 12), 4),
                                               3, "VEC3", kByte, true);
      const int uv = gltf_ext_files::accessor(g, g.view(st, 12, 34962), 3, "VEC2", kUShort, true);
      const int mesh = gltf_ext_files::primitiveMesh(g, "\"POSITION\":" + std::to_string(pos) + ",\"NORMAL\":" + std::to_string(nrm) +
                                                            ",\"TEXCOORD_0\":" + std::to_string(uv), -1);
      g.roots = {g.node(mesh, {1, 2, 3}, {0.5f, 2.0f, 4.0f})};  // the dequantization
      const fs::path file = dir / ("q" + std::to_string(c.type) + (normalized ? "n" : "") + ".glb");
      gltf_ext_files::write(g, file, R"(,"extensionsUsed":["KHR_mesh_quantization"],"extensionsRequired":["KHR_mesh_quantization"])");
      const GltfScene s = loadGltfScene(file);
      EXPECT_TRUE(s.warnings.empty());
      ASSERT_EQ(s.scene.meshes.size(), 1u);
      const auto& v = s.scene.meshes[0].vertices;
      ASSERT_EQ(v.size(), 3u);
      for (std::size_t i = 0; i < 3; ++i) {
        const glm::vec3 want(expected[i * 3], expected[i * 3 + 1], expected[i * 3 + 2]);
        EXPECT_EQ(v[i].position, want) << i;
        const glm::vec3 world(s.scene.instances[0].model * glm::vec4(v[i].position, 1.0f));
        EXPECT_NEAR(world.x, 1 + 0.5f * want.x, 1e-4f * (1 + std::abs(want.x)));
        EXPECT_NEAR(world.y, 2 + 2.0f * want.y, 1e-4f * (1 + std::abs(want.y)));
        EXPECT_NEAR(world.z, 3 + 4.0f * want.z, 1e-4f * (1 + std::abs(want.z)));
      }
      EXPECT_EQ(v[0].normal, glm::vec3(0, 1, 0));
      EXPECT_EQ(v[1].normal, glm::vec3(0, 0, -1));
      EXPECT_EQ(v[2].normal, glm::vec3(0, 0, 1));
      EXPECT_EQ(v[0].uv, glm::vec2(0, 1));
      EXPECT_EQ(v[1].uv, glm::vec2(32768.0f / 65535.0f, 0));
      EXPECT_EQ(v[2].uv, glm::vec2(1, 1));
    }
}

TEST_F(GltfExtensions, SparsePositionsReplaceTheirElements) {
  GltfBuilder g;
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0}, replaced = {5, 6, 7};
  const std::uint16_t at[2] = {2, 0};  // element 2 (and a pad)
  const int base = g.view(p.data(), 36, 34962), idx = g.view(at, 4, 0), val = g.view(replaced.data(), 12, 0);
  const int pos = gltf_ext_files::accessor(g, base, 3, "VEC3", kFloat, false,
                                           R"(,"sparse":{"count":1,"indices":{"bufferView":)" + std::to_string(idx) +
                                               R"(,"componentType":5123},"values":{"bufferView":)" + std::to_string(val) + "}}");
  g.roots = {g.node(gltf_ext_files::primitiveMesh(g, "\"POSITION\":" + std::to_string(pos), -1), {0, 0, 0})};
  const fs::path file = dir / "sparse.gltf";
  gltf_ext_files::write(g, file, "");
  const GltfScene s = loadGltfScene(file);
  ASSERT_EQ(s.scene.meshes.size(), 1u);
  EXPECT_EQ(s.scene.meshes[0].vertices[0].position, glm::vec3(0, 0, 0));
  EXPECT_EQ(s.scene.meshes[0].vertices[1].position, glm::vec3(1, 0, 0));
  EXPECT_EQ(s.scene.meshes[0].vertices[2].position, glm::vec3(5, 6, 7));
  // An index past the accessor's elements is refused.
  const std::uint16_t past[2] = {3, 0};
  std::memcpy(&g.bin[g.bin.find(std::string(reinterpret_cast<const char*>(at), 4))], past, 4);
  gltf_ext_files::write(g, dir / "sparse_past.gltf", "");
  expectRefused(dir / "sparse_past.gltf", "sparse index 3 is past its 3 elements");
}

TEST_F(GltfExtensions, EmissiveStrengthScalesTheEmissiveFactor) {
  GltfBuilder g = triangle(0);
  g.materials = {R"({"emissiveFactor":[1,0.5,0],"extensions":{"KHR_materials_emissive_strength":{"emissiveStrength":5}}})",
                 R"({"emissiveFactor":[0.2,0.4,0.6]})", R"({"extensions":{"KHR_materials_unlit":{}}})"};
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  g.roots.push_back(g.node(g.mesh(p, {}, {}, {0, 1, 2}, 1), {1, 0, 0}));
  g.roots.push_back(g.node(g.mesh(p, {}, {}, {0, 1, 2}, 2), {2, 0, 0}));
  const fs::path file = dir / "emissive.gltf";
  gltf_ext_files::write(g, file, R"(,"extensionsUsed":["KHR_materials_emissive_strength","KHR_materials_unlit"])");
  const GltfScene s = loadGltfScene(file);
  ASSERT_EQ(s.scene.instances.size(), 3u);
  EXPECT_EQ(s.scene.instances[0].emission, glm::vec3(5.0f, 2.5f, 0.0f));
  EXPECT_EQ(s.scene.instances[1].emission, glm::vec3(0.2f, 0.4f, 0.6f));
  EXPECT_EQ(s.scene.instances[2].emission, glm::vec3(0.0f));
  EXPECT_FALSE(s.scene.instances[0].emissive);
  EXPECT_TRUE(s.scene.instances[2].emissive);  // unlit: drawn at its colour
  EXPECT_TRUE(s.warnings.empty());
}

// Triangles as their corners' positions, each rotated to start at its least corner (the
// winding kept), sorted: equal for the same triangles in any vertex and face order.
std::vector<std::array<float, 9>> triangleSet(const std::vector<glm::vec3>& corners) {
  std::vector<std::array<float, 9>> out;
  for (std::size_t t = 0; t + 2 < corners.size(); t += 3) {
    std::size_t first = t;
    for (std::size_t k = t + 1; k < t + 3; ++k) {
      const glm::vec3 a = corners[k], b = corners[first];
      if (std::tie(a.x, a.y, a.z) < std::tie(b.x, b.y, b.z)) first = k;
    }
    std::array<float, 9> tri{};
    for (std::size_t k = 0; k < 3; ++k) {
      const glm::vec3 v = corners[t + (first - t + k) % 3];
      tri[k * 3] = v.x, tri[k * 3 + 1] = v.y, tri[k * 3 + 2] = v.z;
    }
    out.push_back(tri);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<glm::vec3> cornersOf(const satdof::scene::Mesh& m) {
  std::vector<glm::vec3> out;
  for (std::uint32_t i : m.indices) out.push_back(m.vertices[i].position);
  return out;
}

// A small grid of 2 x 3 quads (12 triangles, 12 distinct points).
std::vector<glm::vec3> gridCorners() {
  std::vector<glm::vec3> out;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      const glm::vec3 a(float(x), float(y), 0.25f * float(x)), b(float(x + 1), float(y), 0.25f * float(x + 1));
      const glm::vec3 c(float(x + 1), float(y + 1), 0.25f * float(x + 1)), d(float(x), float(y + 1), 0.25f * float(x));
      out.insert(out.end(), {a, b, c, a, c, d});
    }
  return out;
}

TEST_F(GltfExtensions, ADracoMeshDecodesToTheOriginalTriangles) {
  const std::vector<glm::vec3> corners = gridCorners();
  std::vector<float> flat;
  for (const glm::vec3& v : corners) flat.insert(flat.end(), {v.x, v.y, v.z});
  const gltf_ext_files::DracoMesh d = gltf_ext_files::dracoEncode(flat);
  ASSERT_EQ(d.faces, 12u);
  const auto make = [&](const std::string& name, const std::string& bytes, std::size_t points) {
    GltfBuilder g;
    const int view = g.view(bytes.data(), bytes.size(), 0);
    const int pos = gltf_ext_files::accessor(g, -1, points, "VEC3", kFloat);
    const int ind = gltf_ext_files::accessor(g, -1, d.faces * 3, "SCALAR", kUShort);
    g.roots = {g.node(gltf_ext_files::primitiveMesh(g, "\"POSITION\":" + std::to_string(pos), ind, -1,
                                                    ",\"extensions\":{\"KHR_draco_mesh_compression\":{\"bufferView\":" +
                                                        std::to_string(view) + ",\"attributes\":{\"POSITION\":" +
                                                        std::to_string(d.id) + "}}}"),
                      {0, 0, 0})};
    gltf_ext_files::write(g, dir / name,
                          R"(,"extensionsUsed":["KHR_draco_mesh_compression"],"extensionsRequired":["KHR_draco_mesh_compression"])");
    return dir / name;
  };
  for (const char* name : {"draco.gltf", "draco.glb"}) {
    const GltfScene s = loadGltfScene(make(name, d.bytes, d.points));
    ASSERT_EQ(s.scene.meshes.size(), 1u);
    EXPECT_EQ(s.triangles, 12u);
    EXPECT_EQ(s.scene.meshes[0].vertices.size(), d.points);
    const auto got = triangleSet(cornersOf(s.scene.meshes[0])), want = triangleSet(corners);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t t = 0; t < got.size(); ++t)
      for (std::size_t k = 0; k < 9; ++k) EXPECT_NEAR(got[t][k], want[t][k], 1e-3f) << t << " " << k;
    EXPECT_TRUE(s.warnings.empty());
  }
  // Cut short, and a point count past the budget: one line each, nothing decoded.
  expectRefused(make("draco_short.glb", d.bytes.substr(0, d.bytes.size() / 2), d.points),
                "KHR_draco_mesh_compression does not decode");
  expectRefused(make("draco_huge.glb", d.bytes, std::size_t(1) << 40), "decodes to more than");
  expectRefused(make("draco_count.glb", d.bytes, d.points + 1), "decodes to " + std::to_string(d.points) + " points");
}

TEST_F(GltfExtensions, AMeshoptMeshDecodesToTheOriginalPositionsAndIndices) {
  const std::vector<float> p = {0, 0, 0, 1, 0, 0, 1, 1, 0.5f, 0, 1, 0.5f, 2, 0, 1};
  const std::vector<std::uint32_t> indices = {0, 1, 2, 0, 2, 3, 1, 4, 2};
  const std::string vertices = gltf_ext_files::meshoptVertices(p.data(), 5, 12);
  const std::string triangles = gltf_ext_files::meshoptTriangles(indices, 5);
  const auto make = [&](const std::string& name, std::size_t vertexBytes, std::size_t count) {
    GltfBuilder g;
    g.bin = vertices + triangles;
    const int pv = gltf_ext_files::meshoptView(g, 0, vertexBytes, count, 12, "ATTRIBUTES", 12);
    const int iv = gltf_ext_files::meshoptView(g, vertices.size(), triangles.size(), 9, 4, "TRIANGLES");
    const int pos = gltf_ext_files::accessor(g, pv, count, "VEC3", kFloat);
    const int ind = gltf_ext_files::accessor(g, iv, 9, "SCALAR", kUInt);
    g.roots = {g.node(gltf_ext_files::primitiveMesh(g, "\"POSITION\":" + std::to_string(pos), ind), {0, 0, 0})};
    gltf_ext_files::write(g, dir / name, R"(,"extensionsUsed":["EXT_meshopt_compression"],"extensionsRequired":["EXT_meshopt_compression"])",
                          gltf_ext_files::meshoptFallback(count * 12 + 36));
    return dir / name;
  };
  for (const char* name : {"meshopt.gltf", "meshopt.glb"}) {
    const GltfScene s = loadGltfScene(make(name, vertices.size(), 5));
    ASSERT_EQ(s.scene.meshes.size(), 1u);
    const auto& m = s.scene.meshes[0];
    ASSERT_EQ(m.vertices.size(), 5u);
    std::vector<glm::vec3> corners;
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(m.vertices[i].position, glm::vec3(p[i * 3], p[i * 3 + 1], p[i * 3 + 2])) << i;
    for (std::uint32_t i : indices) corners.push_back(glm::vec3(p[i * 3], p[i * 3 + 1], p[i * 3 + 2]));
    // The encoder may start a triangle at another corner (its winding kept).
    EXPECT_EQ(triangleSet(cornersOf(m)), triangleSet(corners));
    EXPECT_TRUE(s.warnings.empty());
  }
  expectRefused(make("meshopt_short.glb", vertices.size() / 2, 5), "EXT_meshopt_compression does not decode");
  expectRefused(make("meshopt_huge.glb", vertices.size(), std::size_t(1) << 30), "decodes to more than");
  expectRefused(make("meshopt_past.gltf", vertices.size() + triangles.size() + 1, 5), "reaches past the end of buffer 0");
}

}  // namespace

// tests/test_content.cpp — the user's content read from files (engine/content/), no GL: an
// RGB-D photo's depth in every encoding becomes the distances it was made from, rows
// flipped as GL stores them; a glTF file's node tree, materials, texture and camera become
// the scene the scene pass draws; files dropped on the window find their depth maps; and
// every bad file is one line naming it. The files are made here (content_files.h) in a
// folder of the test's own, removed after.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <filesystem>
#include <string>

#include "engine/content/content.h"
#include "engine/content/content_error.h"
#include "engine/content/gltf_scene.h"
#include "engine/content/image_files.h"
#include "engine/content/photo.h"
#include "content_files.h"

namespace {

namespace fs = std::filesystem;
using namespace satdof::content;

class ContentFiles : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_content"};
  const fs::path& dir = folder.path;

  // The photo (w x h) as colour PNG and depth in `kind`: "inverse16", "metric8", "exr".
  content_files::Photo writePhoto(const std::string& name, int w, int h, const std::string& kind) {
    const content_files::Photo p = content_files::makePhoto(w, h);
    content_files::writePng8(dir / (name + ".png"), w, h, 3, p.rgb);
    if (kind == "inverse16") content_files::writePng16(dir / (name + "_depth.png"), w, h, content_files::inverseDepth16(p));
    if (kind == "exr") content_files::writeExr(dir / (name + "_depth.exr"), w, h, p.depth);
    if (kind == "metric8") {
      std::vector<std::uint8_t> v(p.depth.size());
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint8_t(i % 256);
      content_files::writePng8(dir / (name + "_depth.png"), w, h, 1, v);
    }
    return p;
  }

  // The message of the ContentError `f` throws ("" when it throws none).
  template <class F>
  static std::string errorOf(F f) {
    try {
      f();
    } catch (const ContentError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(ContentFiles, InversePngDepthBecomesTheDistancesFlippedAsGlStoresThem) {
  const int w = 64, h = 40;
  const content_files::Photo truth = writePhoto("a", w, h, "inverse16");
  const Photo p = loadPhoto(dir / "a.png", dir / "a_depth.png", {DepthEncoding::Inverse, 2.0f, 12.0f, true});
  ASSERT_EQ(p.colour.width, w);
  ASSERT_EQ(p.depth.height, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t file = std::size_t(y * w + x);
      const int row = h - 1 - y;  // bottom-up
      EXPECT_NEAR(p.depth.at(x, row), truth.depth[file], truth.depth[file] * 2e-3f) << x << "," << y;
      for (int k = 0; k < 3; ++k) ASSERT_EQ(p.colour.at(x, row)[k], truth.rgb[file * 3 + std::size_t(k)]);
      ASSERT_EQ(p.colour.at(x, row)[3], 255);
    }
  EXPECT_GE(p.nearest, 2.0f);
  EXPECT_LE(p.farthest, 12.0f * 1.001f);
  EXPECT_GT(p.median, p.nearest);
  EXPECT_NE(p.depthDescription.find("16-bit PNG, inverse, 2..12 m"), std::string::npos) << p.depthDescription;
}

TEST_F(ContentFiles, FloatExrHoldsMetresAndAnEightBitMapSpansTheRangeLinearly) {
  const content_files::Photo truth = writePhoto("e", 33, 17, "exr");
  const Photo e = loadPhoto(dir / "e.png", dir / "e_depth.exr", {});
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 33; ++x) ASSERT_EQ(e.depth.at(x, 16 - y), truth.depth[std::size_t(y * 33 + x)]);
  writePhoto("m", 20, 10, "metric8");
  const Photo m = loadPhoto(dir / "m.png", dir / "m_depth.png", {DepthEncoding::Metric, 1.0f, 6.1f, true});
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 20; ++x) {
      const float v = float((y * 20 + x) % 256) / 255.0f;
      EXPECT_FLOAT_EQ(m.depth.at(x, 9 - y), 1.0f + v * 5.1f);
    }
}

TEST_F(ContentFiles, BadPhotosAreOneLineNamingTheFile) {
  writePhoto("ok", 16, 8, "inverse16");
  writePhoto("small", 8, 8, "inverse16");
  content_files::writeBytes(dir / "text.png", "this is not a picture\n");
  content_files::writePngHeaderOnly(dir / "huge.png", 30000, 30000);
  std::vector<float> bad(16 * 8, 3.0f);
  bad[5] = std::nanf("");
  bad[9] = -1.0f;
  content_files::writeExr(dir / "nan.exr", 16, 8, bad);
  content_files::writeExr(dir / "metres.exr", 16, 8, std::vector<float>(16 * 8, 3.0f));
  const DepthMapping plain;
  struct Case {
    fs::path colour, depth;
    DepthMapping mapping;
    std::string file, words;
  };
  const Case cases[] = {
      {dir / "missing.png", dir / "ok_depth.png", plain, "missing.png", "no such file"},
      {dir, dir / "ok_depth.png", plain, dir.filename().string(), "is a folder"},
      {dir / "text.png", dir / "ok_depth.png", plain, "text.png", "is not an image"},
      {dir / "huge.png", dir / "ok_depth.png", plain, "huge.png", "is 30000x30000: larger than 16384 pixels a side"},
      {dir / "ok.png", dir / "huge.png", plain, "huge.png", "is 30000x30000"},
      {dir / "ok.png", dir / "text.png", plain, "text.png", "is not a depth image"},
      {dir / "ok.png", dir / "small_depth.png", plain, "small_depth.png", "is 8x8, the photo 'ok.png' 16x8"},
      {dir / "ok.png", dir / "metres.exr", {DepthEncoding::Metric, 1, 5, true}, "metres.exr", "--depth-range applies to a normalised map"},
      {dir / "nan.exr", dir / "ok_depth.png", plain, "nan.exr", "colour photo must be a PNG or JPEG"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.words);
    const std::string e = errorOf([&] { loadPhoto(c.colour, c.depth, c.mapping); });
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_EQ(e.rfind("'", 0), 0u) << e;
    EXPECT_NE(e.find(c.file + "': "), std::string::npos) << e;
    EXPECT_NE(e.find(c.words), std::string::npos) << e;
  }
  // An inverse float map may hold zero (infinitely far, clamped to FAR), never a negative.
  EXPECT_EQ(errorOf([&] { loadPhoto(dir / "ok.png", dir / "metres.exr", {DepthEncoding::Inverse, 1, 5, true}); }), "");
}

TEST_F(ContentFiles, GltfNodeTreeMaterialsTextureAndCameraBecomeTheScene) {
  content_files::writeTestGltf(dir / "boxes.gltf", true);
  const GltfScene g = loadGltfScene(dir / "boxes.gltf");
  EXPECT_EQ(g.triangles, 48u);
  ASSERT_EQ(g.scene.instances.size(), 4u);
  EXPECT_EQ(g.scene.meshes.size(), 4u);
  ASSERT_EQ(g.scene.textures.size(), 1u);
  EXPECT_TRUE(g.scene.textures[0].srgb);
  EXPECT_EQ(g.scene.textures[0].width, 8);
  EXPECT_EQ(g.scene.textures[0].rgba[0], 230);  // the checker's first texel, row 0 the image's top
  const satdof::scene::Instance& slab = g.scene.instances[0];
  EXPECT_EQ(slab.texture, 0);
  EXPECT_FLOAT_EQ(slab.diffuse, 1.0f);
  // The red box: metallic 1, roughness 0.3: no diffuse, a highlight of its own colour.
  const satdof::scene::Instance& red = g.scene.instances[1];
  EXPECT_FLOAT_EQ(red.diffuse, 0.0f);
  EXPECT_NEAR(red.specular.r, 0.8f * (1.0f - 0.75f * 0.3f), 1e-6f);
  EXPECT_NEAR(red.shininess, 4.0f + 252.0f * 0.49f, 1e-3f);
  EXPECT_EQ(red.texture, -1);
  for (const satdof::scene::Vertex& v : g.scene.meshes[std::size_t(red.mesh)].vertices)  // made by the loader
    ASSERT_NEAR(glm::length(v.normal), 1.0f, 1e-5f);
  // The default material (the white box): white, no metal.
  EXPECT_EQ(g.scene.instances[3].albedo, glm::vec3(1.0f));
  EXPECT_FLOAT_EQ(g.scene.instances[3].diffuse, 1.0f);
  // The group node's translation and the green box's own (rotated about y): its centre.
  const glm::vec3 green(g.scene.instances[2].model * glm::vec4(0, 0, 0, 1));
  EXPECT_NEAR(glm::distance(green, glm::vec3(1.2f, 0.6f, -6.0f)), 0.0f, 1e-5f);
  EXPECT_NEAR(g.bounds.lo.z, -18.0f, 1e-4f);
  EXPECT_NEAR(g.bounds.hi.y, 2.0f, 1e-4f);
  // The file's camera: at (0, 1, 0) looking down -z, its field of view and near plane.
  const satdof::scene::Camera& cam = g.scene.camera;
  EXPECT_NEAR(glm::distance(cam.position(), glm::vec3(0, 1, 0)), 0.0f, 1e-4f);
  EXPECT_NEAR(glm::distance(cam.forward(), glm::vec3(0, 0, -1)), 0.0f, 1e-5f);
  EXPECT_FLOAT_EQ(cam.fovY, 0.7f);
  EXPECT_FLOAT_EQ(cam.nearPlane, 0.1f);
  EXPECT_NE(g.cameraNote.find("the file's camera"), std::string::npos) << g.cameraNote;
  EXPECT_NEAR(g.focalDistance, cam.viewDepth(g.bounds.centre()), 1e-4f);
  EXPECT_TRUE(g.scene.presetsFollowSubjectSize);
  for (const auto& i : g.scene.instances) EXPECT_TRUE(i.subject && !i.turns);
}

TEST_F(ContentFiles, GltfWithoutACameraIsFramedAndAGlbReadsTheSame) {
  content_files::writeTestGltf(dir / "boxes.glb", false);
  const GltfScene g = loadGltfScene(dir / "boxes.glb");
  EXPECT_EQ(g.triangles, 48u);
  EXPECT_NE(g.cameraNote.find("framed"), std::string::npos) << g.cameraNote;
  const satdof::scene::Camera& cam = g.scene.camera;
  const glm::mat4 clip = cam.projection(16.0f / 9.0f) * cam.view();
  for (int corner = 0; corner < 8; ++corner) {  // every corner of the bounds in view
    const glm::vec3 p(corner & 1 ? g.bounds.hi.x : g.bounds.lo.x, corner & 2 ? g.bounds.hi.y : g.bounds.lo.y,
                      corner & 4 ? g.bounds.hi.z : g.bounds.lo.z);
    const glm::vec4 c = clip * glm::vec4(p, 1.0f);
    EXPECT_GT(c.w, 0.0f);
    EXPECT_LE(std::abs(c.x / c.w), 1.0f) << corner;
    EXPECT_LE(std::abs(c.y / c.w), 1.0f) << corner;
    EXPECT_GT(cam.viewDepth(p), cam.nearPlane);
    EXPECT_LT(cam.viewDepth(p), cam.farPlane);
  }
}

TEST_F(ContentFiles, BadGltfFilesAreOneLineNamingTheFile) {
  content_files::writeBytes(dir / "nomesh.gltf",
                            R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"empty"}]})");
  content_files::writeBytes(dir / "garbage.gltf", "{ this is not json");
  content_files::writeBytes(dir / "lost.gltf",
                            R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"gone.bin"}]})");
  content_files::writeBytes(dir / "text.glb", "not a binary gltf");
  // A buffer's uri naming a folder (the glTF loader's own reader asked for 2^63 bytes).
  fs::create_directory(dir / "folder.bin");
  content_files::writeBytes(dir / "empty.glb", "");
  content_files::writeBytes(dir / "empty.gltf", "");
  content_files::writeBytes(dir / "folder.gltf",
                            R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"folder.bin"}]})");
  const std::pair<const char*, const char*> cases[] = {{"nomesh.gltf", "has no mesh"},
                                                       {"garbage.gltf", "cannot be read as glTF 2.0"},
                                                       {"lost.gltf", "cannot be read as glTF 2.0"},
                                                       {"folder.gltf", "folder.bin': is a folder, not a file"},
                                                       {"empty.glb", "empty.glb': is empty"},
                                                       {"empty.gltf", "empty.gltf': is empty"},
                                                       {"text.glb", "cannot be read as glTF 2.0"},
                                                       {"missing.gltf", "no such file"}};
  for (const auto& [file, words] : cases) {
    SCOPED_TRACE(file);
    const std::string e = errorOf([&] { loadGltfScene(dir / file); });
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find(std::string(file) + "': "), std::string::npos) << e;
    EXPECT_NE(e.find(words), std::string::npos) << e;
  }
}

// What fuzz/fuzz_gltf and fuzz/fuzz_depth_map found: a camera node at infinity gave an
// infinite focus; a corrupt EXR's message ended in tinyexr's newline; a data window whose
// corners overflow an int was computed in int.
TEST_F(ContentFiles, FuzzedFilesStayOneLineAndFinite) {
  content_files::GltfBuilder g;
  std::vector<float> p, n, uv;
  std::vector<std::uint32_t> idx;
  content_files::box(p, n, uv, idx);
  // Each translation a float, their sum past the largest: the camera's place is +inf.
  const int camera = g.node(-1, {0.0f, 1.0f, 3e38f}, {1, 1, 1}, g.camera(0.7f, 0.1f, 100.0f));
  g.roots = {g.node(g.mesh(p, n, uv, idx, -1), {0.0f, 0.0f, -4.0f}), g.node(-1, {0.0f, 0.0f, 3e38f}, {1, 1, 1}, -1, {camera})};
  g.write(dir / "far_camera.gltf");
  const GltfScene far = loadGltfScene(dir / "far_camera.gltf");
  EXPECT_TRUE(std::isfinite(far.focalDistance) && std::isfinite(far.scene.camera.distance));
  EXPECT_NE(far.cameraNote.find("no finite place"), std::string::npos) << far.cameraNote;

  content_files::writeExr(dir / "whole.exr", 8, 6, std::vector<float>(48, 3.0f));
  std::ifstream in(dir / "whole.exr", std::ios::binary);
  const std::string exr((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Cut inside the header: tinyexr's message ends in a newline.
  content_files::writeBytes(dir / "cut.exr", exr.substr(0, 40));
  // The data window's min_x set to INT_MIN: the width overflows an int.
  std::string overflow = exr;
  const std::size_t window = overflow.find("dataWindow");
  ASSERT_NE(window, std::string::npos);
  const std::size_t minX = window + std::strlen("dataWindow") + 1 + std::strlen("box2i") + 1 + 4;
  overflow.replace(minX, 4, std::string("\x00\x00\x00\x80", 4));
  content_files::writeBytes(dir / "overflow.exr", overflow);
  for (const char* file : {"cut.exr", "overflow.exr"}) {
    SCOPED_TRACE(file);
    const std::string e = errorOf([&] { readDepthImage(dir / file); });
    EXPECT_NE(e, "");
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find(std::string(file) + "': "), std::string::npos) << e;
  }
  EXPECT_NE(errorOf([&] { readDepthImage(dir / "overflow.exr"); }).find("a side must be 1 to 16384"), std::string::npos);

  // Headers the EXR decoder would abort on rather than refuse: each is one line instead.
  std::string tiled = exr;
  tiled[5] = char(tiled[5] | 0x02);  // the version's "tiled" flag
  content_files::writeBytes(dir / "tiled.exr", tiled);
  std::string typed = exr;
  typed.insert(8, std::string("type\0string\0\x0a\0\0\0tiledimage", 26));
  content_files::writeBytes(dir / "typed.exr", typed);
  std::string pixelType = exr;
  const std::size_t channels = pixelType.find("chlist");
  ASSERT_NE(channels, std::string::npos);
  const std::size_t firstName = channels + std::strlen("chlist") + 1 + 4;
  pixelType[firstName + std::strlen(pixelType.c_str() + firstName) + 1] = 7;  // the first channel's type (LE int)
  content_files::writeBytes(dir / "pixel_type.exr", pixelType);
  const std::pair<const char*, const char*> refused[] = {
      {"tiled.exr", "is a tiled OpenEXR file"},
      {"typed.exr", "is an OpenEXR image of type 'tiledimage': a depth map is read from a scanline image"},
      {"pixel_type.exr", "has channel 0 of pixel type 7: not uint, half or float"},
  };
  for (const auto& [file, words] : refused) {
    SCOPED_TRACE(file);
    const std::string e = errorOf([&] { readDepthImage(dir / file); });
    EXPECT_NE(e.find(std::string(file) + "': " + words), std::string::npos) << e;
  }

  // Files too short to hold a header are refused without leaving one open.
  content_files::writeBytes(dir / "short.exr", "v/1");
  content_files::writeBytes(dir / "short.png", "\x89P");
  const auto openFiles = [] { return std::distance(fs::directory_iterator("/proc/self/fd"), fs::directory_iterator()); };
  const auto before = openFiles();
  for (int i = 0; i < 20; ++i) {
    EXPECT_NE(errorOf([&] { readDepthImage(dir / "short.exr"); }), "");
    EXPECT_NE(errorOf([&] { readColourImage(dir / "short.png"); }), "");
    EXPECT_FALSE(looksLikeImage(dir / "short.exr"));
  }
  EXPECT_EQ(openFiles(), before);

  // A PNG whose data chunk states 2 GiB less a MiB, in a file of a few hundred bytes: refused
  // before a decoder grows a buffer to the stated length.
  content_files::writePng8(dir / "small.png", 16, 8, 1, std::vector<std::uint8_t>(16 * 8, 7));
  std::ifstream pngIn(dir / "small.png", std::ios::binary);
  std::string png((std::istreambuf_iterator<char>(pngIn)), std::istreambuf_iterator<char>());
  ASSERT_EQ(png.substr(12, 4), "IHDR");
  png.insert(8 + 25, std::string("\x7f\xf0\x00\x00IDAT\x78\x9c", 10));
  content_files::writeBytes(dir / "long_chunk.png", png);
  const std::string depthError = errorOf([&] { readDepthImage(dir / "long_chunk.png"); });
  EXPECT_NE(depthError.find("long_chunk.png': is a broken PNG: its chunk at byte 33 states 2146435072 bytes"),
            std::string::npos)
      << depthError;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(png.data());
  const std::string colourError = errorOf([&] { decodeColourImage("embedded.png", bytes, png.size()); });
  EXPECT_NE(colourError.find("embedded.png': is a broken PNG"), std::string::npos) << colourError;
  EXPECT_EQ(readDepthImage(dir / "small.png").values, std::vector<float>(16 * 8, 7.0f));
}

TEST_F(ContentFiles, DroppedFilesFindTheirDepthMapsBesideThem) {
  writePhoto("beach", 8, 8, "inverse16");
  writePhoto("room", 8, 8, "exr");
  fs::rename(dir / "room_depth.exr", dir / "room.depth.exr");
  writePhoto("lonely", 8, 8, "none");
  content_files::writeTestGltf(dir / "s.gltf", false);
  content_files::writeBytes(dir / "notes.txt", "hello");
  const DepthMapping m{DepthEncoding::Inverse, 2, 12, true};
  EXPECT_EQ(dropRequest({dir / "beach.png"}, m).depth, dir / "beach_depth.png");
  EXPECT_EQ(dropRequest({dir / "room.png"}, m).depth, dir / "room.depth.exr");
  const ContentRequest fromDepth = dropRequest({dir / "beach_depth.png"}, m);
  EXPECT_EQ(fromDepth.photo, dir / "beach.png");
  EXPECT_EQ(fromDepth.depthMapping.encoding, DepthEncoding::Inverse);
  const ContentRequest both = dropRequest({dir / "room.depth.exr", dir / "beach.png"}, m);
  EXPECT_EQ(both.photo, dir / "beach.png");
  EXPECT_EQ(both.depth, dir / "room.depth.exr");
  EXPECT_EQ(dropRequest({dir / "s.gltf"}, m).scene, (dir / "s.gltf").string());
  const std::string lonely = errorOf([&] { dropRequest({dir / "lonely.png"}, m); });
  EXPECT_NE(lonely.find("lonely.png': has no depth map beside it (lonely_depth.png or lonely.depth.png)"),
            std::string::npos) << lonely;
  EXPECT_NE(errorOf([&] { dropRequest({dir / "notes.txt"}, m); }).find("is neither a glTF scene"), std::string::npos);
  EXPECT_NE(errorOf([&] { dropRequest({dir / "gone.png"}, m); }).find("no such file"), std::string::npos);
  // What a drop loads: the photo's size, its summary.
  const Content c = loadContent(dropRequest({dir / "beach.png"}, m));
  EXPECT_EQ(c.kind, ContentKind::Photo);
  EXPECT_EQ(c.summary.front(), "photo beach.png, 8x8");
  const Content s = loadContent({(dir / "s.gltf").string(), {}, {}, {}});
  EXPECT_EQ(s.kind, ContentKind::Gltf);
  EXPECT_EQ(s.summary[1].rfind("48 triangles", 0), 0u) << s.summary[1];
}

}  // namespace

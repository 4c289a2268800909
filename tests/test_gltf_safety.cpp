// tests/test_gltf_safety.cpp — hostile glTF files (engine/content/gltf_scene.h) end in one
// ContentError line naming the problem, quickly, reading nothing outside the glTF's folder:
// accessor counts, strides and offsets that overflow or wrap, an image bufferView past its
// buffer, JSON nested hundreds of thousands deep, uris that climb out of the folder (../,
// %2e%2e/, absolute, file:, a symlink), a FIFO or /dev/zero as a buffer, node graphs with
// exponentially many paths, a cycle or 200,000 roots, a cut-short .glb. A secret file
// beside the glTF's folder holds a valid triangle: a load that used it would succeed.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/content/content_error.h"
#include "engine/content/gltf_scene.h"
#include "content_files.h"

namespace {

namespace fs = std::filesystem;
using namespace satdof::content;

// One triangle's positions: 3 x VEC3 float, 36 bytes.
std::string triangleBytes() {
  const float p[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  return std::string(reinterpret_cast<const char*>(p), sizeof p);
}

// A glTF of one triangle: buffer 0 at `uri` (36 bytes), bufferView 0 over it, accessor 0
// its positions, mesh 0 placed by node 0; each part replaceable, `more` added at the top.
struct Triangle {
  std::string uri = "data:application/octet-stream;base64," + content_files::base64(triangleBytes());
  std::string buffers;  // replaces the buffer list when set
  std::string view = R"({"buffer":0,"byteLength":36})";
  std::string accessor = R"({"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"})";
  std::string nodes = R"([{"mesh":0}])";
  std::string roots = "[0]";
  std::string more;

  std::string json() const {
    return R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":)" + roots + R"(}],"nodes":)" + nodes +
           R"(,"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"accessors":[)" + accessor +
           R"(],"bufferViews":[)" + view + "],\"buffers\":" +
           (buffers.empty() ? R"([{"byteLength":36,"uri":")" + uri + "\"}]" : buffers) + more + "}";
  }
};

using content_files::glb;

class GltfSafety : public ::testing::Test {
 protected:
  content_files::TempFolder folder{"satdof_test_gltf_safety"};
  // The glTF files live in scene/; beside it, outside, the secret: a valid triangle.
  const fs::path dir = folder.path / "scene";
  const fs::path secret = folder.path / "secret.bin";

  void SetUp() override {
    fs::create_directories(dir);
    content_files::writeBytes(secret, triangleBytes());
  }

  // The message of the ContentError loading `file` throws ("" when it loads), and how long it took.
  std::string errorOf(const fs::path& file, double* seconds = nullptr) const {
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
      loadGltfScene(file);
    } catch (const ContentError& e) {
      message = e.what();
    }
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return message;
  }

  // Writes `json` as dir/name and expects its load to fail with one line holding `words`.
  void expectRefused(const std::string& name, const std::string& json, const std::string& words) const {
    content_files::writeBytes(dir / name, json);
    expectRefusedFile(dir / name, words);
  }

  void expectRefusedFile(const fs::path& file, const std::string& words) const {
    SCOPED_TRACE(file.filename().string());
    const std::string e = errorOf(file);
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find(file.filename().string() + "': "), std::string::npos) << e;
    EXPECT_NE(e.find(words), std::string::npos) << e;
    EXPECT_EQ(e.find("json.exception"), std::string::npos) << e;
    EXPECT_EQ(e.find("File not found"), std::string::npos) << e;
  }
};

TEST_F(GltfSafety, AValidFileWithASubfolderBufferStillLoads) {
  fs::create_directories(dir / "bin");
  content_files::writeBytes(dir / "bin" / "mesh.bin", triangleBytes());
  fs::create_symlink("bin/mesh.bin", dir / "link.bin");  // a symlink that stays inside
  Triangle t;
  t.uri = "bin/mesh.bin";
  content_files::writeBytes(dir / "sub.gltf", t.json());
  EXPECT_EQ(loadGltfScene(dir / "sub.gltf").triangles, 1u);
  t.uri = "bin%2Fmesh.bin";
  content_files::writeBytes(dir / "encoded.gltf", t.json());
  EXPECT_EQ(loadGltfScene(dir / "encoded.gltf").triangles, 1u);
  t.uri = "link.bin";
  content_files::writeBytes(dir / "link.gltf", t.json());
  EXPECT_EQ(loadGltfScene(dir / "link.gltf").triangles, 1u);
  // A city's worth of instances: one mesh placed 500 times, within every limit.
  t.uri = "bin/mesh.bin";
  std::string roots;
  for (int i = 0; i < 500; ++i) roots += (i ? ",0" : "0");
  t.roots = "[" + roots + "]";
  content_files::writeBytes(dir / "city.gltf", t.json());
  EXPECT_EQ(loadGltfScene(dir / "city.gltf").scene.instances.size(), 500u);
  content_files::writeTestGltf(dir / "boxes.glb", false);  // its image in a bufferView
  EXPECT_EQ(loadGltfScene(dir / "boxes.glb").scene.textures.size(), 1u);
}

// count x 12 wraps to a few bytes: the positions' vector was sized by the wrapped product
// and written past its end.
TEST_F(GltfSafety, AccessorCountTimesStrideThatOverflowsIsRefused) {
  Triangle t;
  t.view = R"({"buffer":0,"byteLength":36,"byteStride":12})";
  t.accessor = R"({"bufferView":0,"componentType":5126,"count":6148914691236517206,"type":"VEC3"})";
  expectRefused("count.gltf", t.json(), "accessor 0: ");
  t.accessor = R"({"bufferView":0,"componentType":5126,"count":1537228672809129303,"type":"VEC3"})";
  expectRefused("count2.gltf", t.json(), "accessor 0: ");
}

// Offsets near 2^64: start + length wrapped to a small number and passed, the read landed
// before the buffer.
TEST_F(GltfSafety, OffsetsThatWrapPast2To64AreRefused) {
  Triangle t;
  t.accessor = R"({"bufferView":0,"byteOffset":18446744073709551604,"componentType":5126,"count":1,"type":"VEC3"})";
  expectRefused("accessor_offset.gltf", t.json(), "accessor 0: ");
  t = Triangle();
  t.view = R"({"buffer":0,"byteOffset":18446744073709551604,"byteLength":48})";
  expectRefused("view_offset.gltf", t.json(), "bufferView 0");
  t = Triangle();
  t.view = R"({"buffer":0,"byteLength":36,"byteStride":4})";  // overlapping elements
  expectRefused("stride.gltf", t.json(), "stride");
}

// tinygltf hands the image loader &buffer[byteOffset] unchecked: 2^40 bytes past a 36-byte buffer.
TEST_F(GltfSafety, AnImageBufferViewPastItsBufferIsRefused) {
  Triangle t;
  t.view = R"({"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":1099511627776,"byteLength":100})";
  t.more = R"(,"images":[{"bufferView":1,"mimeType":"image/png"}])";
  expectRefused("image_view.gltf", t.json(), "bufferView 1");
  t.view = R"({"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":30,"byteLength":18446744073709551615})";
  expectRefused("image_length.gltf", t.json(), "bufferView 1");
}

// 300,000 '[' in extras: the JSON parser's recursion overflowed the stack.
TEST_F(GltfSafety, JsonNestedDeeplyIsRefusedBeforeParsing) {
  Triangle t;
  t.more = ",\"extras\":" + std::string(300000, '[') + std::string(300000, ']');
  expectRefused("deep.gltf", t.json(), "deeper than");
  content_files::writeBytes(dir / "deep.glb", glb(t.json(), ""));
  expectRefusedFile(dir / "deep.glb", "deeper than");
  // Brackets inside strings are not nesting.
  t.more = ",\"extras\":{\"s\":\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"}";
  content_files::writeBytes(dir / "brackets_in_strings.gltf", t.json());
  EXPECT_EQ(loadGltfScene(dir / "brackets_in_strings.gltf").triangles, 1u);
}

TEST_F(GltfSafety, UrisLeavingTheFolderAreRefused) {
  fs::create_symlink(secret, dir / "link_out.bin");
  fs::create_symlink(folder.path, dir / "up");
  const std::pair<std::string, std::string> cases[] = {
      {"../secret.bin", "leads out of the glTF's folder"},
      {"%2e%2e/secret.bin", "leads out of the glTF's folder"},
      {"%2E%2E%2Fsecret.bin", "leads out of the glTF's folder"},
      {"sub/../../secret.bin", "leads out of the glTF's folder"},
      {secret.string(), "absolute path"},
      {"file://" + secret.string(), "scheme 'file:'"},
      {"link_out.bin", "leads out of the glTF's folder"},
      {"up/secret.bin", "leads out of the glTF's folder"},
      {"/dev/zero", "absolute path"},
  };
  int i = 0;
  for (const auto& [uri, words] : cases) {
    Triangle t;
    t.uri = uri;
    expectRefused("out" + std::to_string(i) + ".gltf", t.json(), words);
    expectRefused("out_named" + std::to_string(i++) + ".gltf", t.json(), "uri ");
  }
  // An image uri out of the folder too (the secret a valid PNG there).
  content_files::writePng8(folder.path / "secret.png", 2, 2, 4, std::vector<std::uint8_t>(16, 200));
  Triangle t;
  t.more = R"(,"images":[{"uri":"../secret.png"}])";
  expectRefused("image_out.gltf", t.json(), "leads out of the glTF's folder");
  // Not even the working folder is tried for a uri missing from the glTF's.
  const fs::path before = fs::current_path();
  fs::current_path(folder.path);
  t = Triangle();
  t.uri = "secret.bin";
  expectRefused("cwd.gltf", t.json(), "no such file");
  fs::current_path(before);
}

TEST_F(GltfSafety, AMissingBufferIsNamed) {
  Triangle t;
  t.uri = "gone.bin";
  expectRefused("missing.gltf", t.json(), "'gone.bin': no such file");
}

// A FIFO (and /dev/zero through a symlink) as a buffer: opening or reading them hung.
TEST_F(GltfSafety, AFifoOrDeviceAsABufferIsRefusedWithoutWaiting) {
  ASSERT_EQ(::mkfifo((dir / "pipe.bin").c_str(), 0600), 0);
  Triangle t;
  t.uri = "pipe.bin";
  double seconds = 0;
  content_files::writeBytes(dir / "fifo.gltf", t.json());
  const std::string e = errorOf(dir / "fifo.gltf", &seconds);
  EXPECT_NE(e.find("'pipe.bin': is not a regular file"), std::string::npos) << e;
  EXPECT_LT(seconds, 5.0);
  fs::create_symlink("/dev/zero", dir / "zero.bin");
  t.uri = "zero.bin";
  expectRefused("zero.gltf", t.json(), "zero.bin");
  // The glTF itself a FIFO.
  ASSERT_EQ(::mkfifo((dir / "pipe.gltf").c_str(), 0600), 0);
  EXPECT_NE(errorOf(dir / "pipe.gltf", &seconds).find("is not a regular file"), std::string::npos);
  EXPECT_LT(seconds, 5.0);
}

// 41 nodes, each naming the next twice: 2^40 paths to the last (the mesh).
TEST_F(GltfSafety, ANodeGraphWithExponentiallyManyPathsEndsQuickly) {
  std::string nodes;
  for (int i = 0; i < 40; ++i) nodes += "{\"children\":[" + std::to_string(i + 1) + "," + std::to_string(i + 1) + "]},";
  Triangle t;
  t.nodes = "[" + nodes + "{\"mesh\":0}]";
  content_files::writeBytes(dir / "dag.gltf", t.json());
  double seconds = 0;
  const std::string e = errorOf(dir / "dag.gltf", &seconds);
  EXPECT_NE(e.find("more than"), std::string::npos) << e;
  EXPECT_LT(seconds, 5.0);
}

TEST_F(GltfSafety, ANodeCycleIsNamed) {
  Triangle t;
  t.nodes = R"([{"children":[1]},{"mesh":0,"children":[2]},{"children":[1]}])";
  expectRefused("cycle.gltf", t.json(), "node 1 is its own ancestor");
}

TEST_F(GltfSafety, TwoHundredThousandRootsEndQuickly) {
  std::string roots;
  for (int i = 0; i < 200000; ++i) roots += (i ? ",0" : "0");
  Triangle t;
  t.roots = "[" + roots + "]";
  content_files::writeBytes(dir / "roots.gltf", t.json());
  double seconds = 0;
  const std::string e = errorOf(dir / "roots.gltf", &seconds);
  EXPECT_NE(e.find("more than"), std::string::npos) << e;
  EXPECT_LT(seconds, 5.0);
}

TEST_F(GltfSafety, ACutShortGlbStatesItsByteCounts) {
  Triangle t;
  t.buffers = R"([{"byteLength":36}])";
  const std::string whole = glb(t.json(), triangleBytes());
  content_files::writeBytes(dir / "whole.glb", whole);
  EXPECT_EQ(loadGltfScene(dir / "whole.glb").triangles, 1u);
  content_files::writeBytes(dir / "cut.glb", whole.substr(0, whole.size() - 20));
  expectRefusedFile(dir / "cut.glb", "is cut short: its header states " + std::to_string(whole.size()) + " bytes, the file has " +
                                         std::to_string(whole.size() - 20));
  // The BIN chunk's length reaching 8 bytes past the file (tinygltf forgot its chunk header).
  std::string bin = whole;
  const std::size_t binAt = 20 + (t.json().size() + 3) / 4 * 4;
  bin[binAt] = char(36 + 8);
  content_files::writeBytes(dir / "bin.glb", bin);
  expectRefusedFile(dir / "bin.glb", "BIN chunk");
}

// The JSON parser's and the standard library's own texts never reach the user.
TEST_F(GltfSafety, LibraryTextsBecomeOnePlainLine) {
  expectRefused("garbage.gltf", "{\"asset\": [1, 2,, 3]}", "is not valid JSON (at byte 17)");
  Triangle t;
  t.accessor = R"({"bufferView":0,"componentType":5126,"count":4611686018427387904,"type":"VEC3"})";
  expectRefused("huge.gltf", t.json(), "accessor 0: ");
}

}  // namespace

// fuzz/fuzz_gltf.cpp — loadGltfScene (engine/content/gltf_scene.h) on fuzzer bytes, by the
// first byte (mod 3):
//   0  the bytes as a .glb          1  the bytes as a .gltf
//   2  a .gltf (or .glb) generated from the bytes, so that mutations reach the loader's
//      checks rather than the JSON parser's: buffers (a base64 data: uri of the bytes, or a
//      uri from a list of good and hostile ones), bufferViews and accessors whose offsets,
//      lengths, strides and counts come from the bytes (values near 2^32 and 2^64 likely),
//      meshes, images, textures, a node graph (children, roots, repeats) and nested extras.
// The files are written in a folder of this process's own beside what uris may name: a
// triangle "mesh.bin" (and sub/mesh.bin), a 1x1 PNG "tex.png", a FIFO "pipe", a symlink
// "out.bin" to a secret file outside the folder and "up" to the folder above. The secret's
// positions are 1234567: a scene that holds one has read outside the folder.
// FUZZ_GLTF_SHOW=1 prints each file made and what the loader said.
// Checks: a file refused is one ContentError line naming the file; a scene accepted has
// triangles, instances naming existing meshes and textures, indices inside their meshes,
// finite focus, and nothing of the secret.
#include <fuzzer/FuzzedDataProvider.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/content/content_error.h"
#include "engine/content/gltf_scene.h"
#include "fuzz_check.h"

namespace {

namespace fs = std::filesystem;

constexpr float kSecret = 1234567.0f;

void writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string triangle(float v) {
  const float p[9] = {v, 0, 0, v + 1, 0, 0, v, 1, 0};
  return std::string(reinterpret_cast<const char*>(p), sizeof p);
}

// The folder the glTF files are written in, and what is around it; removed at exit. In
// memory (/dev/shm) where there is one: truncating a file on disk costs milliseconds a run.
struct Folder {
  fs::path root = (fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path()) /
                  ("fuzz_gltf_" + std::to_string(::getpid()));
  fs::path dir = root / "scene";
  Folder() {
    fs::remove_all(root);
    fs::create_directories(dir / "sub");
    writeFile(root / "secret.bin", triangle(kSecret));
    writeFile(dir / "mesh.bin", triangle(0));
    writeFile(dir / "sub" / "mesh.bin", triangle(2));
    writeFile(dir / "tex.png", std::string("\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01"
                                           "\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41"
                                           "\x54\x78\x9c\x63\x38\x91\x62\xf4\x1f\x00\x05\xb4\x02\x5e\x1f\x3a\xfb\xcb\x00\x00"
                                           "\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
                                           70));
    ::mkfifo((dir / "pipe").c_str(), 0600);
    fs::create_symlink(root / "secret.bin", dir / "out.bin");
    fs::create_symlink(root, dir / "up");
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

std::string base64(const std::string& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    std::uint32_t v = std::uint32_t(std::uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) v |= std::uint32_t(std::uint8_t(in[i + 1])) << 8;
    if (i + 2 < in.size()) v |= std::uint8_t(in[i + 2]);
    out += k[v >> 18 & 63];
    out += k[v >> 12 & 63];
    out += i + 1 < in.size() ? k[v >> 6 & 63] : '=';
    out += i + 2 < in.size() ? k[v & 63] : '=';
  }
  return out;
}

std::string list(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ",") + i;
  return "[" + s + "]";
}

// ---- The generator.
class Generator {
 public:
  explicit Generator(FuzzedDataProvider& f) : f_(f) {}

  // A count, offset, length or stride: small, an edge (near 2^31, 2^32, 2^63, 2^64, or
  // where a product by 3 or 12 wraps), an edge nudged down, or any 64-bit number.
  std::string number() {
    static constexpr std::uint64_t kEdges[] = {0, 1, 2, 3, 4, 8, 12, 16, 24, 36, 48, 252, 256, 65535, 65536,
                                               0x7fffffffull, 0x80000000ull, 0xffffffffull, 0x100000000ull, 1ull << 40,
                                               1ull << 62, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                               0xfffffffffffffff4ull, 0xffffffffffffffffull, 6148914691236517206ull,
                                               1537228672809129303ull};
    const int kind = f_.ConsumeIntegralInRange<int>(0, 9);  // 0 when the bytes run out
    if (kind < 4) return std::to_string(f_.PickValueInArray(kEdges));
    if (kind < 6) return std::to_string(f_.PickValueInArray(kEdges) - f_.ConsumeIntegralInRange<std::uint64_t>(0, 16));
    if (kind < 8) return std::to_string(f_.ConsumeIntegralInRange<std::uint64_t>(0, 64));
    if (kind < 9) return std::to_string(f_.ConsumeIntegral<std::uint64_t>());
    return f_.ConsumeBool() ? "-1" : "1.5";
  }
  // An index into `count` things, sometimes -1 or one past the end (0 when the bytes run out).
  int index(int count) {
    const int i = f_.ConsumeIntegralInRange<int>(0, count + 1);
    return i == count + 1 ? -1 : i;
  }

  std::string uri() {
    static const char* kUris[] = {"mesh.bin", "sub/mesh.bin", "sub%2Fmesh.bin", "./mesh.bin", "sub/../mesh.bin",
                                  "../secret.bin", "%2e%2e/secret.bin", "out.bin", "up/secret.bin", "pipe",
                                  "/dev/zero", "file:///etc/passwd", "http://example.com/a.bin", "data:foo", "",
                                  "sub", ".", "missing.bin", "~/a.bin", "mesh.bin%00x", "tex.png", "%2Fetc%2Fpasswd",
                                  "sub/../../secret.bin", "up"};
    return f_.PickValueInArray(kUris);
  }

  std::string json(std::string* bin) {
    std::vector<std::string> buffers, views, accessors, meshes, nodes, images, textures, materials;
    for (int i = f_.ConsumeIntegralInRange<int>(1, 2); i > 0; --i) {
      const int kind = f_.ConsumeIntegralInRange<int>(0, 2);
      const std::string bytes = f_.ConsumeBytesAsString(f_.ConsumeIntegralInRange<std::size_t>(0, 96));
      const std::string length = !f_.ConsumeBool() ? std::to_string(kind == 0 ? 36 : bytes.size()) : number();
      if (kind == 1)
        buffers.push_back("{\"byteLength\":" + length + ",\"uri\":\"data:application/octet-stream;base64," + base64(bytes) +
                          "\"}");
      if (kind == 0) buffers.push_back("{\"byteLength\":" + length + ",\"uri\":\"" + uri() + "\"}");
      if (kind == 2) {  // the GLB's BIN chunk (a .gltf refuses it)
        buffers.push_back("{\"byteLength\":" + length + "}");
        if (bin->empty()) *bin = bytes;
      }
    }
    for (int i = f_.ConsumeIntegralInRange<int>(1, 4); i > 0; --i)
      views.push_back("{\"buffer\":" + std::to_string(index(int(buffers.size()))) + ",\"byteOffset\":" +
                      (f_.ConsumeBool() ? "0" : number()) + ",\"byteLength\":" + (!f_.ConsumeBool() ? "36" : number()) +
                      (f_.ConsumeBool() ? ",\"byteStride\":" + number() : "") + "}");
    static const char* kTypes[] = {"VEC3", "VEC2", "SCALAR", "VEC4", "MAT4"};
    static const int kComponents[] = {5126, 5126, 5125, 5123, 5121, 5120, 5122, 5124, 0};
    for (int i = f_.ConsumeIntegralInRange<int>(1, 5); i > 0; --i)
      accessors.push_back("{\"bufferView\":" + std::to_string(index(int(views.size()))) + ",\"byteOffset\":" +
                          (f_.ConsumeBool() ? "0" : number()) + ",\"componentType\":" +
                          std::to_string(f_.PickValueInArray(kComponents)) + ",\"normalized\":" +
                          (f_.ConsumeBool() ? "true" : "false") + ",\"count\":" + (!f_.ConsumeBool() ? "3" : number()) +
                          ",\"type\":\"" + f_.PickValueInArray(kTypes) + "\"" +
                          (f_.ConsumeIntegralInRange<int>(0, 15) == 15
                               ? R"(,"sparse":{"count":1,"indices":{"bufferView":0,"componentType":5125},"values":{"bufferView":0}})"
                               : "") + "}");
    for (int i = f_.ConsumeIntegralInRange<int>(0, 2); i > 0; --i)
      images.push_back(f_.ConsumeBool() ? "{\"uri\":\"" + uri() + "\"}"
                                        : "{\"bufferView\":" + std::to_string(index(int(views.size()))) + ",\"mimeType\":\"image/png\"}");
    if (!images.empty()) {
      textures.push_back("{\"source\":" + std::to_string(index(int(images.size()))) + "}");
      materials.push_back("{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}");
    }
    const int accessorCount = int(accessors.size());
    for (int i = f_.ConsumeIntegralInRange<int>(1, 3); i > 0; --i) {
      std::string p = "{\"attributes\":{\"POSITION\":" + std::to_string(index(accessorCount));
      if (f_.ConsumeBool()) p += ",\"NORMAL\":" + std::to_string(index(accessorCount));
      if (f_.ConsumeBool()) p += ",\"TEXCOORD_0\":" + std::to_string(index(accessorCount));
      p += "}";
      if (f_.ConsumeBool()) p += ",\"indices\":" + std::to_string(index(accessorCount));
      if (f_.ConsumeBool()) p += ",\"mode\":" + std::to_string(f_.ConsumeIntegralInRange<int>(0, 7));
      if (!materials.empty() && f_.ConsumeBool()) p += ",\"material\":0";
      meshes.push_back("{\"primitives\":[" + p + "}]}");
    }
    const int nodeCount = f_.ConsumeIntegralInRange<int>(1, 12);
    for (int i = 0; i < nodeCount; ++i) {
      std::string n = "{";
      if (!f_.ConsumeBool()) n += "\"mesh\":" + std::to_string(index(int(meshes.size()))) + ",";
      if (f_.ConsumeIntegralInRange<int>(0, 7) == 0) n += "\"camera\":0,";
      if (f_.ConsumeBool()) n += "\"translation\":[" + number() + ",0,-3],";
      std::vector<std::string> children;
      for (int c = f_.ConsumeIntegralInRange<int>(0, 3); c > 0; --c) children.push_back(std::to_string(index(nodeCount)));
      nodes.push_back(n + "\"children\":" + list(children) + "}");
    }
    std::vector<std::string> roots;
    for (int r = f_.ConsumeIntegralInRange<int>(1, 4); r > 0; --r) roots.push_back(std::to_string(index(nodeCount)));
    if (f_.ConsumeIntegralInRange<int>(0, 127) == 127)  // many roots: the instance limit (slow to parse: rare)
      roots.insert(roots.end(), f_.ConsumeIntegralInRange<std::size_t>(0, 110000), "0");
    const int depth = f_.ConsumeIntegralInRange<int>(0, 15) == 15 ? f_.ConsumeIntegralInRange<int>(0, 600) : 1;
    std::string j = "{\"asset\":{\"version\":\"2.0\",\"extras\":" + std::string(std::size_t(depth), '[') +
                    std::string(std::size_t(depth), ']') + "},\"scene\":0,\"scenes\":[{\"nodes\":" + list(roots) +
                    "}],\"nodes\":" + list(nodes) + ",\"meshes\":" + list(meshes) + ",\"accessors\":" + list(accessors) +
                    ",\"bufferViews\":" + list(views) + ",\"buffers\":" + list(buffers) +
                    ",\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.7,\"znear\":0.1}}]";
    if (!images.empty()) j += ",\"images\":" + list(images) + ",\"textures\":" + list(textures) + ",\"materials\":" + list(materials);
    return j + "}";
  }

 private:
  FuzzedDataProvider& f_;
};

std::string glbOf(std::string json, std::string bin) {
  while (json.size() % 4) json += ' ';
  while (bin.size() % 4) bin += '\0';
  std::string out = "glTF";
  auto le32 = [&](std::size_t v) {
    for (int s = 0; s < 32; s += 8) out += char((v >> s) & 0xff);
  };
  le32(2);
  le32(20 + json.size() + (bin.empty() ? 0 : 8 + bin.size()));
  le32(json.size());
  out += "JSON" + json;
  if (!bin.empty()) {
    le32(bin.size());
    out += std::string("BIN\0", 4) + bin;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Folder folder;
  if (size == 0) return 0;
  fs::path file;
  if (data[0] % 3 == 2) {
    FuzzedDataProvider f(data + 1, size - 1);
    Generator g(f);
    const bool glb = f.ConsumeBool();
    std::string bin;
    const std::string json = g.json(&bin);
    file = folder.dir / (glb ? "made.glb" : "made.gltf");
    writeFile(file, glb ? glbOf(json, bin) : json);
  } else {
    file = folder.dir / (data[0] % 3 == 0 ? "fuzz_gltf.glb" : "fuzz_gltf.gltf");
    writeFile(file, std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  }
  const float secret = kSecret;  // its bytes in the input itself: a data: buffer may hold them
  const bool secretInInput = std::string_view(reinterpret_cast<const char*>(data), size)
                                 .find(std::string_view(reinterpret_cast<const char*>(&secret), 4)) != std::string_view::npos;
  static const bool show = std::getenv("FUZZ_GLTF_SHOW") != nullptr;  // each input's file and outcome, to stderr
  if (show) {
    std::ifstream in(file, std::ios::binary);
    std::fprintf(stderr, "%s\n", std::string(std::istreambuf_iterator<char>(in), {}).substr(0, 2000).c_str());
  }
  try {
    const satdof::content::GltfScene g = satdof::content::loadGltfScene(file);
    if (show) std::fprintf(stderr, "-> %zu triangles\n", g.triangles);
    const satdof::scene::Scene& s = g.scene;
    FUZZ_CHECK(g.triangles > 0 && !s.instances.empty());
    FUZZ_CHECK(s.instances.size() <= satdof::content::kMaxInstances);
    for (const satdof::scene::Instance& i : s.instances) {
      FUZZ_CHECK(i.mesh >= 0 && std::size_t(i.mesh) < s.meshes.size());
      FUZZ_CHECK(i.texture >= -1 && i.texture < int(s.textures.size()));
    }
    for (const satdof::scene::Mesh& m : s.meshes) {
      for (std::uint32_t index : m.indices) FUZZ_CHECK(index < m.vertices.size());
      for (const satdof::scene::Vertex& v : m.vertices)
        FUZZ_CHECK(v.position.x != kSecret || secretInInput);  // else it was read outside the folder
    }
    for (const satdof::scene::Texture& t : s.textures)
      FUZZ_CHECK(t.rgba.size() == std::size_t(t.width) * std::size_t(t.height) * 4);
    FUZZ_CHECK(std::isfinite(g.focalDistance) && std::isfinite(g.focalRange));
  } catch (const satdof::content::ContentError& e) {
    const std::string what = e.what();
    if (show) std::fprintf(stderr, "-> %s\n", what.c_str());
    FUZZ_CHECK(what.find('\n') == std::string::npos);
    FUZZ_CHECK(what.find(file.filename().string()) != std::string::npos);  // names the file
    FUZZ_CHECK(what.find("json.exception") == std::string::npos && what.find("File not found") == std::string::npos);
  }
  return 0;
}

// tests/content_files.h — the user's kind of content, made by the tests themselves (no binary
// assets): glTF 2.0 files (.gltf with an embedded base64 buffer and PNG, or .glb), an RGB-D
// photo of a procedural scene (colour PNG; depth as a 16-bit or 8-bit PNG, or a float
// OpenEXR), and the broken files the loaders must refuse. Shared by test_content.cpp,
// test_app_content.cpp and satdof-make-content (the GPU measurement's 1M-triangle scene
// and 24-megapixel photo, scripts/content-perf).
#pragma once

#include <stb/stb_image_write.h>
#include <tinyexr.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace content_files {

namespace fs = std::filesystem;

// A test's own folder under the system's temporary folder (NAME_PID), empty when made and
// removed with it.
struct TempFolder {
  fs::path path;
  explicit TempFolder(const std::string& name)
      : path(fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
};

inline void writeBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// ---- PNG: 8-bit through stb_image_write; 16-bit grey (which stb cannot write) by hand.
inline void writePng8(const fs::path& path, int w, int h, int channels, const std::vector<std::uint8_t>& pixels) {
  if (!stbi_write_png(path.c_str(), w, h, channels, pixels.data(), w * channels))
    throw std::runtime_error("cannot write " + path.string());
}

inline void appendChunk(std::string& png, const char* type, const std::string& data) {
  auto be32 = [&](std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) png += char((v >> s) & 0xff);
  };
  be32(std::uint32_t(data.size()));
  const std::string body = std::string(type, 4) + data;
  png += body;
  be32(std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(body.data()), uInt(body.size()))));
}

inline std::string ihdr(std::uint32_t w, std::uint32_t h, int bits, int colourType) {
  std::string d;
  for (std::uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8) d += char((v >> s) & 0xff);
  d += char(bits);
  d += char(colourType);
  d += std::string(3, '\0');  // deflate, adaptive filtering, no interlace
  return d;
}

inline void writePng16(const fs::path& path, int w, int h, const std::vector<std::uint16_t>& grey) {
  std::string raw;
  raw.reserve(std::size_t(h) * (1 + std::size_t(w) * 2));
  for (int y = 0; y < h; ++y) {
    raw += '\0';  // filter: none
    for (int x = 0; x < w; ++x) {
      const std::uint16_t v = grey[std::size_t(y) * std::size_t(w) + std::size_t(x)];
      raw += char(v >> 8);
      raw += char(v & 0xff);
    }
  }
  uLongf size = compressBound(uLong(raw.size()));
  std::string z(size, '\0');
  compress2(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 6);
  z.resize(size);
  std::string png = "\x89PNG\r\n\x1a\n";
  appendChunk(png, "IHDR", ihdr(std::uint32_t(w), std::uint32_t(h), 16, 0));
  appendChunk(png, "IDAT", z);
  appendChunk(png, "IEND", "");
  writeBytes(path, png);
}

// A PNG whose header claims w x h (8-bit RGBA) with no pixel data behind it: what a reader
// must refuse from the header, before it decodes anything.
inline void writePngHeaderOnly(const fs::path& path, int w, int h) {
  std::string png = "\x89PNG\r\n\x1a\n";
  appendChunk(png, "IHDR", ihdr(std::uint32_t(w), std::uint32_t(h), 8, 6));
  appendChunk(png, "IEND", "");
  writeBytes(path, png);
}

inline void writeExr(const fs::path& path, int w, int h, const std::vector<float>& values) {
  const char* err = nullptr;
  if (SaveEXR(values.data(), w, h, 1, 0, path.c_str(), &err) != TINYEXR_SUCCESS) {
    const std::string why = err ? err : "?";
    FreeEXRErrorMessage(err);
    throw std::runtime_error("cannot write " + path.string() + ": " + why);
  }
}

// ---- A procedural RGB-D photo: a pinhole camera at the origin looking down -z (vertical
// field of view 50 degrees) at a checkered floor (y = -1), a striped back wall (z = -12),
// four spheres at 3, 5.5, 8.5 and 10 m and small bright lamps on the wall. Depth is the
// linear view depth (-z of the hit), as the scene pass writes it: 2.1 m (the floor at the
// bottom edge) to 12 m.
struct Photo {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // sRGB, row 0 the top
  std::vector<float> depth;       // metres, row 0 the top
};

inline constexpr float kPhotoNear = 2.0f, kPhotoFar = 12.0f;  // every depth lies in here

inline Photo makePhoto(int w, int h) {
  struct Sphere {
    float x, y, z, r;
    std::array<float, 3> colour;
    bool lamp;
  };
  const Sphere spheres[] = {{-1.2f, -0.4f, -3.0f, 0.6f, {0.85f, 0.15f, 0.1f}, false},
                            {0.7f, -0.3f, -5.5f, 0.7f, {0.15f, 0.6f, 0.25f}, false},
                            {2.4f, 0.0f, -8.5f, 1.0f, {0.15f, 0.3f, 0.85f}, false},
                            {-2.8f, 0.3f, -10.0f, 1.3f, {0.9f, 0.7f, 0.15f}, false},
                            {-1.0f, 1.6f, -11.8f, 0.07f, {1.0f, 1.0f, 0.95f}, true},
                            {0.8f, 2.2f, -11.8f, 0.07f, {1.0f, 0.95f, 0.9f}, true},
                            {3.6f, 2.5f, -11.8f, 0.07f, {0.95f, 1.0f, 1.0f}, true}};
  Photo p{w, h, std::vector<std::uint8_t>(std::size_t(w) * std::size_t(h) * 3), std::vector<float>(std::size_t(w) * std::size_t(h))};
  const float tanHalf = std::tan(25.0f * 3.14159265f / 180.0f), aspect = float(w) / float(h);
  const std::array<float, 3> light = {-0.4f / 1.2f, 1.0f / 1.2f, 0.6f / 1.2f};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // Ray through the pixel's centre, z = -1 plane.
      const float dx = (2.0f * (float(x) + 0.5f) / float(w) - 1.0f) * tanHalf * aspect;
      const float dy = (1.0f - 2.0f * (float(y) + 0.5f) / float(h)) * tanHalf;
      float t = 12.0f;  // the wall, at z = -12 (t is the view depth: the ray's z is -t)
      std::array<float, 3> colour{}, normal{0, 0, 1};
      bool lamp = false;
      const float u = dx * t, v = dy * t;
      colour = (int(std::floor(u * 1.5f)) % 2 == 0) ? std::array<float, 3>{0.75f, 0.72f, 0.65f}
                                                     : std::array<float, 3>{0.45f, 0.5f, 0.6f};
      if (std::fmod(std::abs(v) * 2.0f, 1.0f) < 0.08f) colour = {0.2f, 0.2f, 0.25f};
      if (dy < 0.0f) {  // the floor
        const float tf = -1.0f / dy;
        if (tf < t) {
          t = tf;
          const float fx = dx * t, fz = -t;
          const bool light = (int(std::floor(fx)) + int(std::floor(fz))) % 2 == 0;
          colour = light ? std::array<float, 3>{0.85f, 0.82f, 0.75f} : std::array<float, 3>{0.25f, 0.28f, 0.35f};
          normal = {0, 1, 0};
        }
      }
      for (const Sphere& s : spheres) {  // |t d - c|^2 = r^2 with d = (dx, dy, -1)
        const float a = dx * dx + dy * dy + 1.0f, b = -2.0f * (dx * s.x + dy * s.y - s.z);
        const float c = s.x * s.x + s.y * s.y + s.z * s.z - s.r * s.r, disc = b * b - 4.0f * a * c;
        if (disc < 0.0f) continue;
        const float ts = (-b - std::sqrt(disc)) / (2.0f * a);
        if (ts > 0.0f && ts < t) {
          t = ts;
          normal = {(dx * t - s.x) / s.r, (dy * t - s.y) / s.r, (-t - s.z) / s.r};
          colour = s.colour;
          lamp = s.lamp;
        }
      }
      const float lambert = std::max(0.0f, normal[0] * light[0] + normal[1] * light[1] + normal[2] * light[2]);
      const std::size_t i = std::size_t(y) * std::size_t(w) + std::size_t(x);
      for (int k = 0; k < 3; ++k) {
        const float linear = lamp ? colour[std::size_t(k)] : colour[std::size_t(k)] * (0.2f + 0.8f * lambert);
        p.rgb[i * 3 + std::size_t(k)] = std::uint8_t(std::lround(255.0f * std::pow(std::clamp(linear, 0.0f, 1.0f), 1.0f / 2.2f)));
      }
      p.depth[i] = t;
    }
  return p;
}

// The photo's depth as a 16-bit inverse map over [kPhotoNear, kPhotoFar] (white near), the
// encoding `--depth-encoding inverse --depth-range 2,12` reads back.
inline std::vector<std::uint16_t> inverseDepth16(const Photo& p) {
  std::vector<std::uint16_t> out(p.depth.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const float v = (1.0f / p.depth[i] - 1.0f / kPhotoFar) / (1.0f / kPhotoNear - 1.0f / kPhotoFar);
    out[i] = std::uint16_t(std::lround(65535.0f * std::clamp(v, 0.0f, 1.0f)));
  }
  return out;
}

// ---- glTF: a JSON document around one binary buffer (embedded as base64 in a .gltf, the
// BIN chunk of a .glb), which the builder fills with accessors.
inline std::string base64(const std::string& bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) | std::uint8_t(bytes[i + 2]);
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const std::uint32_t v = std::uint8_t(bytes[i]) << 16;
    out += {k[v >> 18], k[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8);
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], '='};
  }
  return out;
}

// A .glb of `json` and `bin`, each padded to 4 bytes; no BIN chunk when `bin` is empty.
inline std::string glb(std::string json, std::string bin) {
  while (json.size() % 4) json += ' ';
  while (bin.size() % 4) bin += '\0';
  std::string out;
  auto le32 = [&](std::size_t v) {
    for (int s = 0; s < 32; s += 8) out += char((v >> s) & 0xff);
  };
  out += "glTF";
  le32(2);
  le32(12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size()));
  le32(json.size());
  out += "JSON" + json;
  if (!bin.empty()) {
    le32(bin.size());
    out += std::string("BIN\0", 4) + bin;
  }
  return out;
}

struct GltfBuilder {
  std::string bin;  // the buffer
  std::vector<std::string> views, accessors, meshes, materials, nodes, images, textures, cameras;
  std::vector<int> roots;

  static std::string number(double v) {
    char t[32];
    std::snprintf(t, sizeof t, "%.9g", v);
    return t;
  }
  static std::string list(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : ",") + i;
    return "[" + s + "]";
  }

  int view(const void* data, std::size_t bytes, int target) {
    while (bin.size() % 4) bin += '\0';
    views.push_back("{\"buffer\":0,\"byteOffset\":" + std::to_string(bin.size()) + ",\"byteLength\":" + std::to_string(bytes) +
                    (target ? ",\"target\":" + std::to_string(target) : std::string()) + "}");
    bin.append(static_cast<const char*>(data), bytes);
    return int(views.size()) - 1;
  }

  // A mesh of positions (xyz), optional normals and uvs, uint32 indices; returns its index.
  int mesh(const std::vector<float>& positions, const std::vector<float>& normals, const std::vector<float>& uvs,
           const std::vector<std::uint32_t>& indices, int material) {
    const std::size_t n = positions.size() / 3;
    std::array<float, 3> lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        lo[std::size_t(k)] = std::min(lo[std::size_t(k)], positions[i * 3 + std::size_t(k)]);
        hi[std::size_t(k)] = std::max(hi[std::size_t(k)], positions[i * 3 + std::size_t(k)]);
      }
    auto accessor = [&](int v, std::size_t count, const char* type, int componentType, const std::string& extra) {
      accessors.push_back("{\"bufferView\":" + std::to_string(v) + ",\"componentType\":" + std::to_string(componentType) +
                          ",\"count\":" + std::to_string(count) + ",\"type\":\"" + type + "\"" + extra + "}");
      return int(accessors.size()) - 1;
    };
    std::string attributes = "\"POSITION\":" + std::to_string(accessor(
        view(positions.data(), positions.size() * 4, 34962), n, "VEC3", 5126,
        ",\"min\":[" + number(lo[0]) + "," + number(lo[1]) + "," + number(lo[2]) + "],\"max\":[" + number(hi[0]) + "," +
            number(hi[1]) + "," + number(hi[2]) + "]"));
    if (!normals.empty())
      attributes += ",\"NORMAL\":" + std::to_string(accessor(view(normals.data(), normals.size() * 4, 34962), n, "VEC3", 5126, ""));
    if (!uvs.empty())
      attributes += ",\"TEXCOORD_0\":" + std::to_string(accessor(view(uvs.data(), uvs.size() * 4, 34962), n, "VEC2", 5126, ""));
    const int ind = accessor(view(indices.data(), indices.size() * 4, 34963), indices.size(), "SCALAR", 5125, "");
    meshes.push_back("{\"primitives\":[{\"attributes\":{" + attributes + "},\"indices\":" + std::to_string(ind) +
                     (material >= 0 ? ",\"material\":" + std::to_string(material) : std::string()) + "}]}");
    return int(meshes.size()) - 1;
  }

  int material(std::array<float, 3> base, float metallic, float roughness, int texture = -1) {
    materials.push_back("{\"pbrMetallicRoughness\":{\"baseColorFactor\":[" + number(base[0]) + "," + number(base[1]) + "," +
                        number(base[2]) + ",1],\"metallicFactor\":" + number(metallic) + ",\"roughnessFactor\":" +
                        number(roughness) +
                        (texture >= 0 ? ",\"baseColorTexture\":{\"index\":" + std::to_string(texture) + "}" : std::string()) +
                        "}}");
    return int(materials.size()) - 1;
  }

  // An embedded PNG (in the buffer) as texture; returns the texture's index.
  int texture(int w, int h, const std::vector<std::uint8_t>& rgba) {
    std::string png;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) { static_cast<std::string*>(context)->append(static_cast<char*>(data), std::size_t(size)); },
        &png, w, h, 4, rgba.data(), w * 4);
    const int v = view(png.data(), png.size(), 0);
    images.push_back("{\"bufferView\":" + std::to_string(v) + ",\"mimeType\":\"image/png\"}");
    textures.push_back("{\"source\":" + std::to_string(images.size() - 1) + "}");
    return int(textures.size()) - 1;
  }

  // A node: a mesh (or -1) or a camera (or -1), translation, scale, children, rotation.
  int node(int mesh, std::array<float, 3> t, std::array<float, 3> scale = {1, 1, 1}, int camera = -1,
           std::vector<int> children = {}, std::array<float, 4> rotation = {0, 0, 0, 1}) {
    std::string s = "{\"translation\":[" + number(t[0]) + "," + number(t[1]) + "," + number(t[2]) + "]";
    if (scale != std::array<float, 3>{1, 1, 1})
      s += ",\"scale\":[" + number(scale[0]) + "," + number(scale[1]) + "," + number(scale[2]) + "]";
    if (rotation != std::array<float, 4>{0, 0, 0, 1})
      s += ",\"rotation\":[" + number(rotation[0]) + "," + number(rotation[1]) + "," + number(rotation[2]) + "," +
           number(rotation[3]) + "]";
    if (mesh >= 0) s += ",\"mesh\":" + std::to_string(mesh);
    if (camera >= 0) s += ",\"camera\":" + std::to_string(camera);
    if (!children.empty()) {
      std::vector<std::string> c;
      for (int i : children) c.push_back(std::to_string(i));
      s += ",\"children\":" + list(c);
    }
    nodes.push_back(s + "}");
    return int(nodes.size()) - 1;
  }

  int camera(float yfovRadians, float znear, float zfar) {
    cameras.push_back("{\"type\":\"perspective\",\"perspective\":{\"yfov\":" + number(yfovRadians) + ",\"znear\":" +
                      number(znear) + ",\"zfar\":" + number(zfar) + ",\"aspectRatio\":1.7777}}");
    return int(cameras.size()) - 1;
  }

  std::string json(const std::string& bufferUri) const {
    std::vector<std::string> r;
    for (int i : roots) r.push_back(std::to_string(i));
    std::string j = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"SATDoF tests\"},\"scene\":0,\"scenes\":[{\"nodes\":" + list(r) +
                    "}],\"nodes\":" + list(nodes) + ",\"meshes\":" + list(meshes) + ",\"accessors\":" + list(accessors) +
                    ",\"bufferViews\":" + list(views) + ",\"buffers\":[{\"byteLength\":" + std::to_string(bin.size()) +
                    (bufferUri.empty() ? std::string() : ",\"uri\":\"" + bufferUri + "\"") + "}]";
    if (!materials.empty()) j += ",\"materials\":" + list(materials);
    if (!images.empty()) j += ",\"images\":" + list(images) + ",\"textures\":" + list(textures);
    if (!cameras.empty()) j += ",\"cameras\":" + list(cameras);
    return j + "}";
  }

  // .gltf (the buffer as a base64 data URI) or .glb, by the extension.
  void write(const fs::path& path) const {
    writeBytes(path, path.extension() == ".glb" ? glb(json(""), bin) : json("data:application/octet-stream;base64," + base64(bin)));
  }
};

// A box of half-size 1 centred at the origin: 24 vertices with face normals and uvs.
inline void box(std::vector<float>& p, std::vector<float>& n, std::vector<float>& uv, std::vector<std::uint32_t>& idx) {
  const float faces[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const auto& f : faces) {
    // Two axes spanning the face, so that (a x b) = the normal: counter-clockwise from outside.
    const float a[3] = {f[1] != 0 || f[2] != 0 ? 1.0f : 0.0f, f[0] != 0 ? 1.0f : 0.0f, 0.0f};
    float b[3] = {f[1] * a[2] - f[2] * a[1], f[2] * a[0] - f[0] * a[2], f[0] * a[1] - f[1] * a[0]};  // n x a
    const std::uint32_t base = std::uint32_t(p.size() / 3);
    const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (const auto& c : corners) {
      for (int k = 0; k < 3; ++k) {
        p.push_back(f[k] + c[0] * a[k] + c[1] * b[k]);
        n.push_back(f[k]);
      }
      uv.push_back(0.5f + 0.5f * c[0]);
      uv.push_back(0.5f - 0.5f * c[1]);
    }
    for (std::uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) idx.push_back(base + i);
  }
}

// The tests' glTF scene: a textured ground slab and three boxes (red metal, green, white)
// at view depths of about 3, 6 and 12 from a camera at (0, 1, 0) looking down -z (camera 0,
// placed by a node when `withCamera`), in a node tree (the boxes children of a group node
// moved by -2 in z). 4 x 12 triangles, 4 instances of 4 meshes (one without normals, one
// without a material).
inline void writeTestGltf(const fs::path& path, bool withCamera) {
  GltfBuilder g;
  std::vector<float> p, n, uv;
  std::vector<std::uint32_t> idx;
  box(p, n, uv, idx);
  std::vector<std::uint8_t> checker(8 * 8 * 4);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const bool light = (x / 2 + y / 2) % 2 == 0;
      std::uint8_t* c = &checker[std::size_t(y * 8 + x) * 4];
      c[0] = light ? 230 : 40;
      c[1] = light ? 220 : 60;
      c[2] = light ? 200 : 110;
      c[3] = 255;
    }
  const int ground = g.material({1, 1, 1}, 0.0f, 0.9f, g.texture(8, 8, checker));
  const int red = g.material({0.8f, 0.1f, 0.08f}, 1.0f, 0.3f), green = g.material({0.1f, 0.6f, 0.2f}, 0.0f, 0.5f);
  const int groundMesh = g.mesh(p, n, uv, idx, ground);
  const int boxMesh = g.mesh(p, n, uv, idx, green);
  const int redBox = g.mesh(p, {}, {}, idx, red);  // no normals: made by the loader
  const int whiteBox = g.mesh(p, n, uv, idx, -1);  // no material: the default
  const int slab = g.node(groundMesh, {0.0f, -0.5f, -8.0f}, {6.0f, 0.1f, 10.0f});
  const int a = g.node(redBox, {-1.0f, 0.5f, -1.0f}, {0.5f, 0.5f, 0.5f});
  const int b = g.node(boxMesh, {1.2f, 0.6f, -4.0f}, {0.6f, 0.6f, 0.6f}, -1, {}, {0.0f, 0.3826834f, 0.0f, 0.9238795f});
  const int c = g.node(whiteBox, {-0.5f, 1.0f, -10.0f});
  const int group = g.node(-1, {0.0f, 0.0f, -2.0f}, {1, 1, 1}, -1, {a, b, c});
  g.roots = {slab, group};
  if (withCamera) g.roots.push_back(g.node(-1, {0.0f, 1.0f, 0.0f}, {1, 1, 1}, g.camera(0.7f, 0.1f, 100.0f)));
  g.write(path);
}

// A figure standing alone, as a user's character model comes (nothing around it): legs, a
// body and a head, boxes of four colours, 1.84 units tall from y = 0, no camera (the loader
// frames it). With `groundHalfSize` > 0 it stands on a grey slab that wide and deep instead
// (a model that brings its surroundings). 4 (or 5) instances of 12 triangles.
inline void writeFigureGlb(const fs::path& path, float groundHalfSize = 0) {
  GltfBuilder g;
  std::vector<float> p, n, uv;
  std::vector<std::uint32_t> idx;
  box(p, n, uv, idx);
  const int legs = g.mesh(p, n, uv, idx, g.material({0.15f, 0.2f, 0.45f}, 0.0f, 0.7f));
  const int body = g.mesh(p, n, uv, idx, g.material({0.7f, 0.2f, 0.1f}, 0.0f, 0.6f));
  const int head = g.mesh(p, n, uv, idx, g.material({0.8f, 0.6f, 0.45f}, 0.0f, 0.8f));
  g.roots = {g.node(legs, {-0.15f, 0.3f, 0.0f}, {0.1f, 0.3f, 0.1f}), g.node(legs, {0.15f, 0.3f, 0.0f}, {0.1f, 0.3f, 0.1f}),
             g.node(body, {0.0f, 1.05f, 0.0f}, {0.35f, 0.45f, 0.2f}), g.node(head, {0.0f, 1.68f, 0.0f}, {0.16f, 0.16f, 0.16f})};
  if (groundHalfSize > 0) {
    const int ground = g.mesh(p, n, uv, idx, g.material({0.5f, 0.5f, 0.5f}, 0.0f, 0.9f));
    g.roots.push_back(g.node(ground, {0.0f, -0.05f, 0.0f}, {groundHalfSize, 0.05f, groundHalfSize}));
  }
  g.write(path);
}

// A wavy height field of about `triangles` triangles (two per grid cell), 40 x 40 units,
// seen from a file camera at its front edge: depths from 2 to about 45.
inline void writeLargeGltf(const fs::path& path, std::size_t triangles) {
  const int side = std::max(2, int(std::sqrt(double(triangles) / 2.0)));
  std::vector<float> p, n, uv;
  std::vector<std::uint32_t> idx;
  for (int j = 0; j <= side; ++j)
    for (int i = 0; i <= side; ++i) {
      const float x = -20.0f + 40.0f * float(i) / float(side), z = -40.0f * float(j) / float(side);
      const float y = 0.6f * std::sin(x * 0.9f) * std::cos(z * 0.7f);
      const float dydx = 0.54f * std::cos(x * 0.9f) * std::cos(z * 0.7f), dydz = -0.42f * std::sin(x * 0.9f) * std::sin(z * 0.7f);
      const float l = std::sqrt(dydx * dydx + 1.0f + dydz * dydz);
      p.insert(p.end(), {x, y, z});
      n.insert(n.end(), {-dydx / l, 1.0f / l, -dydz / l});
      uv.insert(uv.end(), {float(i) / 8.0f, float(j) / 8.0f});
    }
  for (int j = 0; j < side; ++j)
    for (int i = 0; i < side; ++i) {
      const std::uint32_t a = std::uint32_t(j * (side + 1) + i), b = a + 1, c = a + std::uint32_t(side + 1), d = c + 1;
      idx.insert(idx.end(), {a, b, d, a, d, c});  // counter-clockwise seen from above (+y)
    }
  GltfBuilder g;
  const int m = g.mesh(p, n, uv, idx, g.material({0.6f, 0.55f, 0.4f}, 0.0f, 0.6f));
  g.roots = {g.node(m, {0, 0, 0}), g.node(-1, {0.0f, 2.5f, 2.0f}, {1, 1, 1}, g.camera(0.8f, 0.1f, 200.0f), {},
                                          {-0.0871557f, 0.0f, 0.0f, 0.9961947f})};  // 10 degrees down
  g.write(path);
}

}  // namespace content_files

// tests/gltf_ext_files.h — glTF files with extensions, made by test_gltf_extensions.cpp on
// content_files.h's GltfBuilder: a document with more members at its top level
// (extensionsUsed, extensionsRequired, animations), a second buffer (a meshopt fallback),
// views with a byteStride, geometry compressed by Draco's and meshoptimizer's own encoders.
#pragma once

#include <draco/compression/encode.h>
#include <draco/mesh/triangle_soup_mesh_builder.h>
#include <meshoptimizer.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "content_files.h"

namespace gltf_ext_files {

namespace fs = std::filesystem;
using content_files::GltfBuilder;

// The builder's document with `top` (",\"extensionsUsed\":[...]") added to its top-level
// members and `buffers` (",{...}") after its buffer; .glb or .gltf (base64 buffer) by name.
inline void write(const GltfBuilder& g, const fs::path& path, const std::string& top, const std::string& buffers = "") {
  const bool glb = path.extension() == ".glb";
  std::string j = g.json(glb ? "" : "data:application/octet-stream;base64," + content_files::base64(g.bin));
  const std::size_t list = j.find("\"buffers\":[");
  j.insert(j.find('}', list) + 1, buffers);
  j.pop_back();
  j += top + "}";
  content_files::writeBytes(path, glb ? content_files::glb(j, g.bin) : j);
}

// A raw accessor over view `v`; returns its index.
inline int accessor(GltfBuilder& g, int v, std::size_t count, const char* type, int componentType, bool normalized = false,
                    const std::string& extra = "") {
  g.accessors.push_back("{" + (v >= 0 ? "\"bufferView\":" + std::to_string(v) + "," : std::string()) +
                        "\"componentType\":" + std::to_string(componentType) + ",\"count\":" + std::to_string(count) +
                        ",\"type\":\"" + type + "\"" + (normalized ? ",\"normalized\":true" : "") + extra + "}");
  return int(g.accessors.size()) - 1;
}

// A view with a byteStride over `bytes`; returns its index.
inline int stridedView(GltfBuilder& g, const std::string& bytes, int stride) {
  const int v = g.view(bytes.data(), bytes.size(), 34962);
  g.views.back().insert(g.views.back().size() - 1, ",\"byteStride\":" + std::to_string(stride));
  return v;
}

// A mesh of one primitive: "\"POSITION\":0,..." attributes, indices accessor (or -1),
// material (or -1), `extra` members ("\"mode\":1", extensions); returns its index.
inline int primitiveMesh(GltfBuilder& g, const std::string& attributes, int indices, int material = -1,
                         const std::string& extra = "") {
  g.meshes.push_back("{\"primitives\":[{\"attributes\":{" + attributes + "}" +
                     (indices >= 0 ? ",\"indices\":" + std::to_string(indices) : std::string()) +
                     (material >= 0 ? ",\"material\":" + std::to_string(material) : std::string()) + extra + "}]}");
  return int(g.meshes.size()) - 1;
}

// ---- Draco: a triangle list (positions xyz per corner) encoded by draco::Encoder, points
// deduplicated; `id` is the position attribute's unique id.
struct DracoMesh {
  std::string bytes;
  std::uint32_t id = 0;
  std::size_t points = 0, faces = 0;
};

inline DracoMesh dracoEncode(const std::vector<float>& corners) {
  const int faces = int(corners.size() / 9);
  draco::TriangleSoupMeshBuilder builder;
  builder.Start(faces);
  const int att = builder.AddAttribute(draco::GeometryAttribute::POSITION, 3, draco::DT_FLOAT32);
  for (int f = 0; f < faces; ++f)
    builder.SetAttributeValuesForFace(att, draco::FaceIndex(f), &corners[std::size_t(f) * 9], &corners[std::size_t(f) * 9 + 3],
                                      &corners[std::size_t(f) * 9 + 6]);
  std::unique_ptr<draco::Mesh> mesh = builder.Finalize();
  if (!mesh) throw std::runtime_error("draco: no mesh");
  draco::Encoder encoder;
  draco::EncoderBuffer out;
  if (!encoder.EncodeMeshToBuffer(*mesh, &out).ok()) throw std::runtime_error("draco: not encoded");
  return {std::string(out.data(), out.size()), mesh->attribute(att)->unique_id(), mesh->num_points(), mesh->num_faces()};
}

// ---- meshoptimizer: vertices (count x stride bytes) and triangle indices encoded.
inline std::string meshoptVertices(const void* vertices, std::size_t count, std::size_t stride) {
  std::string out(meshopt_encodeVertexBufferBound(count, stride), '\0');
  out.resize(meshopt_encodeVertexBuffer(reinterpret_cast<unsigned char*>(out.data()), out.size(), vertices, count, stride));
  return out;
}

inline std::string meshoptTriangles(const std::vector<std::uint32_t>& indices, std::size_t vertices) {
  std::string out(meshopt_encodeIndexBufferBound(indices.size(), vertices), '\0');
  out.resize(meshopt_encodeIndexBuffer(reinterpret_cast<unsigned char*>(out.data()), out.size(), indices.data(), indices.size()));
  return out;
}

// A view of `length` bytes in the fallback buffer 1, its data compressed at byte `at` of
// buffer 0 ("mode" ATTRIBUTES, TRIANGLES or INDICES); returns its index.
inline int meshoptView(GltfBuilder& g, std::size_t at, std::size_t compressed, std::size_t count, std::size_t stride,
                       const char* mode, int viewStride = 0, const std::string& filter = "") {
  g.views.push_back("{\"buffer\":1,\"byteLength\":" + std::to_string(count * stride) +
                    (viewStride ? ",\"byteStride\":" + std::to_string(viewStride) : std::string()) +
                    ",\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":" + std::to_string(at) +
                    ",\"byteLength\":" + std::to_string(compressed) + ",\"byteStride\":" + std::to_string(stride) +
                    ",\"count\":" + std::to_string(count) + ",\"mode\":\"" + mode + "\"" +
                    (filter.empty() ? std::string() : ",\"filter\":\"" + filter + "\"") + "}}}");
  return int(g.views.size()) - 1;
}

// The fallback buffer meshoptView's views name (no data: only the compressed bytes are).
inline std::string meshoptFallback(std::size_t bytes) {
  return ",{\"byteLength\":" + std::to_string(bytes) + ",\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}";
}

}  // namespace gltf_ext_files

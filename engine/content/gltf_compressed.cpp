// engine/content/gltf_compressed.cpp — see gltf_compressed.h. The numbers come from the file:
// each is checked a whole number in range before use, and every size in arithmetic that
// cannot wrap. meshoptimizer asserts its preconditions (strides, counts) rather than
// returning an error, so they are checked here first; its decoders bound their reads by the
// compressed length they are given. Draco checks its own stream and returns a status.
#include "engine/content/gltf_compressed.h"

#include <draco/compression/decode.h>
#include <meshoptimizer.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "engine/content/content_error.h"
#include "engine/content/gltf_files.h"

namespace satdof::content {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

// The decoded bytes so far, against kMaxDecodedBytes.
struct Budget {
  const fs::path& file;
  std::size_t used = 0;
  void take(std::size_t bytes, const std::string& what) {
    if (bytes > kMaxDecodedBytes - used)
      throw ContentError(file, what + " decodes to more than the " + std::to_string(kMaxDecodedBytes >> 20) +
                                   " MiB of vertex and index data read from a file");
    used += bytes;
  }
};

const tinygltf::Value* member(const tinygltf::Value& object, const char* key) {
  if (!object.IsObject() || !object.Has(key)) return nullptr;
  return &object.Get(key);
}

// A whole number in [0, 2^53] (the file's JSON number), or nullopt.
std::optional<std::uint64_t> whole(const tinygltf::Value* v) {
  if (!v || !v->IsNumber()) return std::nullopt;
  const double d = v->GetNumberAsDouble();
  if (!(d >= 0.0 && d <= 9007199254740992.0) || d != std::floor(d)) return std::nullopt;
  return std::uint64_t(d);
}

std::string text(const tinygltf::Value* v, const std::string& fallback) {
  return v && v->IsString() ? v->Get<std::string>() : fallback;
}

// A new buffer holding `data` and a view over all of it; returns the view's index.
int appendView(tinygltf::Model& model, Bytes data) {
  tinygltf::BufferView view;
  view.buffer = int(model.buffers.size());
  view.byteLength = data.size();
  tinygltf::Buffer buffer;
  buffer.data = std::move(data);
  model.buffers.push_back(std::move(buffer));
  model.bufferViews.push_back(view);
  return int(model.bufferViews.size()) - 1;
}

// ---- EXT_meshopt_compression: one bufferView.
void decodeMeshoptView(tinygltf::Model& model, std::size_t index, const tinygltf::Value& ext, Budget& budget) {
  const std::string name = "bufferView " + std::to_string(index) + ": its EXT_meshopt_compression";
  const auto fail = [&](const std::string& why) { throw ContentError(budget.file, name + " " + why); };
  const auto required = [&](const char* key) {
    const auto v = whole(member(ext, key));
    if (!v) fail(std::string("has no whole number '") + key + "'");
    return *v;
  };
  const std::uint64_t buffer = required("buffer"), length = required("byteLength");
  const std::uint64_t stride = required("byteStride"), count = required("count");
  std::uint64_t offset = 0;
  if (member(ext, "byteOffset")) offset = required("byteOffset");
  const std::string mode = text(member(ext, "mode"), ""), filter = text(member(ext, "filter"), "NONE");
  if (buffer >= model.buffers.size()) fail("names buffer " + std::to_string(buffer) + ", which does not exist");
  const Bytes& source = model.buffers[buffer].data;
  if (offset > source.size() || length > source.size() - offset)
    fail("(" + std::to_string(length) + " bytes at byte " + std::to_string(offset) + ") reaches past the end of buffer " +
         std::to_string(buffer) + " (" + std::to_string(source.size()) + " bytes)");
  if (count == 0) fail("has count 0");
  if (mode == "ATTRIBUTES") {
    if (stride == 0 || stride > 256 || stride % 4 != 0)
      fail("has byteStride " + std::to_string(stride) + ": attributes take a multiple of 4 up to 256");
  } else if (mode == "TRIANGLES" || mode == "INDICES") {
    if (stride != 2 && stride != 4) fail("has byteStride " + std::to_string(stride) + ": indices take 2 or 4");
    if (mode == "TRIANGLES" && count % 3 != 0) fail("has " + std::to_string(count) + " triangle indices, not a multiple of 3");
  } else {
    fail("has mode '" + mode + "' (ATTRIBUTES, TRIANGLES or INDICES are read)");
  }
  if (filter != "NONE") {
    const bool fits = mode == "ATTRIBUTES" && ((filter == "OCTAHEDRAL" && (stride == 4 || stride == 8)) ||
                                               (filter == "QUATERNION" && stride == 8) || filter == "EXPONENTIAL");
    if (!fits)
      fail("has filter '" + filter + "' on " + mode + " of byteStride " + std::to_string(stride) + ", which it does not take");
  }
  if (count > kMaxDecodedBytes / stride) budget.take(kMaxDecodedBytes + 1, name);
  const std::size_t bytes = std::size_t(count * stride);
  tinygltf::BufferView& view = model.bufferViews[index];
  if (view.byteLength != bytes)
    fail("decodes to " + std::to_string(count) + " x " + std::to_string(stride) + " = " + std::to_string(bytes) +
         " bytes, its bufferView states " + std::to_string(view.byteLength));
  budget.take(bytes, name);
  Bytes out(bytes);
  const unsigned char* src = source.data() + offset;
  int rc;
  if (mode == "ATTRIBUTES") rc = meshopt_decodeVertexBuffer(out.data(), count, stride, src, length);
  else if (mode == "TRIANGLES") rc = meshopt_decodeIndexBuffer(out.data(), count, stride, src, length);
  else rc = meshopt_decodeIndexSequence(out.data(), count, stride, src, length);
  if (rc != 0) fail("does not decode: its " + std::to_string(length) + " bytes are damaged or cut short");
  if (filter == "OCTAHEDRAL") meshopt_decodeFilterOct(out.data(), count, stride);
  else if (filter == "QUATERNION") meshopt_decodeFilterQuat(out.data(), count, stride);
  else if (filter == "EXPONENTIAL") meshopt_decodeFilterExp(out.data(), count, stride);
  const int decoded = appendView(model, std::move(out));
  tinygltf::BufferView& target = model.bufferViews[index];  // (appendView may have moved the views)
  target.buffer = model.bufferViews[std::size_t(decoded)].buffer;
  target.byteOffset = 0;
  target.extensions.erase("EXT_meshopt_compression");
}

// ---- KHR_draco_mesh_compression: one primitive. (Its indices accessor has the compressed
// bufferView until now: withCompressionPlaceholders.)
template <typename T>
bool convertAll(const draco::PointAttribute& att, std::size_t points, int components, Bytes& out) {
  out.resize(points * std::size_t(components) * sizeof(T));
  T value[4];
  for (std::size_t i = 0; i < points; ++i) {
    const draco::AttributeValueIndex avi = att.mapped_index(draco::PointIndex(std::uint32_t(i)));
    if (avi.value() >= att.size() || !att.ConvertValue<T>(avi, std::int8_t(components), value)) return false;
    std::memcpy(out.data() + i * std::size_t(components) * sizeof(T), value, std::size_t(components) * sizeof(T));
  }
  return true;
}

bool convert(const draco::PointAttribute& att, std::size_t points, int components, int componentType, Bytes& out) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: return convertAll<std::int8_t>(att, points, components, out);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return convertAll<std::uint8_t>(att, points, components, out);
    case TINYGLTF_COMPONENT_TYPE_SHORT: return convertAll<std::int16_t>(att, points, components, out);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return convertAll<std::uint16_t>(att, points, components, out);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: return convertAll<std::uint32_t>(att, points, components, out);
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return convertAll<float>(att, points, components, out);
    default: return false;
  }
}

void decodeDracoPrimitive(tinygltf::Model& model, std::size_t meshIndex, std::size_t primitiveIndex,
                          const tinygltf::Value& ext, Budget& budget) {
  const std::string name = "mesh " + std::to_string(meshIndex) + " primitive " + std::to_string(primitiveIndex) +
                           ": its KHR_draco_mesh_compression";
  const auto fail = [&](const std::string& why) { throw ContentError(budget.file, name + " " + why); };
  const auto viewIndex = whole(member(ext, "bufferView"));
  const tinygltf::Value* ids = member(ext, "attributes");
  if (!viewIndex || *viewIndex > std::uint64_t(std::numeric_limits<int>::max())) fail("has no whole number 'bufferView'");
  if (!ids || !ids->IsObject()) fail("has no 'attributes'");
  const ByteSpan bytes = bufferViewBytes(model, int(*viewIndex), budget.file, name);

  // The accessors it fills, their stated sizes within the budget before anything is decoded.
  struct Target {
    int accessor;
    std::uint64_t id;
    int components;
  };
  std::vector<Target> targets;
  const tinygltf::Primitive& p = model.meshes[meshIndex].primitives[primitiveIndex];
  const auto stated = [&](int accessor, int components, int componentBytes) {
    if (accessor < 0 || std::size_t(accessor) >= model.accessors.size())
      fail("names accessor " + std::to_string(accessor) + ", which does not exist");
    const std::size_t element = std::size_t(components) * std::size_t(componentBytes);
    const std::size_t count = model.accessors[std::size_t(accessor)].count;
    if (count > kMaxDecodedBytes / element) budget.take(kMaxDecodedBytes + 1, name);
    budget.take(count * element, name);
  };
  for (const auto& [semantic, accessor] : p.attributes) {
    if (!ids->Has(semantic)) continue;  // not compressed: read from its own bufferView
    const auto id = whole(&ids->Get(semantic));
    if (!id) fail("gives " + semantic + " no whole number id");
    if (accessor < 0 || std::size_t(accessor) >= model.accessors.size())
      fail("names accessor " + std::to_string(accessor) + ", which does not exist");
    const tinygltf::Accessor& a = model.accessors[std::size_t(accessor)];
    const int components = tinygltf::GetNumComponentsInType(std::uint32_t(a.type));
    const int componentBytes = tinygltf::GetComponentSizeInBytes(std::uint32_t(a.componentType));
    if (components < 1 || components > 4 || componentBytes <= 0)
      fail("fills accessor " + std::to_string(accessor) + ", which is not a scalar or vector of a known component type");
    stated(accessor, components, componentBytes);
    targets.push_back({accessor, *id, components});
  }
  if (p.indices >= 0) stated(p.indices, 1, 4);

  draco::DecoderBuffer in;
  in.Init(reinterpret_cast<const char*>(bytes.data), bytes.size);
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&in);
  if (!decoded.ok() || !decoded.value())
    fail("does not decode (" + std::to_string(bytes.size) + " bytes): " +
         (decoded.ok() ? std::string("no mesh") : decoded.status().error_msg_string()));
  const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
  const std::size_t points = mesh->num_points(), faces = mesh->num_faces();

  for (const Target& t : targets) {
    tinygltf::Accessor& a = model.accessors[std::size_t(t.accessor)];
    if (points != a.count)
      fail("decodes to " + std::to_string(points) + " points, accessor " + std::to_string(t.accessor) + " states " +
           std::to_string(a.count));
    const draco::PointAttribute* att =
        t.id <= std::numeric_limits<std::uint32_t>::max() ? mesh->GetAttributeByUniqueId(std::uint32_t(t.id)) : nullptr;
    if (!att) fail("has no attribute of id " + std::to_string(t.id));
    if (!att->is_mapping_identity() && att->indices_map_size() < points)
      fail("maps fewer than its " + std::to_string(points) + " points");
    Bytes out;
    if (!convert(*att, points, t.components, a.componentType, out))
      fail("attribute " + std::to_string(t.id) + " does not convert to accessor " + std::to_string(t.accessor) + "'s type");
    a.bufferView = appendView(model, std::move(out));
    a.byteOffset = 0;
    a.sparse.isSparse = false;
  }

  // The triangles: 3 x faces indices, as unsigned ints.
  if (faces > std::numeric_limits<std::size_t>::max() / 12) fail("decodes to too many faces");
  Bytes indices(faces * 3 * 4);
  for (std::size_t f = 0; f < faces; ++f) {
    const draco::Mesh::Face& face = mesh->face(draco::FaceIndex(std::uint32_t(f)));
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = face[std::size_t(k)].value();
      std::memcpy(indices.data() + (f * 3 + std::size_t(k)) * 4, &v, 4);
    }
  }
  int indexAccessor = model.meshes[meshIndex].primitives[primitiveIndex].indices;
  if (indexAccessor < 0) {  // none stated: one made for the decoded triangles
    budget.take(indices.size(), name);
    model.accessors.emplace_back();
    indexAccessor = int(model.accessors.size()) - 1;
    model.accessors.back().count = faces * 3;
    model.meshes[meshIndex].primitives[primitiveIndex].indices = indexAccessor;
  }
  tinygltf::Accessor& a = model.accessors[std::size_t(indexAccessor)];
  if (a.count != faces * 3)
    fail("decodes to " + std::to_string(faces * 3) + " indices, accessor " + std::to_string(indexAccessor) + " states " +
         std::to_string(a.count));
  a.bufferView = appendView(model, std::move(indices));
  a.byteOffset = 0;
  a.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
  a.type = TINYGLTF_TYPE_SCALAR;
  a.normalized = false;
  a.sparse.isSparse = false;
  int& mode = model.meshes[meshIndex].primitives[primitiveIndex].mode;
  if (mode == TINYGLTF_MODE_TRIANGLE_STRIP || mode == TINYGLTF_MODE_TRIANGLE_FAN) mode = TINYGLTF_MODE_TRIANGLES;  // faces now
}

}  // namespace

void decodeCompressed(tinygltf::Model& model, const fs::path& file) {
  Budget budget{file};
  for (std::size_t i = 0; i < model.bufferViews.size(); ++i) {
    const auto it = model.bufferViews[i].extensions.find("EXT_meshopt_compression");
    if (it == model.bufferViews[i].extensions.end()) continue;
    const tinygltf::Value ext = it->second;  // a copy: the decoding erases it
    decodeMeshoptView(model, i, ext, budget);
  }
  for (std::size_t m = 0; m < model.meshes.size(); ++m)
    for (std::size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      const auto& extensions = model.meshes[m].primitives[p].extensions;
      const auto it = extensions.find("KHR_draco_mesh_compression");
      if (it == extensions.end()) continue;
      const tinygltf::Value ext = it->second;
      decodeDracoPrimitive(model, m, p, ext, budget);
    }
}

std::optional<std::string> withCompressionPlaceholders(std::string_view json) {
  if (json.find("EXT_meshopt_compression") == std::string_view::npos &&
      json.find("KHR_draco_mesh_compression") == std::string_view::npos)
    return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  bool changed = false;
  const auto objectAt = [](nlohmann::json& parent, const char* key) -> nlohmann::json* {
    const auto it = parent.is_object() ? parent.find(key) : parent.end();
    return it != parent.end() && it->is_object() ? &*it : nullptr;
  };
  // Draco: an indices accessor with no bufferView is given the compressed one's.
  const auto meshes = doc.find("meshes"), accessors = doc.find("accessors");
  if (meshes != doc.end() && meshes->is_array() && accessors != doc.end() && accessors->is_array())
    for (nlohmann::json& mesh : *meshes) {
      const auto primitives = mesh.is_object() ? mesh.find("primitives") : mesh.end();
      if (primitives == mesh.end() || !primitives->is_array()) continue;
      for (nlohmann::json& p : *primitives) {
        nlohmann::json* extensions = objectAt(p, "extensions");
        nlohmann::json* draco = extensions ? objectAt(*extensions, "KHR_draco_mesh_compression") : nullptr;
        const auto view = draco ? draco->find("bufferView") : p.end();
        const auto indices = p.is_object() ? p.find("indices") : p.end();
        if (!draco || view == draco->end() || !view->is_number_unsigned() || indices == p.end() ||
            !indices->is_number_unsigned() || indices->get<std::uint64_t>() >= accessors->size())
          continue;
        nlohmann::json& accessor = (*accessors)[indices->get<std::size_t>()];
        if (!accessor.is_object() || accessor.contains("bufferView")) continue;
        accessor["bufferView"] = *view;
        changed = true;
      }
    }
  // meshopt: a fallback buffer is given a 4-byte placeholder.
  const auto buffers = doc.find("buffers");
  if (buffers != doc.end() && buffers->is_array())
    for (nlohmann::json& b : *buffers) {
      nlohmann::json* extensions = objectAt(b, "extensions");
      nlohmann::json* meshopt = extensions ? objectAt(*extensions, "EXT_meshopt_compression") : nullptr;
      const auto fallback = meshopt ? meshopt->find("fallback") : b.end();
      if (!meshopt || b.contains("uri") || fallback == meshopt->end() || *fallback != true) continue;
      b["uri"] = "data:application/octet-stream;base64,AAAAAA==";
      b["byteLength"] = 4;
      changed = true;
    }
  if (!changed) return std::nullopt;
  try {
    return doc.dump();
  } catch (const nlohmann::json::exception&) {  // a string that is not UTF-8: left to the loader
    return std::nullopt;
  }
}

}  // namespace satdof::content

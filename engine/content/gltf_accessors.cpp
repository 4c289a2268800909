// engine/content/gltf_accessors.cpp — see gltf_accessors.h.
#include "engine/content/gltf_accessors.h"

#include <algorithm>
#include <cstring>

#include "engine/content/content_error.h"
#include "engine/content/gltf_files.h"
#include "engine/content/gltf_scene.h"

namespace satdof::content {
namespace {

float component(const std::uint8_t* p, int type, bool normalized) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: { float f; std::memcpy(&f, p, 4); return f; }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? float(*p) / 255.0f : float(*p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t x;
      std::memcpy(&x, p, 2);
      return normalized ? float(x) / 65535.0f : float(x);
    }
    case TINYGLTF_COMPONENT_TYPE_BYTE: { const float v = float(std::int8_t(*p)); return normalized ? std::max(v / 127.0f, -1.0f) : v; }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      std::int16_t x;
      std::memcpy(&x, p, 2);
      return normalized ? std::max(float(x) / 32767.0f, -1.0f) : float(x);
    }
    default: return 0.0f;
  }
}

}  // namespace

std::vector<float> AccessorReader::floats(int accessorIndex, int components) const {
  const tinygltf::Accessor& a = accessor(accessorIndex);
  std::vector<float> out;
  if (a.sparse.isSparse && a.bufferView < 0) {  // zeros, then the sparse values
    checkComponents(accessorIndex, a, components);
    take(a.count, components);
    out.assign(a.count * std::size_t(components), 0.0f);
  } else {
    const View v = view(accessorIndex, components);
    out.resize(v.count * std::size_t(components));
    for (std::size_t i = 0; i < v.count; ++i)
      for (int c = 0; c < components; ++c) {
        const std::uint8_t* p = v.data + i * v.stride + std::size_t(c) * v.componentBytes;
        out[i * std::size_t(components) + std::size_t(c)] = component(p, v.type, v.normalized);
      }
  }
  if (a.sparse.isSparse) applySparse(accessorIndex, a, components, out);
  return out;
}

// The sparse substitutions: `count` indices (unsigned, increasing per the specification but
// any order is taken) and as many tightly packed elements, each inside its bufferView.
void AccessorReader::applySparse(int index, const tinygltf::Accessor& a, int components, std::vector<float>& out) const {
  const auto& s = a.sparse;
  if (s.count <= 0 || std::size_t(s.count) > a.count)
    fail(index, "its sparse count " + std::to_string(s.count) + " is not 1 to its " + std::to_string(a.count) + " elements");
  const std::size_t n = std::size_t(s.count);
  const int indexType = s.indices.componentType;
  if (indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    fail(index, "its sparse indices must be unsigned integers");
  if (s.indices.byteOffset < 0 || s.values.byteOffset < 0) fail(index, "its sparse byteOffset is negative");
  const std::size_t indexBytes = std::size_t(tinygltf::GetComponentSizeInBytes(std::uint32_t(indexType)));
  const std::size_t componentBytes = std::size_t(tinygltf::GetComponentSizeInBytes(std::uint32_t(a.componentType)));
  const std::size_t element = componentBytes * std::size_t(components);
  const std::string user = "accessor " + std::to_string(index) + "'s sparse ";
  const ByteSpan ib = bufferViewBytes(model_, s.indices.bufferView, file_, user + "indices");
  const ByteSpan vb = bufferViewBytes(model_, s.values.bufferView, file_, user + "values");
  const auto fits = [&](const ByteSpan& b, std::size_t offset, std::size_t size) {
    return offset <= b.size && n <= (b.size - offset) / size;
  };
  if (!fits(ib, std::size_t(s.indices.byteOffset), indexBytes) || !fits(vb, std::size_t(s.values.byteOffset), element))
    fail(index, "its " + std::to_string(n) + " sparse indices or values reach past the end of their bufferView");
  take(n, components + 1);
  const std::uint8_t* indices = ib.data + s.indices.byteOffset;
  const std::uint8_t* values = vb.data + s.values.byteOffset;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t at = 0;
    std::memcpy(&at, indices + i * indexBytes, indexBytes);  // little-endian, as glTF
    if (at >= a.count) fail(index, "its sparse index " + std::to_string(at) + " is past its " + std::to_string(a.count) + " elements");
    for (int c = 0; c < components; ++c)
      out[std::size_t(at) * std::size_t(components) + std::size_t(c)] =
          component(values + i * element + std::size_t(c) * componentBytes, a.componentType, a.normalized);
  }
}

std::vector<std::uint32_t> AccessorReader::indices(int accessorIndex) const {
  if (accessor(accessorIndex).sparse.isSparse) fail(accessorIndex, "sparse index accessors are not read");
  const View v = view(accessorIndex, 1);
  if (v.type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && v.type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      v.type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    fail(accessorIndex, "indices must be unsigned integers");
  std::vector<std::uint32_t> out(v.count);
  for (std::size_t i = 0; i < v.count; ++i) {
    const std::uint8_t* p = v.data + i * v.stride;
    switch (v.type) {
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: out[i] = *p; break;
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: { std::uint16_t x; std::memcpy(&x, p, 2); out[i] = x; break; }
      default: std::memcpy(&out[i], p, 4); break;
    }
  }
  return out;
}

std::size_t AccessorReader::count(int accessorIndex) const { return accessor(accessorIndex).count; }

void AccessorReader::fail(int accessorIndex, const std::string& why) const {
  throw ContentError(file_, "accessor " + std::to_string(accessorIndex) + ": " + why);
}

const tinygltf::Accessor& AccessorReader::accessor(int index) const {
  if (index < 0 || std::size_t(index) >= model_.accessors.size()) fail(index, "no such accessor");
  return model_.accessors[std::size_t(index)];
}

void AccessorReader::checkComponents(int index, const tinygltf::Accessor& a, int components) const {
  const int stated = tinygltf::GetNumComponentsInType(std::uint32_t(a.type));
  if (stated != components)
    fail(index, "has " + std::to_string(stated) + " components, " + std::to_string(components) + " expected");
  if (tinygltf::GetComponentSizeInBytes(std::uint32_t(a.componentType)) <= 0)
    fail(index, "has an unknown component type " + std::to_string(a.componentType));
}

void AccessorReader::take(std::size_t count, int components) const {
  if (count > (kMaxValuesRead - valuesRead_) / std::size_t(components))
    throw ContentError(file_, "holds more than " + std::to_string(kMaxValuesRead) + " vertex and index values to read");
  valuesRead_ += count * std::size_t(components);
}

AccessorReader::View AccessorReader::view(int index, int components) const {
  const tinygltf::Accessor& a = accessor(index);
  checkComponents(index, a, components);
  if (a.bufferView < 0) fail(index, "has no buffer view");
  const ByteSpan bytes = bufferViewBytes(model_, a.bufferView, file_, "accessor " + std::to_string(index));
  const int componentBytes = tinygltf::GetComponentSizeInBytes(std::uint32_t(a.componentType));
  if (componentBytes <= 0) fail(index, "has an unknown component type " + std::to_string(a.componentType));
  const std::size_t element = std::size_t(componentBytes) * std::size_t(components);
  const std::size_t byteStride = model_.bufferViews[std::size_t(a.bufferView)].byteStride;
  const std::size_t stride = byteStride == 0 ? element : byteStride;
  if (stride < element)
    fail(index, "its bufferView's stride " + std::to_string(stride) + " is less than its element's " +
                    std::to_string(element) + " bytes");
  if (a.count > 0) {
    // byteOffset + (count - 1) x stride + element <= the view's length, never summed past it.
    const std::size_t room = bytes.size;
    const bool fits = a.byteOffset <= room && element <= room - a.byteOffset &&
                      a.count - 1 <= (room - a.byteOffset - element) / stride;
    if (!fits)
      fail(index, std::to_string(a.count) + (a.count == 1 ? " element of " : " elements of ") + std::to_string(element) +
                      " bytes, " + std::to_string(stride) + " apart, from byte " + std::to_string(a.byteOffset) +
                      " reach past the end of its bufferView (" + std::to_string(room) + " bytes)");
  }
  take(a.count, components);
  return {bytes.data + std::min(a.byteOffset, bytes.size), a.count, stride, std::size_t(componentBytes), a.componentType,
          a.normalized};
}

}  // namespace satdof::content

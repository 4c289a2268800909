// app/content/gltf_accessors.cpp — see gltf_accessors.h.
#include "content/gltf_accessors.h"

#include <algorithm>
#include <cstring>

#include "content/content_error.h"
#include "content/gltf_files.h"
#include "content/gltf_scene.h"

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
  const View v = view(accessorIndex, components);
  std::vector<float> out(v.count * std::size_t(components));
  for (std::size_t i = 0; i < v.count; ++i)
    for (int c = 0; c < components; ++c) {
      const std::uint8_t* p = v.data + i * v.stride + std::size_t(c) * v.componentBytes;
      out[i * std::size_t(components) + std::size_t(c)] = component(p, v.type, v.normalized);
    }
  return out;
}

std::vector<std::uint32_t> AccessorReader::indices(int accessorIndex) const {
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

AccessorReader::View AccessorReader::view(int index, int components) const {
  const tinygltf::Accessor& a = accessor(index);
  if (a.sparse.isSparse) fail(index, "sparse accessors are not read");
  const int stated = tinygltf::GetNumComponentsInType(std::uint32_t(a.type));
  if (stated != components)
    fail(index, "has " + std::to_string(stated) + " components, " + std::to_string(components) + " expected");
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
  // Within its buffer, count is at most the buffer's bytes: the product cannot wrap.
  if (a.count > (kMaxValuesRead - valuesRead_) / std::size_t(components))
    throw ContentError(file_, "holds more than " + std::to_string(kMaxValuesRead) + " vertex and index values to read");
  valuesRead_ += a.count * std::size_t(components);
  return {bytes.data + std::min(a.byteOffset, bytes.size), a.count, stride, std::size_t(componentBytes), a.componentType,
          a.normalized};
}

}  // namespace satdof::content

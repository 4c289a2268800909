// engine/content/gltf_accessors.h — a glTF model's accessors read into floats and indices, of
// any component type (a normalised integer scaled to [0, 1], or [-1, 1] when signed: c / 127
// and c / 32767, -128 and -32768 read as -1; KHR_mesh_quantization's attributes), float
// accessors sparse or not (zeros where a sparse one has no bufferView). Every
// element read lies inside its bufferView and that inside its buffer, checked in arithmetic
// that cannot wrap: the file's counts, offsets and strides are any numbers up to 2^64. The
// values read by all accessors together are at most kMaxValuesRead (gltf_scene.h), as
// primitives may read one large accessor many times over.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace satdof::content {

// Throws ContentError naming `file` and the accessor ("accessor 3: ...").
class AccessorReader {
 public:
  AccessorReader(const tinygltf::Model& model, const std::filesystem::path& file) : model_(model), file_(file) {}

  // `components` floats per element.
  std::vector<float> floats(int accessorIndex, int components) const;
  // Unsigned integer elements (one component each).
  std::vector<std::uint32_t> indices(int accessorIndex) const;
  // The element count the accessor states (not yet checked against its buffer).
  std::size_t count(int accessorIndex) const;

 private:
  struct View {
    const std::uint8_t* data;
    std::size_t count, stride, componentBytes;
    int type;
    bool normalized;
  };

  [[noreturn]] void fail(int accessorIndex, const std::string& why) const;
  const tinygltf::Accessor& accessor(int index) const;
  void checkComponents(int index, const tinygltf::Accessor& a, int components) const;
  void take(std::size_t count, int components) const;  // against kMaxValuesRead
  View view(int index, int components) const;
  void applySparse(int index, const tinygltf::Accessor& a, int components, std::vector<float>& out) const;

  const tinygltf::Model& model_;
  std::filesystem::path file_;
  mutable std::size_t valuesRead_ = 0;  // floats and indices read so far, all accessors
};

}  // namespace satdof::content

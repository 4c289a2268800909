// fuzz/fuzz_gltf.cpp — loadGltfScene (app/content/gltf_scene.h) on arbitrary bytes, as a
// .glb (first byte even) or a .gltf (odd). A file it refuses gives one ContentError line
// that names the file; a scene it accepts has triangles, instances that name existing
// meshes and textures, indices inside their meshes, and finite bounds and focus.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "content/content_error.h"
#include "content/gltf_scene.h"
#include "fuzz_check.h"
#include "fuzz_content_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const FuzzFile file("fuzz_gltf", data[0] % 2 == 0 ? ".glb" : ".gltf", data + 1, size - 1);
  try {
    const satdof::content::GltfScene g = satdof::content::loadGltfScene(file.path());
    const satdof::scene::Scene& s = g.scene;
    FUZZ_CHECK(g.triangles > 0 && !s.instances.empty());
    for (const satdof::scene::Instance& i : s.instances) {
      FUZZ_CHECK(i.mesh >= 0 && std::size_t(i.mesh) < s.meshes.size());
      FUZZ_CHECK(i.texture >= -1 && i.texture < int(s.textures.size()));
    }
    for (const satdof::scene::Mesh& m : s.meshes)
      for (std::uint32_t index : m.indices) FUZZ_CHECK(index < m.vertices.size());
    for (const satdof::scene::Texture& t : s.textures)
      FUZZ_CHECK(t.rgba.size() == std::size_t(t.width) * std::size_t(t.height) * 4);
    FUZZ_CHECK(std::isfinite(g.focalDistance) && std::isfinite(g.focalRange));
  } catch (const satdof::content::ContentError& e) {
    const std::string what = e.what();
    FUZZ_CHECK(what.find('\n') == std::string::npos);
    FUZZ_CHECK(what.find("fuzz_gltf_") != std::string::npos);  // names the file
  }
  return 0;
}

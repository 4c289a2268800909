// engine/content/gltf_compressed.h — glTF geometry compressed by KHR_draco_mesh_compression
// (Debian's libdraco) or EXT_meshopt_compression (Debian's libmeshoptimizer), decoded into
// new buffers of the model before any accessor is read, so that the accessor reader reads
// them as it reads any buffer (with all its checks):
//   meshopt   each bufferView with the extension: its compressed bytes checked inside their
//             buffer, its mode, stride and filter against the extension's rules (what the
//             decoder would otherwise assert), count x stride equal to the view's length;
//             the view then points at the decoded bytes
//   draco     each primitive with the extension: its bufferView checked inside its buffer,
//             the accessors' stated counts within the budget before decoding, the decoded
//             point and index counts equal to them after; the accessors then point at the
//             decoded values (in their own component types) and the triangles' indices
// All decoded bytes together are at most kMaxDecodedBytes (4 x kMaxValuesRead, the values
// the accessors may read). A stream that does not decode is one ContentError line.
// tinygltf reads every buffer, and a meshopt "fallback" buffer has no data to read; it
// refuses an indices accessor with no bufferView, as Draco's are: withCompressionPlaceholders
// gives each such buffer a 4-byte placeholder, and each such accessor the compressed
// bufferView, before tinygltf sees the file (the decoding then replaces both).
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "engine/content/gltf_scene.h"

namespace satdof::content {

inline constexpr std::size_t kMaxDecodedBytes = 4 * kMaxValuesRead;

// Throws ContentError naming `file` and the bufferView or primitive.
void decodeCompressed(tinygltf::Model& model, const std::filesystem::path& file);

// The glTF JSON with the placeholders above; nullopt when none is needed (or the JSON does
// not parse: the loader then says why).
std::optional<std::string> withCompressionPlaceholders(std::string_view json);

}  // namespace satdof::content

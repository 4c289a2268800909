// engine/content/gltf_files.h — a glTF 2.0 file read into tinygltf's model with the checks a
// file from anywhere needs before Debian's libtinygltf sees it, and the file access it is
// given instead of its own:
//   the file      a regular file opened without blocking (a FIFO or device is refused from
//                 its fstat, never read), at most 1 GiB; a .glb's header and chunk table
//                 checked against the file's length; the JSON's nesting at most
//                 kMaxJsonDepth deep (the parser recurses per level)
//   its uris      a buffer's or image's file is read from the glTF's own folder only: no
//                 absolute path, no scheme but data:, nothing whose real path (symlinks
//                 resolved) leaves the folder, only regular files; never the working folder
//   its images    decoded by image_files.h; an image in a bufferView only once that view is
//                 checked against its buffer (tinygltf hands the decoder the view unchecked);
//                 an image missing, unreadable or not decodable is left out with a warning
//                 (its material shows its base colour), not refused
//   extensions    refused when required and not read, else warned (gltf_extensions.h);
//                 compressed geometry decoded into new buffers (gltf_compressed.h)
//   its views     every bufferView inside its buffer, in arithmetic that cannot wrap
// Every refusal is a ContentError (content_error.h) naming the file and, for a uri, the uri.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace satdof::content {

inline constexpr std::size_t kMaxJsonDepth = 256;

// A regular file's bytes (see above); throws ContentError naming `path`.
std::vector<std::uint8_t> readRegularFile(const std::filesystem::path& path);

// The model of a .gltf or .glb file (a .glb by its extension or its "glTF" magic), its
// images decoded to RGBA8 (component 4, bits 8), its compressed geometry decoded; what it
// leaves out added to `warnings` (one line each kind). Throws ContentError.
tinygltf::Model loadGltfModel(const std::filesystem::path& path, std::vector<std::string>& warnings);

// The bytes of bufferView `index` (all of them inside its buffer), or a ContentError naming
// `file` and `user` ("accessor 3", "its image 0") when there is no such view or buffer.
struct ByteSpan {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
};
ByteSpan bufferViewBytes(const tinygltf::Model& model, int index, const std::filesystem::path& file,
                         const std::string& user);

}  // namespace satdof::content

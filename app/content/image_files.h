// app/content/image_files.h — images read from files for the user's content, with the
// checks that keep a bad file to one line (content_error.h): a missing, unreadable or
// non-image file, and an image too large to decode (checked from its header, before any
// pixel is decoded).
//   colour   PNG, JPEG (and whatever else stb_image reads) -> RGBA8
//   depth    8- or 16-bit PNG (one channel, or the luminance of several), or a float
//            OpenEXR (its R channel, or its only channel)
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace satdof::content {

// The largest image read: a side of 16384 pixels (the largest texture most GPUs bind) and
// 64 megapixels (256 MiB of RGBA8).
inline constexpr int kMaxImageSide = 16384;
inline constexpr std::int64_t kMaxImagePixels = std::int64_t(64) << 20;

// Row 0 is the file's top row.
struct ColourImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4
};

struct DepthSamples {
  int width = 0, height = 0;
  std::vector<float> values;  // row 0 the top; integer maps as read (0..255 or 0..65535)
  int bits = 0;               // 8 or 16 for an integer PNG; 32 for a float (EXR) map
  bool isFloat() const { return bits == 32; }
};

// Throws ContentError when `path` is missing, a folder, or cannot be opened.
void checkReadableFile(const std::filesystem::path& path);
// A readable file's bytes (checkReadableFile), refused over 1 GiB: every content file is read so.
std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path);
ColourImage readColourImage(const std::filesystem::path& path);
// Decodes an image held in memory (a glTF's embedded image); `name` names it in errors.
ColourImage decodeColourImage(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size);
DepthSamples readDepthImage(const std::filesystem::path& path);

// Whether the file starts like an image this build reads (stb_image's formats, OpenEXR).
bool looksLikeImage(const std::filesystem::path& path);

// Throws ContentError unless width x height is within the limits above.
void checkImageSize(const std::filesystem::path& name, int width, int height);

}  // namespace satdof::content

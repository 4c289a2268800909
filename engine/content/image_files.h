// engine/content/image_files.h — images read from files for the user's content, with the
// checks that keep a bad file to one line (content_error.h): a missing, unreadable or
// non-image file, and an image too large to decode (checked from its header, before any
// pixel is decoded). A file is known by its first bytes, never by its name: any other
// format (GIF, BMP, TIFF, WebP, Radiance HDR, PNM, ...) is refused by name before a
// decoder sees it, and the decoder built in has no code for them.
//   colour   PNG (8 or 16 bit, any channel count) or JPEG -> RGBA8
//   depth    8- or 16-bit PNG (one channel, or the luminance of several), or an OpenEXR
//            of half or float samples (its R channel, or its only channel)
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
  const char* format = "";    // what was read: "PNG" or "EXR"
  bool isFloat() const { return bits == 32; }
};

// The most bytes a content file may hold.
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t(1) << 30;

// Throws ContentError when `path` is missing, a folder, not a regular file (a FIFO, a
// device) or cannot be opened. Nothing is opened in a way that could wait for a writer.
void checkReadableFile(const std::filesystem::path& path);
// A regular file's bytes (as checkReadableFile), refused over kMaxFileBytes: every content
// file is read so.
std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path);
ColourImage readColourImage(const std::filesystem::path& path);
// Decodes an image held in memory (a glTF's texture); `name` names it in errors.
ColourImage decodeColourImage(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size);
DepthSamples readDepthImage(const std::filesystem::path& path);

// Whether a regular file starts like an image this build reads (PNG, JPEG, OpenEXR); its
// first 16 bytes are read, and anything else (a FIFO included) is no image.
bool looksLikeImage(const std::filesystem::path& path);

// Throws ContentError unless width x height is within the limits above.
void checkImageSize(const std::filesystem::path& name, int width, int height);

}  // namespace satdof::content

// app/content/image_files.cpp — see image_files.h. stb_image (Debian's libstb) decodes PNG
// and JPEG, tinyexr (Debian's libtinyexr) float OpenEXR, both from the file's bytes in memory;
// what either would abort on or over-allocate for is refused first (sizes, chunks, headers).
#include "content/image_files.h"

#include <stb/stb_image.h>
#include <tinyexr.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <system_error>

#include "content/content_error.h"
#include "parse.h"

namespace satdof::content {

namespace {

// The loaders' own messages (tinyexr's end in a newline, tinygltf's hold several lines)
// made into one line: control characters become spaces, runs of spaces one, none at the ends.
std::string oneLine(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char d = static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
    if (d != ' ' || (!out.empty() && out.back() != ' ')) out += d;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

ContentError::ContentError(const std::filesystem::path& file, const std::string& problem)
    : std::runtime_error(quotedPath(file) + ": " + oneLine(problem)) {}

std::string quotedPath(const std::filesystem::path& p) {
  std::string s;
  for (std::size_t i = 0; i < p.native().size(); i += 40) {
    const std::string q = quoteForMessage(p.native().substr(i, 40));  // '...' around 40 or fewer
    s += q.substr(1, q.size() - 2);
  }
  return "'" + s + "'";
}

namespace {

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

std::string stbReason() {
  const char* why = stbi_failure_reason();
  return why ? why : "unknown";
}

std::uint32_t bigEndian32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// The size a PNG's or JPEG's header states, read before any decoder sees the file: stb
// refuses to even describe an image over 1 GiB decoded, which would hide why.
std::optional<std::pair<int, int>> statedSize(const std::uint8_t* b, std::size_t n) {
  auto be16 = [&](std::size_t i) { return int(b[i]) << 8 | int(b[i + 1]); };
  if (n >= 24 && std::memcmp(b, "\x89PNG\r\n\x1a\n", 8) == 0 && std::memcmp(b + 12, "IHDR", 4) == 0)
    return std::pair{int(std::min<std::uint32_t>(bigEndian32(b + 16), 1u << 30)), int(std::min<std::uint32_t>(bigEndian32(b + 20), 1u << 30))};
  if (n < 4 || b[0] != 0xff || b[1] != 0xd8) return std::nullopt;
  for (std::size_t i = 2; i + 9 < n;) {  // JPEG: the segments up to the first start of frame
    if (b[i] != 0xff) return std::nullopt;
    const int marker = b[i + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc)
      return std::pair{be16(i + 7), be16(i + 5)};
    i += 2 + std::size_t(be16(i + 2));
  }
  return std::nullopt;
}

// A PNG's chunks each fit in the file. stb_image grows its buffer for a chunk's data to the
// length the chunk states before it reads a byte, so one bad length would ask for up to 2 GiB.
void checkPngChunks(const std::filesystem::path& name, const std::uint8_t* b, std::size_t n) {
  if (n < 8 || std::memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0) return;
  for (std::size_t i = 8; i + 8 <= n;) {
    const std::uint64_t length = bigEndian32(b + i);
    const std::string type(reinterpret_cast<const char*>(b + i + 4), 4);
    if (i + 12 + length > n)
      throw ContentError(name, "is a broken PNG: its chunk at byte " + std::to_string(i) + " states " +
                                   std::to_string(length) + " bytes of data, past the end of the file (" +
                                   std::to_string(n) + " bytes)");
    if (type == "IEND") return;
    i += 12 + std::size_t(length);
  }
}

// The checks before a decoder sees a PNG's or JPEG's bytes: their amount, the size the
// header states, and a PNG's chunks.
void checkBeforeDecoding(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size) {
  if (size > std::size_t(1) << 30) throw ContentError(name, "is larger than 1 GiB");
  if (const auto stated = statedSize(bytes, size)) checkImageSize(name, stated->first, stated->second);
  checkPngChunks(name, bytes, size);
}

// The OpenEXR version the bytes start with, or nullopt when they are no OpenEXR file.
// (tinyexr's IsEXR(file) leaves the file open when it is shorter than the 8 bytes it reads.)
std::optional<EXRVersion> exrVersion(const std::uint8_t* b, std::size_t n) {
  EXRVersion version;
  if (ParseEXRVersionFromMemory(&version, b, n) != TINYEXR_SUCCESS) return std::nullopt;
  return version;
}

bool isExr(const std::filesystem::path& path) {
  std::uint8_t head[8] = {};
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(head), sizeof head);
  return exrVersion(head, std::size_t(in.gcount())).has_value();
}

}  // namespace

void checkReadableFile(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw ContentError(path, "no such file");
  if (std::filesystem::is_directory(status)) throw ContentError(path, "is a folder, not a file");
  if (!std::filesystem::is_regular_file(status)) throw ContentError(path, "is not a regular file");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw ContentError(path, "cannot be read: " + std::generic_category().message(errno));
  std::fclose(f);
}

std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path) {
  checkReadableFile(path);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > std::uintmax_t(1) << 30) throw ContentError(path, "is larger than 1 GiB");
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void checkImageSize(const std::filesystem::path& name, int width, int height) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width <= 0 || height <= 0) throw ContentError(name, "has no pixels (" + size + ")");
  if (width > kMaxImageSide || height > kMaxImageSide)
    throw ContentError(name, "is " + size + ": larger than " + std::to_string(kMaxImageSide) + " pixels a side");
  if (std::int64_t(width) * height > kMaxImagePixels)
    throw ContentError(name, "is " + size + ": more than " + std::to_string(kMaxImagePixels >> 20) + " megapixels");
}

bool looksLikeImage(const std::filesystem::path& path) {
  int w = 0, h = 0, channels = 0;
  return isExr(path) || stbi_info(path.c_str(), &w, &h, &channels) != 0;
}

// A file's image is decoded as an embedded one is (the same checks, the fuzzed path).
ColourImage readColourImage(const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = readFileBytes(path);
  if (exrVersion(bytes.data(), bytes.size()))
    throw ContentError(path, "is an OpenEXR image: a colour photo must be a PNG or JPEG");
  return decodeColourImage(path, bytes.data(), bytes.size());
}

ColourImage decodeColourImage(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size) {
  int w = 0, h = 0, channels = 0;
  checkBeforeDecoding(name, bytes, size);
  if (!stbi_info_from_memory(bytes, int(size), &w, &h, &channels))
    throw ContentError(name, "is not an image this build reads (PNG or JPEG): " + stbReason());
  checkImageSize(name, w, h);
  std::unique_ptr<stbi_uc, StbFree> pixels(stbi_load_from_memory(bytes, int(size), &w, &h, &channels, 4));
  if (!pixels) throw ContentError(name, "cannot be decoded: " + stbReason());
  ColourImage image{w, h, {}};
  image.rgba.assign(pixels.get(), pixels.get() + std::size_t(w) * std::size_t(h) * 4);
  return image;
}

namespace {

// Debian's tinyexr asserts (aborts the process) on some headers instead of failing: a
// "tiles" attribute of the wrong size, a "type" other than the file's kind, a pixel type
// outside the ones it decodes. Those are refused here, before it parses or decodes.

constexpr const char* kTiled = "is a tiled OpenEXR file: a depth map is read from a scanline image";

// The header's "type" and "tiles" attributes, walked as the format lays them out (name\0
// type\0 size data, up to an empty name): why this is not a scanline image, or "".
std::string exrKindProblem(const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 8; i < n && b[i] != 0;) {
    const auto* name = reinterpret_cast<const char*>(b + i);
    const std::size_t nameLength = strnlen(name, n - i);
    const std::size_t type = i + nameLength + 1;
    if (type >= n) return "";
    const std::size_t sizeAt = type + strnlen(reinterpret_cast<const char*>(b + type), n - type) + 1;
    if (sizeAt + 4 > n) return "";  // malformed: tinyexr says so itself
    const std::size_t size = std::size_t(b[sizeAt]) | std::size_t(b[sizeAt + 1]) << 8 | std::size_t(b[sizeAt + 2]) << 16 |
                             std::size_t(b[sizeAt + 3]) << 24;
    const std::size_t data = sizeAt + 4;
    if (size > n - data) return "";
    const std::string attribute(name, nameLength);
    if (attribute == "tiles") return kTiled;
    if (attribute == "type") {
      const std::string kind(reinterpret_cast<const char*>(b + data), strnlen(reinterpret_cast<const char*>(b + data), size));
      if (kind != "scanlineimage")
        return "is an OpenEXR image of type " + quoteForMessage(kind) + ": a depth map is read from a scanline image";
    }
    i = data + size;
  }
  return "";
}

// Why tinyexr cannot decode the channels of this parsed scanline header, or "": a pixel
// type outside uint/half/float, a subsampled channel. (Its parser refuses a compression it
// lacks itself, and sets no tiles for a scanline file.)
std::string exrChannelProblem(const EXRHeader& header) {
  for (int c = 0; c < header.num_channels; ++c) {
    const int type = header.pixel_types[c];
    if (type != TINYEXR_PIXELTYPE_UINT && type != TINYEXR_PIXELTYPE_HALF && type != TINYEXR_PIXELTYPE_FLOAT)
      return "has channel " + std::to_string(c) + " of pixel type " + std::to_string(type) + ": not uint, half or float";
    if (header.channels[c].x_sampling != 1 || header.channels[c].y_sampling != 1)
      return "has a subsampled channel " + std::to_string(c) + ": every channel must have a sample per pixel";
  }
  return "";
}

DepthSamples decodeExrDepth(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes,
                            const EXRVersion& version) {
  const std::uint8_t* b = bytes.data();
  const std::size_t n = bytes.size();
  if (version.multipart || version.non_image) throw ContentError(path, "is a multi-part or deep OpenEXR file: one image is read");
  if (version.tiled) throw ContentError(path, kTiled);
  if (const std::string why = exrKindProblem(b, n); !why.empty()) throw ContentError(path, why);
  EXRHeader header;
  InitEXRHeader(&header);
  const char* err = nullptr;
  if (ParseEXRHeaderFromMemory(&header, &version, b, n, &err) != TINYEXR_SUCCESS) {
    const std::string why = err ? err : "bad header";
    FreeEXRErrorMessage(err);
    FreeEXRHeader(&header);  // what it read before it failed
    throw ContentError(path, "is not a readable OpenEXR file: " + why);
  }
  const std::string problem = exrChannelProblem(header);
  // The window's corners are any ints a file holds: its size in 64 bits.
  const std::int64_t w = std::int64_t(header.data_window.max_x) - header.data_window.min_x + 1;
  const std::int64_t h = std::int64_t(header.data_window.max_y) - header.data_window.min_y + 1;
  FreeEXRHeader(&header);
  if (!problem.empty()) throw ContentError(path, problem);
  if (w < 1 || h < 1 || w > kMaxImageSide || h > kMaxImageSide)
    throw ContentError(path, "has a data window of " + std::to_string(w) + "x" + std::to_string(h) +
                                 " pixels: a side must be 1 to " + std::to_string(kMaxImageSide));
  checkImageSize(path, int(w), int(h));
  float* rgba = nullptr;
  int width = 0, height = 0;
  if (LoadEXRFromMemory(&rgba, &width, &height, b, n, &err) != TINYEXR_SUCCESS) {
    const std::string why = err ? err : "cannot decode it";
    FreeEXRErrorMessage(err);
    throw ContentError(path, "cannot be decoded: " + why);
  }
  std::unique_ptr<float, decltype(&std::free)> owned(rgba, &std::free);
  DepthSamples d{width, height, std::vector<float>(std::size_t(width) * std::size_t(height)), 32};
  for (std::size_t i = 0; i < d.values.size(); ++i) d.values[i] = rgba[i * 4];  // R (a single channel is copied there)
  return d;
}

}  // namespace

DepthSamples readDepthImage(const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = readFileBytes(path);
  if (const auto version = exrVersion(bytes.data(), bytes.size())) return decodeExrDepth(path, bytes, *version);
  checkBeforeDecoding(path, bytes.data(), bytes.size());
  const int size = int(bytes.size());
  int w = 0, h = 0, channels = 0;
  if (!stbi_info_from_memory(bytes.data(), size, &w, &h, &channels))
    throw ContentError(path, "is not a depth image this build reads (8- or 16-bit PNG, or float OpenEXR): " + stbReason());
  checkImageSize(path, w, h);
  DepthSamples d{w, h, std::vector<float>(std::size_t(w) * std::size_t(h)), 8};
  if (stbi_is_16_bit_from_memory(bytes.data(), size)) {
    std::unique_ptr<stbi_us, StbFree> pixels(stbi_load_16_from_memory(bytes.data(), size, &w, &h, &channels, 1));
    if (!pixels) throw ContentError(path, "cannot be decoded: " + stbReason());
    for (std::size_t i = 0; i < d.values.size(); ++i) d.values[i] = float(pixels.get()[i]);
    d.bits = 16;
  } else {
    std::unique_ptr<stbi_uc, StbFree> pixels(stbi_load_from_memory(bytes.data(), size, &w, &h, &channels, 1));
    if (!pixels) throw ContentError(path, "cannot be decoded: " + stbReason());
    for (std::size_t i = 0; i < d.values.size(); ++i) d.values[i] = float(pixels.get()[i]);
  }
  return d;
}

}  // namespace satdof::content

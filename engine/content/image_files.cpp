// engine/content/image_files.cpp — see image_files.h. A file is read through one descriptor,
// opened only when it is a regular file; its first bytes say what it is (image_checks.h),
// and only a PNG, a JPEG or an OpenEXR reaches a decoder. stb_image's PNG decoder alone is
// compiled (stb_decoders.h; its other formats' decoders have known hangs and over-reads on
// broken files, and no place in what the user may give); libjpeg-turbo reads JPEG
// (jpeg_decoder.h) and tinyexr (Debian's libtinyexr) OpenEXR; all from the file's bytes in
// memory. What either would abort
// on, over-allocate for or write past its tables on is refused first (image_checks.h and
// the OpenEXR header checks below).
#include "engine/content/image_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include <tinyexr.h>

#include "engine/content/content_error.h"
#include "engine/content/image_checks.h"
#include "engine/content/jpeg_decoder.h"
#include "engine/content/stb_decoders.h"
#include "engine/text/parse.h"


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

namespace {

constexpr const char* kColourFormats = "must be a PNG or JPEG";
constexpr const char* kDepthFormats = "a depth map must be an 8- or 16-bit PNG or a float OpenEXR";

// ---- Files: opened only when regular, read through the descriptor that was checked.

struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string systemError(int error) { return std::generic_category().message(error); }

// Opens a regular file for reading and returns its size. O_NONBLOCK: a FIFO with no writer
// opens at once (and is refused by fstat) where a plain open would wait for one; a device
// is refused by stat before it is opened at all.
std::uint64_t openRegularFile(const std::filesystem::path& path, Descriptor& file) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) throw ContentError(path, "no such file");
    throw ContentError(path, "cannot be read: " + systemError(error));
  }
  if (S_ISDIR(st.st_mode)) throw ContentError(path, "is a folder, not a file");
  if (!S_ISREG(st.st_mode)) throw ContentError(path, "is not a regular file");
  do file.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  while (file.fd < 0 && errno == EINTR);
  if (file.fd < 0) throw ContentError(path, "cannot be read: " + systemError(errno));
  if (::fstat(file.fd, &st) != 0) throw ContentError(path, "cannot be read: " + systemError(errno));
  if (!S_ISREG(st.st_mode)) throw ContentError(path, "is not a regular file");  // replaced meanwhile
  return std::uint64_t(st.st_size);
}

// Reads up to `size` bytes into `into`, through interrupted and short reads; the count read
// (less only at the end of the file).
std::size_t readUpTo(const std::filesystem::path& path, int fd, std::uint8_t* into, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t r = ::read(fd, into + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw ContentError(path, "cannot be read: " + systemError(errno));
    if (r == 0) break;
    got += std::size_t(r);
  }
  return got;
}

// The first bytes of a regular file (as many as it has, up to 16).
std::size_t readHead(const std::filesystem::path& path, std::uint8_t (&head)[16]) {
  Descriptor file;
  openRegularFile(path, file);
  return readUpTo(path, file.fd, head, sizeof head);
}

}  // namespace

void checkReadableFile(const std::filesystem::path& path) {
  Descriptor file;
  openRegularFile(path, file);
}

std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path) {
  constexpr const char* kTooLarge = "is larger than 1 GiB";
  static_assert(kMaxFileBytes == std::uint64_t(1) << 30);
  Descriptor file;
  const std::uint64_t stated = openRegularFile(path, file);
  if (stated > kMaxFileBytes) throw ContentError(path, kTooLarge);
  // The stated size and a byte more, to see the end; a file that grows meanwhile is read on
  // in steps, up to the cap and a byte.
  std::vector<std::uint8_t> bytes(std::size_t(stated) + 1);
  std::size_t got = 0;
  for (;;) {
    const std::size_t n = readUpTo(path, file.fd, bytes.data() + got, bytes.size() - got);
    got += n;
    if (got > kMaxFileBytes) throw ContentError(path, kTooLarge);
    if (got < bytes.size()) break;  // the end of the file
    bytes.resize(std::size_t(std::min<std::uint64_t>(kMaxFileBytes + 1, std::uint64_t(bytes.size()) * 2)));
  }
  bytes.resize(got);
  bytes.shrink_to_fit();
  return bytes;
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
  std::uint8_t head[16] = {};
  try {
    return sniffImage(head, readHead(path, head)).format != ImageFormat::Other;
  } catch (const ContentError&) {
    return false;
  }
}

namespace {

// ---- PNG by stb_image and JPEG by libjpeg-turbo, each checked first.

ColourImage decodeJpeg(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size) {
  int w = 0, h = 0;
  std::string why;
  if (!jpeg::size(bytes, size, w, h, why)) throw ContentError(name, "is a broken JPEG image: " + why);
  checkImageSize(name, w, h);
  ColourImage image;
  if (!jpeg::decodeRgba(bytes, size, image.width, image.height, image.rgba, why))
    throw ContentError(name, "cannot be decoded: " + why);
  checkImageSize(name, image.width, image.height);
  return image;
}

// `role` says what the image is read as ("a colour photo"), for the message that refuses
// another format.
ColourImage decodeColour(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size,
                         const char* role) {
  const SniffedImage kind = sniffImage(bytes, size);
  if (kind.format != ImageFormat::Png && kind.format != ImageFormat::Jpeg)
    throw ContentError(name, std::string("is ") + kind.what + "; " + role + " " + kColourFormats);
  checkBeforeDecoding(name, bytes, size);
  if (kind.format == ImageFormat::Jpeg) return decodeJpeg(name, bytes, size);
  const std::vector<std::uint8_t> cleaned = withoutEmptyPngData(bytes, size);  // (image_checks.h)
  if (!cleaned.empty()) bytes = cleaned.data(), size = cleaned.size();
  int w = 0, h = 0, channels = 0;
  if (!stb::info(bytes, int(size), w, h, channels)) throw ContentError(name, "is a broken PNG image: " + stb::reason());
  checkImageSize(name, w, h);
  const stb::Pixels<std::uint8_t> pixels = stb::load8(bytes, int(size), w, h, 4);
  if (!pixels) throw ContentError(name, "cannot be decoded: " + stb::reason());
  checkImageSize(name, w, h);
  ColourImage image{w, h, {}};
  image.rgba.assign(pixels.get(), pixels.get() + std::size_t(w) * std::size_t(h) * 4);
  return image;
}

}  // namespace

ColourImage readColourImage(const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = readFileBytes(path);
  return decodeColour(path, bytes.data(), bytes.size(), "a colour photo");
}

ColourImage decodeColourImage(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size) {
  return decodeColour(name, bytes, size, "a texture");
}

namespace {

// ---- OpenEXR, by tinyexr. Debian's tinyexr asserts (aborts the process) on some headers
// instead of failing: a "tiles" attribute of the wrong size, a "type" other than the file's
// kind, a pixel type outside the ones it decodes. Those are refused here, before it parses
// or decodes.
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

// The channel a depth map is read from (its only one, or R) when it holds no half or float
// samples: tinyexr would hand a uint channel's bits over as floats. "" when it does.
std::string exrDepthChannelProblem(const EXRHeader& header) {
  for (int c = 0; c < header.num_channels; ++c)
    if ((header.num_channels == 1 || std::strcmp(header.channels[c].name, "R") == 0) &&
        header.pixel_types[c] == TINYEXR_PIXELTYPE_UINT)
      return "has a uint channel " + quoteForMessage(header.channels[c].name) +
             ": a depth map's channel must be half or float";
  return "";
}

DepthSamples decodeExrDepth(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  const std::uint8_t* b = bytes.data();
  const std::size_t n = bytes.size();
  EXRVersion version;
  if (ParseEXRVersionFromMemory(&version, b, n) != TINYEXR_SUCCESS)
    throw ContentError(path, "is a broken OpenEXR file: its version cannot be read");
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
  std::string problem = exrChannelProblem(header);
  if (problem.empty()) problem = exrDepthChannelProblem(header);
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
  DepthSamples d{width, height, std::vector<float>(std::size_t(width) * std::size_t(height)), 32, "EXR"};
  for (std::size_t i = 0; i < d.values.size(); ++i) d.values[i] = rgba[i * 4];  // R (a single channel is copied there)
  return d;
}

}  // namespace

DepthSamples readDepthImage(const std::filesystem::path& path) {
  std::vector<std::uint8_t> bytes = readFileBytes(path);
  const SniffedImage kind = sniffImage(bytes.data(), bytes.size());
  if (kind.format == ImageFormat::Exr) return decodeExrDepth(path, bytes);
  if (kind.format != ImageFormat::Png)
    throw ContentError(path, std::string("is ") + (std::string_view(kind.what) == kUnknownImage ? "not a depth image this build reads" : kind.what) +
                                 "; " + kDepthFormats);
  checkBeforeDecoding(path, bytes.data(), bytes.size());
  if (std::vector<std::uint8_t> cleaned = withoutEmptyPngData(bytes.data(), bytes.size()); !cleaned.empty())
    bytes = std::move(cleaned);  // (image_checks.h)
  const int size = int(bytes.size());
  int w = 0, h = 0, channels = 0;
  if (!stb::info(bytes.data(), size, w, h, channels))
    throw ContentError(path, "is a broken PNG image: " + stb::reason());
  checkImageSize(path, w, h);
  // One channel: a grey map as it is, the luminance of a colour one. A sample's bits as the
  // file holds them (below 8, scaled up to 8 by the decoder).
  DepthSamples d;
  d.format = "PNG";
  auto take = [&](const auto& pixels, int bits) {
    if (!pixels) throw ContentError(path, "cannot be decoded: " + stb::reason());
    checkImageSize(path, w, h);
    d.width = w, d.height = h, d.bits = bits;
    d.values.assign(pixels.get(), pixels.get() + std::size_t(w) * std::size_t(h));
  };
  if (stb::is16Bit(bytes.data(), size)) take(stb::load16(bytes.data(), size, w, h, 1), 16);
  else take(stb::load8(bytes.data(), size, w, h, 1), 8);
  return d;
}

}  // namespace satdof::content

// engine/content/image_checks.cpp — see image_checks.h.
#include "engine/content/image_checks.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "engine/content/content_error.h"
#include "engine/content/image_files.h"

namespace satdof::content {
namespace {

bool startsWith(const std::uint8_t* b, std::size_t n, std::size_t at, std::string_view magic) {
  return n >= at + magic.size() && std::memcmp(b + at, magic.data(), magic.size()) == 0;
}

std::uint32_t bigEndian32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// The size a PNG's or JPEG's header states, read before any decoder sees the file: stb
// refuses to even describe a PNG over 1 GiB decoded, which would hide why.
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

// A JPEG's Huffman tables each define at most 256 codes; a table of more is refused with
// the byte it starts at (libjpeg's own message, "Bogus Huffman table definition", says
// neither which nor where). The marker segments are walked as a decoder walks them (by
// their lengths, the bytes between them scanned for the next FF).
void checkJpegTables(const std::filesystem::path& name, const std::uint8_t* b, std::size_t n) {
  if (n < 2 || b[0] != 0xff || b[1] != 0xd8) return;
  auto at = [&](std::size_t i) -> unsigned { return i < n ? b[i] : 0; };  // past the end: 0, as stb reads
  for (std::size_t i = 2; i < n;) {
    if (b[i++] != 0xff) continue;  // entropy-coded data, or junk between segments
    while (i < n && b[i] == 0xff) ++i;  // fill bytes
    if (i >= n) break;
    const unsigned marker = b[i++];
    if (marker == 0x00 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd9)) continue;  // no length
    const std::size_t length = at(i) << 8 | at(i + 1);
    if (length < 2) break;  // the decoder stops here too
    if (marker == 0xc4) {
      for (std::size_t t = i + 2, end = i + length; t < end;) {  // table class/id, 16 counts, the symbols
        std::size_t codes = 0;
        for (std::size_t k = 1; k <= 16; ++k) codes += at(t + k);
        if (codes > 256)
          throw ContentError(name, "is a broken JPEG: its Huffman table at byte " + std::to_string(t) + " defines " +
                                       std::to_string(codes) + " codes (at most 256)");
        t += 17 + codes;
      }
    }
    i += length;
  }
}

}  // namespace

SniffedImage sniffImage(const std::uint8_t* b, std::size_t n) {
  using namespace std::string_view_literals;
  if (startsWith(b, n, 0, "\x89PNG\r\n\x1a\n"sv)) return {ImageFormat::Png, "a PNG image"};
  if (startsWith(b, n, 0, "\xff\xd8\xff"sv)) return {ImageFormat::Jpeg, "a JPEG image"};
  if (startsWith(b, n, 0, "v/1\x01"sv)) return {ImageFormat::Exr, "an OpenEXR image"};
  struct Signature {
    std::size_t at;
    std::string_view magic;
    const char* what;
  };
  static constexpr Signature kOthers[] = {
      {0, "GIF87a"sv, "a GIF image"},
      {0, "GIF89a"sv, "a GIF image"},
      {0, "II*\0"sv, "a TIFF image"},
      {0, "MM\0*"sv, "a TIFF image"},
      {0, "8BPS"sv, "a Photoshop (PSD) image"},
      {0, "#?RADIANCE"sv, "a Radiance HDR image"},
      {0, "#?RGBE"sv, "a Radiance HDR image"},
      {0, "qoif"sv, "a QOI image"},
      {0, "\0\0\0\x0cjP  \r\n\x87\n"sv, "a JPEG 2000 image"},
      {0, "\xff\x4f\xff\x51"sv, "a JPEG 2000 image"},
      {0, "\xff\x0a"sv, "a JPEG XL image"},
      {0, "\0\0\0\x0cJXL \r\n\x87\n"sv, "a JPEG XL image"},
      {4, "ftypavif"sv, "an AVIF image"},
      {4, "ftypheic"sv, "a HEIF image"},
      {4, "ftypmif1"sv, "a HEIF image"},
      {0, "DDS "sv, "a DirectDraw Surface (DDS) texture"},
      {0, "\xabKTX "sv, "a KTX texture"},
      {0, "\x53\x80\xf6\x34"sv, "a Softimage PIC image"},
  };
  for (const Signature& s : kOthers)
    if (startsWith(b, n, s.at, s.magic)) return {ImageFormat::Other, s.what};
  if (startsWith(b, n, 0, "RIFF"sv) && startsWith(b, n, 8, "WEBP"sv)) return {ImageFormat::Other, "a WebP image"};
  // BMP: "BM", then its info header's size at 14 (one of the sizes the format has had).
  if (startsWith(b, n, 0, "BM"sv) && n >= 18) {
    const std::uint32_t info = std::uint32_t(b[14]) | std::uint32_t(b[15]) << 8 | std::uint32_t(b[16]) << 16 |
                               std::uint32_t(b[17]) << 24;
    if (info == 12 || info == 40 || info == 52 || info == 56 || info == 64 || info == 108 || info == 124)
      return {ImageFormat::Other, "a BMP image"};
  }
  // Netpbm: P1..P7 (PBM, PGM, PPM, PAM) or Pf/PF (PFM), then white space.
  if (n >= 3 && b[0] == 'P' && "1234567fF"sv.find(char(b[1])) != std::string_view::npos &&
      " \t\r\n"sv.find(char(b[2])) != std::string_view::npos)
    return {ImageFormat::Other, "a PNM (PBM/PGM/PPM/PAM) image"};
  // TGA and other headerless formats cannot be told from any other bytes.
  return {ImageFormat::Other, kUnknownImage};
}

// The checks before a decoder sees a PNG's or JPEG's bytes: their amount, the size the
// header states, a PNG's chunks, a JPEG's Huffman tables.
void checkBeforeDecoding(const std::filesystem::path& name, const std::uint8_t* bytes, std::size_t size) {
  if (size > kMaxFileBytes) throw ContentError(name, "is larger than 1 GiB");
  if (const auto stated = statedSize(bytes, size)) checkImageSize(name, stated->first, stated->second);
  checkPngChunks(name, bytes, size);
  checkJpegTables(name, bytes, size);
}

std::vector<std::uint8_t> withoutEmptyPngData(const std::uint8_t* b, std::size_t n) {
  if (n < 8 || std::memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0) return {};
  auto emptyData = [&](std::size_t i) { return bigEndian32(b + i) == 0 && std::memcmp(b + i + 4, "IDAT", 4) == 0; };
  bool any = false;
  for (std::size_t i = 8; i + 12 <= n && !any; i += 12 + std::size_t(bigEndian32(b + i))) any = emptyData(i);
  if (!any) return {};
  std::vector<std::uint8_t> out(b, b + 8);
  std::size_t i = 8;
  for (; i + 12 <= n; i += 12 + std::size_t(bigEndian32(b + i))) {
    if (!emptyData(i)) out.insert(out.end(), b + i, b + i + 12 + std::size_t(bigEndian32(b + i)));
    if (std::memcmp(b + i + 4, "IEND", 4) == 0) return out;
  }
  out.insert(out.end(), b + std::min(i, n), b + n);  // a tail too short for a chunk, as it was
  return out;
}

}  // namespace satdof::content

// satdof/sat_format.h — the named layouts of a summed-area table. One home for what a
// table holds per pixel, how many bytes it takes, and which shader include reads it:
// the compute backends size the table from here, the DoF shaders include the file named
// here, and the reference (satdof/reference/sat.h) produces each layout bit for bit.
//
// Every format is row-major, tightly packed, one entry per pixel:
//   entry(x, y).c = sum of channel c over all pixels (x', y') with x' <= x and y' <= y
// in the format's arithmetic, followed by the format's trailer (trailerBytes, may be 0).
//
//   uint32   4 x uint32, sums modulo 2^32: box sums by the four-term difference are exact
//            for 8-bit input (GLSL uint arithmetic wraps the same way). 16 B/pixel.
//   float32  4 x float: each entry is the exact integer sum rounded once to the nearest
//            float (what most demos store). Far from the origin the entries exceed 2^24
//            and lose low bits, so box sums there are approximate. 16 B/pixel.
//   float32-offset  (Hensley et al. 2005) 4 x float of the exact sum of (pixel - m),
//            rounded once, where m is the per-channel image mean rounded to an integer.
//            Centred values keep the entries small, so box sums lose far fewer bits.
//            Trailer: m as 4 floats (16 bytes), read by the shader to add m back.
//   uint21x3 R, G and B only (the DoF writes alpha 255), each the uint32 sum kept modulo
//            2^21 (R, G) or 2^22 (B), packed into two 32-bit words so that GLSL decodes
//            them with 32-bit operations:
//              word0 = R[20:0] | B[10:0] << 21      word1 = G[20:0] | B[21:11] << 21
//            8 B/pixel: half the table's bytes. A box sum taken per field modulo 2^bits
//            (D - B - C + A, masked) equals the true sum whenever that fits the field,
//            i.e. for 8-bit input whenever area * 255 <= 2^21 - 1: boxes of at most
//            kUint21x3MaxBoxArea = 8224 pixels, every square box of radius <= 44
//            (89^2 = 7921; 91^2 = 8281 is too many). Exact within that bound, so the DoF
//            image equals uint32's byte for byte; the app refuses a larger --max-blur with
//            this format (maxBoxRadius below).
//
// The CUDA algorithms build the float formats for widths up to 131072 (their tile-local
// sums are exact int32 values up to there) and refuse wider images with
// cudaErrorInvalidValue; uint32 has no such limit.
//
// Every backend produces each format bit for bit (the reference in satdof/reference/sat.h
// is the definition): sums are formed in exact integer arithmetic and only the entry is
// rounded, to nearest with ties to even, so the GPU and the CPU agree exactly whatever
// their summation order (and the host whatever its thread's rounding mode: nearestFloat).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace satdof {

enum class SatFormat { Uint32, Float32, Float32Offset, Uint21x3 };

// uint21x3's bound: the largest box area whose sum of 8-bit values fits 21 bits, and the
// largest radius r whose (2r + 1)^2 box stays within it.
inline constexpr int kUint21x3FieldBits = 21;  // R and G; B keeps 22
inline constexpr long long kUint21x3MaxBoxArea = ((1LL << kUint21x3FieldBits) - 1) / 255;
constexpr int largestSquareRadius(long long area) {
  int r = 0;
  while (static_cast<long long>(2 * r + 3) * (2 * r + 3) <= area) ++r;
  return r;
}
inline constexpr int kUint21x3MaxRadius = largestSquareRadius(kUint21x3MaxBoxArea);
static_assert(kUint21x3MaxBoxArea == 8224 && kUint21x3MaxRadius == 44);
inline constexpr int kNoRadiusLimit = -1;

struct SatFormatInfo {
  SatFormat id;
  std::string_view name;           // stable identifier: --sat-format, UI, bench, tests
  std::string_view description;    // one line for the UI and --help
  std::size_t bytesPerPixel;       // one entry
  std::size_t trailerBytes;        // after the width * height entries (format constants)
  std::string_view shaderInclude;  // shaders/<this> defines the box-sum reads for GLSL
  bool exact;                      // box sums equal the integer sums for 8-bit input
                                   // (within maxBoxRadius)
  int maxBoxRadius;                // the largest DoF box radius summed exactly, or
                                   // kNoRadiusLimit (uint32: any box of 8-bit pixels
                                   // below 2^32 / 255 pixels; floats: no exact bound)
};

// All formats, the default first.
std::span<const SatFormatInfo> satFormats();
const SatFormatInfo* findSatFormat(std::string_view name);  // nullptr when unknown
const SatFormatInfo& satFormatInfo(SatFormat format);
inline const SatFormatInfo& defaultSatFormat() { return satFormats().front(); }

// Empty when a DoF whose --max-blur is `maxBlur` pixels (radius floor(maxBlur + 0.5),
// reference::cocRamp) reads only boxes the format sums exactly; else why not, one line.
std::optional<std::string> whyNotMaxBlur(const SatFormatInfo& format, float maxBlur);

// Bytes of a whole table (entries and trailer) for a width x height image.
std::size_t satTableBytes(SatFormat format, int width, int height);

}  // namespace satdof

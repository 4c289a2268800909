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
//
// The CUDA algorithms build the float formats for widths up to 131072 (their tile-local
// sums are exact int32 values up to there) and refuse wider images with
// cudaErrorInvalidValue; uint32 has no such limit.
//
// Every backend produces each format bit for bit (the reference in satdof/reference/sat.h
// is the definition): sums are formed in exact integer arithmetic and only the entry is
// rounded, so the GPU and the CPU agree exactly whatever their summation order.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace satdof {

enum class SatFormat { Uint32, Float32, Float32Offset };

struct SatFormatInfo {
  SatFormat id;
  std::string_view name;           // stable identifier: --sat-format, UI, bench, tests
  std::string_view description;    // one line for the UI and --help
  std::size_t bytesPerPixel;       // one entry
  std::size_t trailerBytes;        // after the width * height entries (format constants)
  std::string_view shaderInclude;  // shaders/<this> defines the box-sum reads for GLSL
  bool exact;                      // box sums equal the integer sums for 8-bit input
};

// All formats, the default first.
std::span<const SatFormatInfo> satFormats();
const SatFormatInfo* findSatFormat(std::string_view name);  // nullptr when unknown
const SatFormatInfo& satFormatInfo(SatFormat format);
inline const SatFormatInfo& defaultSatFormat() { return satFormats().front(); }

// Bytes of a whole table (entries and trailer) for a width x height image.
std::size_t satTableBytes(SatFormat format, int width, int height);

}  // namespace satdof

// The SAT format table (see satdof/sat_format.h).
#include "satdof/registry.h"
#include "satdof/sat_format.h"

#include <array>
#include <stdexcept>

namespace satdof {
namespace {

constexpr std::array kFormats{
    SatFormatInfo{SatFormat::Uint32, "uint32",
                  "4 x uint32 per pixel, sums wrap modulo 2^32: exact box sums for 8-bit input",
                  16, 0, "sat_uint32.glsl", true},
    SatFormatInfo{SatFormat::Float32, "float32",
                  "4 x float per pixel, exact sums rounded to float: loses low bits far from the origin",
                  16, 0, "sat_float32.glsl", false},
    SatFormatInfo{SatFormat::Float32Offset, "float32-offset",
                  "4 x float of sums of (pixel - image mean) (Hensley 2005); the mean in a 16-byte trailer",
                  16, 16, "sat_float32_offset.glsl", false},
};

}  // namespace

std::span<const SatFormatInfo> satFormats() { return kFormats; }

const SatFormatInfo* findSatFormat(std::string_view name) { return findByName<SatFormatInfo>(kFormats, name); }

const SatFormatInfo& satFormatInfo(SatFormat format) {
  for (const SatFormatInfo& f : kFormats)
    if (f.id == format) return f;
  throw std::invalid_argument("unknown SAT format");
}

std::size_t satTableBytes(SatFormat format, int width, int height) {
  if (width <= 0 || height <= 0) return 0;
  const SatFormatInfo& f = satFormatInfo(format);
  return std::size_t(width) * std::size_t(height) * f.bytesPerPixel + f.trailerBytes;
}

}  // namespace satdof

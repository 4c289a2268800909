// The SAT format table (see satdof/sat_format.h).
#include "satdof/registry.h"
#include "satdof/sat_format.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace satdof {
namespace {

constexpr std::array kFormats{
    SatFormatInfo{SatFormat::Uint32, "uint32",
                  "4 x uint32 per pixel, sums wrap modulo 2^32: exact box sums for 8-bit input",
                  16, 0, "sat_uint32.glsl", true, kNoRadiusLimit},
    SatFormatInfo{SatFormat::Float32, "float32",
                  "4 x float per pixel, exact sums rounded to float: loses low bits far from the origin",
                  16, 0, "sat_float32.glsl", false, kNoRadiusLimit},
    SatFormatInfo{SatFormat::Float32Offset, "float32-offset",
                  "4 x float of sums of (pixel - image mean) (Hensley 2005); the mean in a 16-byte trailer",
                  16, 16, "sat_float32_offset.glsl", false, kNoRadiusLimit},
    SatFormatInfo{SatFormat::Uint21x3, "uint21x3",
                  "R, G mod 2^21 and B mod 2^22 in 2 x uint32 per pixel (no alpha): exact box sums up to "
                  "8224 pixels (blur radius <= 44), half the bytes",
                  8, 0, "sat_uint21x3.glsl", true, kUint21x3MaxRadius},
};

}  // namespace

std::span<const SatFormatInfo> satFormats() { return kFormats; }

const SatFormatInfo* findSatFormat(std::string_view name) { return findByName<SatFormatInfo>(kFormats, name); }

const SatFormatInfo& satFormatInfo(SatFormat format) {
  for (const SatFormatInfo& f : kFormats)
    if (f.id == format) return f;
  throw std::invalid_argument("unknown SAT format");
}

std::optional<std::string> whyNotMaxBlur(const SatFormatInfo& format, float maxBlur) {
  if (format.maxBoxRadius == kNoRadiusLimit) return std::nullopt;
  const float radius = std::floor(maxBlur + 0.5f);  // reference::cocRamp's integer radius
  if (!(radius > float(format.maxBoxRadius))) return std::nullopt;
  return "a blur radius of " + std::to_string(int(radius)) + " px is beyond the " + std::string(format.name) +
         " SAT format's exact box sums (radius <= " + std::to_string(format.maxBoxRadius) +
         "); lower --max-blur or use --sat-format uint32";
}

std::size_t satTableBytes(SatFormat format, int width, int height) {
  if (width <= 0 || height <= 0) return 0;
  const SatFormatInfo& f = satFormatInfo(format);
  return std::size_t(width) * std::size_t(height) * f.bytesPerPixel + f.trailerBytes;
}

}  // namespace satdof

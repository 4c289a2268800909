// core/sat_formats.cpp — the reference of every SAT format (satdof/sat_format.h)
// and the box mean each format's shader computes.
//
// Why exact integers first: a float table summed in float arithmetic depends on the
// order of the additions, which differs between the CPU loop and every GPU algorithm.
// Here each entry is the exact integer sum (int64), rounded once to the nearest float,
// so the format is a function of the image alone and every backend can match it bit
// for bit; the precision a float table loses shows in formatBoxMean(), not in the build.
// That rounding is to nearest whatever the calling thread's rounding mode (which a driver
// or library in the process may have changed; satdof/reference/fp_environment.h): the
// conversion instruction where the thread rounds to nearest, else nearestFloat's integers.
#include <algorithm>
#include <bit>
#include <cstring>

#include "satdof/reference/fp_environment.h"
#include "satdof/reference/sat.h"
#include "satdof/reference/uint21x3.h"

namespace satdof::reference {
namespace {

// Rows of int64 sums of (pixel - offset), rounded to float as they are produced: by the
// conversion instruction where it rounds to nearest (the usual state, and faster), else
// by nearestFloat's integers; the same bits either way.
Sat roundedSat(const ImageRgba8& image, SatFormat format, std::array<std::uint32_t, 4> offset) {
  const bool hardwareRounds = roundsToNearest();
  Sat sat;
  sat.width = image.width;
  sat.height = image.height;
  sat.format = format;
  sat.values.resize(std::size_t(image.width) * image.height * 4);
  std::vector<std::int64_t> above(std::size_t(image.width) * 4, 0);  // S(x, y - 1)
  for (int y = 0; y < image.height; ++y) {
    std::int64_t run[4] = {0, 0, 0, 0};
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* px = image.at(x, y);
      for (int c = 0; c < 4; ++c) {
        run[c] += std::int64_t(px[c]) - std::int64_t(offset[c]);
        std::int64_t& s = above[std::size_t(x) * 4 + c];
        s += run[c];
        const float f = hardwareRounds ? static_cast<float>(s) : nearestFloat(s);
        sat.values[(std::size_t(y) * image.width + x) * 4 + c] = std::bit_cast<std::uint32_t>(f);
      }
    }
  }
  return sat;
}

// uint21x3: the uint32 table's R, G and B, packed (satdof/reference/uint21x3.h).
Sat packedSat(const ImageRgba8& image) {
  const Sat exact = computeSat(image);
  Sat sat;
  sat.width = image.width;
  sat.height = image.height;
  sat.format = SatFormat::Uint21x3;
  const std::size_t n = std::size_t(image.width) * image.height;
  sat.values.resize(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t* e = &exact.values[i * 4];
    const Uint21x3Words w = packUint21x3(e[0], e[1], e[2]);
    sat.values[i * 2] = w.word0;
    sat.values[i * 2 + 1] = w.word1;
  }
  return sat;
}

Uint21x3Words packedEntry(const Sat& sat, int x, int y) {
  if (x < 0 || y < 0) return {0, 0};
  const std::size_t i = (std::size_t(y) * sat.width + x) * 2;
  return {sat.values[i], sat.values[i + 1]};
}

float asFloat(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

float nearestFloat(std::int64_t v) {
  // Below 2^24 in magnitude every integer is a float: any rounding mode converts it exactly.
  if (v > -(std::int64_t(1) << 24) && v < (std::int64_t(1) << 24)) return float(v);
  const std::uint32_t sign = v < 0 ? 0x80000000u : 0u;
  const std::uint64_t m = v < 0 ? 0 - std::uint64_t(v) : std::uint64_t(v);  // |v|, INT64_MIN too
  // |v| in [2^e, 2^(e+1)): keep its top 24 bits, the `drop` below them decide (halves to
  // the even one). The kept bits carry the implicit one at bit 23, so adding them to the
  // exponent field of 2^(e-1) gives the float's bits, a round up to 2^(e+1) included.
  const int e = 63 - std::countl_zero(m), drop = e - 23;
  const std::uint64_t kept = m >> drop, rest = m & ((std::uint64_t(1) << drop) - 1),
                      half = std::uint64_t(1) << (drop - 1);
  const std::uint64_t up = std::uint64_t(rest > half) | (std::uint64_t(rest == half) & kept & 1u);
  return std::bit_cast<float>(sign | ((std::uint32_t(e + 126) << 23) + std::uint32_t(kept + up)));
}

std::array<std::uint32_t, 4> satOffsets(const ImageRgba8& image) {
  std::array<std::uint64_t, 4> sum{0, 0, 0, 0};
  for (std::size_t i = 0; i < image.pixels.size(); ++i) sum[i % 4] += image.pixels[i];
  const std::uint64_t n = std::uint64_t(image.width) * std::uint64_t(image.height);
  std::array<std::uint32_t, 4> m{0, 0, 0, 0};
  if (n == 0) return m;
  for (int c = 0; c < 4; ++c) m[c] = std::uint32_t((sum[c] + n / 2) / n);
  return m;
}

Sat computeSat(const ImageRgba8& image, SatFormat format) {
  switch (format) {
    case SatFormat::Uint32:
      return computeSat(image);
    case SatFormat::Float32:
      return roundedSat(image, format, {0, 0, 0, 0});
    case SatFormat::Float32Offset: {
      const auto m = satOffsets(image);
      Sat sat = roundedSat(image, format, m);
      for (std::uint32_t mc : m) sat.trailer.push_back(std::bit_cast<std::uint32_t>(nearestFloat(mc)));
      return sat;
    }
    case SatFormat::Uint21x3:
      return packedSat(image);
  }
  return {};
}

std::vector<std::uint8_t> satTableBytesOf(const Sat& sat) {
  std::vector<std::uint8_t> bytes(satTableBytes(sat.format, sat.width, sat.height));
  if (bytes.empty()) return bytes;
  const std::size_t entries = sat.values.size() * 4;
  std::memcpy(bytes.data(), sat.values.data(), entries);
  if (!sat.trailer.empty())
    std::memcpy(bytes.data() + entries, sat.trailer.data(), std::min(sat.trailer.size() * 4, bytes.size() - entries));
  return bytes;
}

double satValue(const Sat& sat, int x, int y, int c) {
  if (x < 0 || y < 0) return 0.0;
  if (sat.format == SatFormat::Uint21x3) {
    const Uint21x3Words e = packedEntry(sat, x, y);
    return c == 0 ? uint21x3R(e) : c == 1 ? uint21x3G(e) : c == 2 ? uint21x3B(e) : 0.0;
  }
  const std::uint32_t bits = sat.at(x, y, c);
  return sat.format == SatFormat::Uint32 ? double(bits) : double(asFloat(bits));
}

std::array<float, 4> formatBoxMean(const Sat& sat, Box box) {
  if (sat.format == SatFormat::Uint32) return boxMean(sat, box);
  const RoundToNearest rounding;  // the shader's arithmetic
  const Box b = clipBox(box, sat.width, sat.height);
  std::array<float, 4> mean{0, 0, 0, 0};
  if (b.x1 < b.x0 || b.y1 < b.y0) return mean;
  const float area = float(b.x1 - b.x0 + 1) * float(b.y1 - b.y0 + 1);
  if (sat.format == SatFormat::Uint21x3) {
    // Per field modulo 2^bits (sat_uint21x3.glsl); no alpha: its mean is left 0.
    const auto v = [&](int x, int y, int c) { return std::uint32_t(satValue(sat, x, y, c)); };
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t sum =
          (v(b.x1, b.y1, c) - v(b.x0 - 1, b.y1, c) - v(b.x1, b.y0 - 1, c) + v(b.x0 - 1, b.y0 - 1, c)) &
          uint21x3Mask(c);
      mean[c] = float(sum) / area;
    }
    return mean;
  }
  const auto f = [&](int x, int y, int c) { return float(satValue(sat, x, y, c)); };
  for (int c = 0; c < 4; ++c) {
    // The shader's float arithmetic, in the shader's order (sat_float32*.glsl).
    const float sum = f(b.x1, b.y1, c) - f(b.x0 - 1, b.y1, c) - f(b.x1, b.y0 - 1, c) +
                      f(b.x0 - 1, b.y0 - 1, c);
    const float offset = sat.format == SatFormat::Float32Offset ? asFloat(sat.trailer[c]) : 0.0f;
    mean[c] = (sum + area * offset) / area;  // satBoxSum() adds area * m; dof divides
  }
  return mean;
}

}  // namespace satdof::reference

// satdof/reference/box_mean.h — the rounded 8-bit mean of a box read from a SAT in any
// format (satdof/sat_format.h): four reads, the four-term difference in the format's own
// arithmetic, then the mean rounded to the nearest integer (halves up) without a division.
// One definition for the CPU reference, the CUDA DoF kernel (this header compiles as
// device code) and, line for line, the GLSL readers shaders/sat_<format>.glsl.
//
//   uint32          wrapping uint arithmetic; mean = (2 * sum + area) / (2 * area), exact
//   float32         sum = ((A - B) - C) + D in float, each step one IEEE operation
//   float32-offset  the same on centred entries, plus area * m (m: the trailer)
//   uint21x3        as uint32, each field's difference masked to its width (uint21x3.h):
//                   the same sums, hence the same bytes, for boxes within its bound
// For the float formats the integer k with (k - 1/2) * area <= sum < (k + 1/2) * area is
// found by correcting an estimate, each product a single rounded multiply (never fused), so
// every processor that follows IEEE rounding gets the same byte. A union of boxes (the
// disc aperture) adds their sums first (SatSums) and rounds once over the total area.
// Where a GPU could round differently, and why it does not:
//   fusing     nvcc contracts a * b + c into one FMA by default and GLSL drivers may: every
//              product and sum here is SATDOF_MUL/ADD/SUB (__fmul_rn... on the device,
//              `precise` in GLSL, -ffp-contract=off on the host), one rounding each
//   division   sum / area is only the estimate (GLSL's division is not correctly rounded,
//              CUDA's is unless --prec-div=false): the loops settle k by the exact
//              comparisons whatever the estimate, so no byte depends on a quotient
//   conversion int(estimate) truncates on every processor; float(k) and the areas
//              (< 2^24) are exact; the entries were rounded to nearest once, when built
//              (satdof/reference/sat.h's nearestFloat, __ll2float_rn, GLSL floatBits)
//   host mode  the reference rounds to nearest whatever the thread's mode
//              (satdof/reference/fp_environment.h), as the GPUs always do
#pragma once

#include <cstdint>

#include "satdof/reference/coc.h"
#include "satdof/reference/uint21x3.h"
#include "satdof/sat_format.h"

namespace satdof::reference {

// A table as the GPU holds it: entries of 4 words (uint21x3: 2), row-major, then the
// format's trailer.
struct SatView {
  const std::uint32_t* words = nullptr;
  int width = 0;
  SatFormat format = SatFormat::Uint32;
  const std::uint32_t* trailer = nullptr;  // float32-offset: m as 4 float bit patterns
};

struct Rgb8 {
  std::uint8_t r, g, b;
};

namespace box_mean_detail {

struct Words4 {
  std::uint32_t v[4];
};

// uint21x3: the R, G, B fields of the packed entry (alpha 0).
SATDOF_HD inline Words4 packedEntry(const SatView& t, int x, int y) {
  if (x < 0 || y < 0) return {{0, 0, 0, 0}};
  const std::size_t i = (std::size_t(y) * std::size_t(t.width) + std::size_t(x)) * 2;
#if defined(__CUDA_ARCH__)
  const uint2 q = __ldg(reinterpret_cast<const uint2*>(t.words + i));
  const Uint21x3Words e{q.x, q.y};
#else
  const Uint21x3Words e{t.words[i], t.words[i + 1]};
#endif
  return {{uint21x3R(e), uint21x3G(e), uint21x3B(e), 0}};
}

SATDOF_HD inline Words4 entry(const SatView& t, int x, int y) {
  if (t.format == SatFormat::Uint21x3) return packedEntry(t, x, y);
  if (x < 0 || y < 0) return {{0, 0, 0, 0}};
  const std::size_t i = (std::size_t(y) * std::size_t(t.width) + std::size_t(x)) * 4;
#if defined(__CUDA_ARCH__)
  const uint4 q = __ldg(reinterpret_cast<const uint4*>(t.words + i));
  return {{q.x, q.y, q.z, q.w}};
#else
  return {{t.words[i], t.words[i + 1], t.words[i + 2], t.words[i + 3]}};
#endif
}

SATDOF_HD inline float asFloat(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float f;
  __builtin_memcpy(&f, &bits, sizeof f);
  return f;
#endif
}

// k in [0, 255] with (k - 1/2) * area <= sum < (k + 1/2) * area.
SATDOF_HD inline std::uint8_t roundedFloatMean(float sum, float area) {
  float estimate = sum / area + 0.5f;
  if (!(estimate < 255.0f)) estimate = 255.0f;  // also catches nan
  int k = estimate > 0.0f ? int(estimate) : 0;
  while (k > 0 && SATDOF_MUL(float(k) - 0.5f, area) > sum) --k;
  while (k < 255 && SATDOF_MUL(float(k) + 0.5f, area) <= sum) ++k;
  return std::uint8_t(k);
}

}  // namespace box_mean_detail

// The RGB sums of boxes read from one table, added in the format's own arithmetic: the
// integer formats exactly (each box's difference wrapped, uint21x3's masked to its field),
// the float formats one IEEE addition per box, in the order the boxes are added. The
// union of non-overlapping boxes (satdof/reference/aperture.h) is averaged through it.
struct SatSums {
  std::uint32_t exact[3] = {0, 0, 0};  // uint32, uint21x3
  float rounded[3] = {0, 0, 0};        // float32, float32-offset
};

// Adds the inclusive box [x0, x1] x [y0, y1], already clipped to the image (not empty).
SATDOF_HD inline void addBoxSums(const SatView& t, int x0, int y0, int x1, int y1, SatSums& s) {
  using namespace box_mean_detail;
  const Words4 a = entry(t, x1, y1), b = entry(t, x0 - 1, y1), c = entry(t, x1, y0 - 1),
               d = entry(t, x0 - 1, y0 - 1);
  if (t.format == SatFormat::Uint32 || t.format == SatFormat::Uint21x3) {
    for (int i = 0; i < 3; ++i) {
      std::uint32_t sum = a.v[i] - b.v[i] - c.v[i] + d.v[i];  // exact modulo 2^32
      if (t.format == SatFormat::Uint21x3) sum &= uint21x3Mask(i);  // exact modulo the field
      s.exact[i] += sum;
    }
  } else {
    const float area = SATDOF_MUL(float(x1 - x0 + 1), float(y1 - y0 + 1));
    for (int i = 0; i < 3; ++i) {
      float sum = SATDOF_ADD(SATDOF_SUB(SATDOF_SUB(asFloat(a.v[i]), asFloat(b.v[i])), asFloat(c.v[i])),
                             asFloat(d.v[i]));
      if (t.format == SatFormat::Float32Offset) sum = SATDOF_ADD(sum, SATDOF_MUL(area, asFloat(t.trailer[i])));
      s.rounded[i] = SATDOF_ADD(s.rounded[i], sum);
    }
  }
}

// The rounded RGB mean of sums over `area` pixels (the boxes' total area).
SATDOF_HD inline Rgb8 satSumsMean(const SatView& t, const SatSums& s, std::uint32_t area) {
  using namespace box_mean_detail;
  std::uint8_t m[3];
  for (int i = 0; i < 3; ++i)
    m[i] = t.format == SatFormat::Uint32 || t.format == SatFormat::Uint21x3
               ? std::uint8_t((2 * std::uint64_t(s.exact[i]) + area) / (2 * std::uint64_t(area)))
               : roundedFloatMean(s.rounded[i], float(area));
  return {m[0], m[1], m[2]};
}

// The RGB mean over the inclusive box [x0, x1] x [y0, y1], already clipped to the image.
SATDOF_HD inline Rgb8 satBoxMean(const SatView& t, int x0, int y0, int x1, int y1) {
  SatSums s;
  addBoxSums(t, x0, y0, x1, y1, s);
  return satSumsMean(t, s, std::uint32_t(x1 - x0 + 1) * std::uint32_t(y1 - y0 + 1));
}

}  // namespace satdof::reference

// satdof/reference/uint21x3.h — the bits of the uint21x3 SAT format (satdof/sat_format.h),
// written once for the CPU reference and the CUDA kernels (this header compiles as device
// code); shaders/uint21x3_fields.glsl (the fields, for the shaders that read such a table)
// and shaders/compute/sat_entry_bits.glsl (the packing) spell the same operations in GLSL.
//
//   word0 = R[20:0] | B[10:0] << 21        word1 = G[20:0] | B[21:11] << 21
//
// where R, G, B are the entry's exact uint32 sums (any value congruent modulo 2^32 packs to
// the same words). Decoding needs 32-bit shifts and masks only.
#pragma once

#include <cstdint>

#include "satdof/reference/coc.h"  // SATDOF_HD

namespace satdof::reference {

inline constexpr std::uint32_t kUint21x3RgMask = (1u << 21) - 1;  // R and G: 21 bits
inline constexpr std::uint32_t kUint21x3BMask = (1u << 22) - 1;   // B: 22 bits

struct Uint21x3Words {
  std::uint32_t word0, word1;
};

SATDOF_HD constexpr Uint21x3Words packUint21x3(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return {(r & kUint21x3RgMask) | (b << 21), (g & kUint21x3RgMask) | ((b >> 11) << 21)};
}

// The fields: R, G modulo 2^21 and B modulo 2^22.
SATDOF_HD constexpr std::uint32_t uint21x3R(Uint21x3Words e) { return e.word0 & kUint21x3RgMask; }
SATDOF_HD constexpr std::uint32_t uint21x3G(Uint21x3Words e) { return e.word1 & kUint21x3RgMask; }
SATDOF_HD constexpr std::uint32_t uint21x3B(Uint21x3Words e) { return (e.word0 >> 21) | ((e.word1 >> 21) << 11); }

// The mask of channel c's field (c = 0, 1, 2): a box sum D - B - C + A taken in wrapping
// uint32 and masked with it is the true sum modulo 2^bits, so exact while the true sum
// fits (satdof/sat_format.h: kUint21x3MaxBoxArea).
SATDOF_HD constexpr std::uint32_t uint21x3Mask(int c) { return c == 2 ? kUint21x3BMask : kUint21x3RgMask; }

}  // namespace satdof::reference

// conv/conv_device.cuh — building blocks shared by the convolution kernels. Private.
//
// Sections: the image view | exact conversions and the one rounding rule | fused
// multiply-add on four channels | the book's one-pixel-per-thread body | filter weights
// as kernel parameters | radius dispatch.
//
// Bit-exactness with the CPU reference rests on three rules kept here:
//   * a byte becomes a float exactly (no fast-math conversion tricks that round);
//   * every accumulation step is an explicit __fmaf_rn, never a multiply and an add the
//     compiler may or may not contract (-fmad), in the tap order of the variant's maths;
//   * rounding is __fadd_rn(acc, 0.5f), floorf, clamp to [0, 255], as roundToByte().
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "satdof/conv2d.h"
#include "satdof/conv_tiles.h"

namespace satdof::conv {

// =====================================================================================
// the image view passed to every kernel
// =====================================================================================

struct ImageIo {
  const uchar4* in;
  std::size_t inPitch;  // bytes
  uchar4* out;
  std::size_t outPitch;  // bytes
  int width;
  int height;
  Border border;
};

inline ImageIo makeImageIo(const ConvArgs& a) {
  return {a.in, a.inPitchBytes, a.out, a.outPitchBytes, a.width, a.height, a.border};
}

__device__ __forceinline__ const uchar4* inRow(const ImageIo& io, int y) {
  return reinterpret_cast<const uchar4*>(reinterpret_cast<const char*>(io.in) +
                                         std::size_t(y) * io.inPitch);
}

__device__ __forceinline__ uchar4* outRow(const ImageIo& io, int y) {
  return reinterpret_cast<uchar4*>(reinterpret_cast<char*>(io.out) + std::size_t(y) * io.outPitch);
}

__device__ __forceinline__ unsigned asWord(uchar4 p) {
  unsigned w;
  memcpy(&w, &p, sizeof w);
  return w;
}

// The input pixel at (x, y) under the border rule, as a packed RGBA word.
__device__ __forceinline__ unsigned fetchWord(const ImageIo& io, int x, int y) {
  if (io.border == Border::Clamp) {
    x = conv_tiles::clampToEdge(x, io.width);
    y = conv_tiles::clampToEdge(y, io.height);
  } else if (!conv_tiles::insideAxis(x, io.width) || !conv_tiles::insideAxis(y, io.height)) {
    return 0u;  // ghost cell
  }
  return asWord(inRow(io, y)[x]);
}

// =====================================================================================
// exact conversions and the one rounding rule
// =====================================================================================

// Byte `c` of `word` as a float, exactly: the byte placed in the mantissa of 2^23 gives
// 2^23 + b, and subtracting 2^23 is exact. Two cheap instructions instead of a
// quarter-rate integer-to-float conversion.
__device__ __forceinline__ float byteToFloat(unsigned word, unsigned c) {
  const unsigned bits = __byte_perm(word, 0x4B000000u, 0x7650u | c);
  return __fsub_rn(__uint_as_float(bits), 8388608.0f);
}

__device__ __forceinline__ float4 toFloat4(unsigned word) {
  return make_float4(byteToFloat(word, 0), byteToFloat(word, 1), byteToFloat(word, 2),
                     byteToFloat(word, 3));
}

// clamp(floor(acc + 0.5f), 0, 255), as reference::roundToByte: acc + 0.5f rounded to
// nearest as in the reference, then one F2I.U8.FLOOR, which floors and saturates to
// 0..255 (NaN cannot occur: validateFilter() refuses non-finite weights). Two issue
// slots per channel; the conversion runs on the quarter-rate unit beside the FMA pipes,
// and every kernel here issues at least 6 FMAs per rounded channel to keep it busy.
__device__ __forceinline__ unsigned roundChannel(float acc) {
  unsigned r;
  asm("cvt.rmi.sat.u8.f32 %0, %1;" : "=r"(r) : "f"(__fadd_rn(acc, 0.5f)));
  return r;
}

// Four rounded channels packed as one RGBA8 word.
__device__ __forceinline__ unsigned roundToWord(float4 acc) {
  const unsigned lo = __byte_perm(roundChannel(acc.x), roundChannel(acc.y), 0x0040);
  const unsigned hi = __byte_perm(roundChannel(acc.z), roundChannel(acc.w), 0x0040);
  return __byte_perm(lo, hi, 0x5410);
}

__device__ __forceinline__ uchar4 roundToUchar4(float4 acc) {
  const unsigned w = roundToWord(acc);
  uchar4 p;
  memcpy(&p, &w, sizeof p);
  return p;
}

// =====================================================================================
// fused multiply-add on four channels
// =====================================================================================

__device__ __forceinline__ void fma4(float w, float4 v, float4& acc) {
  acc.x = __fmaf_rn(w, v.x, acc.x);
  acc.y = __fmaf_rn(w, v.y, acc.y);
  acc.z = __fmaf_rn(w, v.z, acc.z);
  acc.w = __fmaf_rn(w, v.w, acc.w);
}

// =====================================================================================
// the book's one-pixel-per-thread body (basic, constant-memory)
// =====================================================================================
// Taps row-major, each an fma on four channels (ConvMath::Direct), the border rule
// applied per tap. `taps[k]` is where the variant keeps its filter: a global array
// (basic) or a __constant__ one (constant-memory); the loops are the same.

__device__ __forceinline__ uchar4 convolvePixelDirect(const ImageIo& io, int x, int y, int radius,
                                                      auto taps) {
  const int n = 2 * radius + 1;
  const bool clamp = io.border == Border::Clamp;
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int i = 0; i < n; ++i) {
    int sy = y - radius + i;
    if (clamp) {
      sy = conv_tiles::clampToEdge(sy, io.height);
    } else if (sy < 0 || sy >= io.height) {
      continue;  // ghost row: fma(w, 0, acc) == acc
    }
    const uchar4* row = inRow(io, sy);
    for (int j = 0; j < n; ++j) {
      int sx = x - radius + j;
      if (clamp) {
        sx = conv_tiles::clampToEdge(sx, io.width);
      } else if (sx < 0 || sx >= io.width) {
        continue;
      }
      fma4(taps[i * n + j], toFloat4(asWord(row[sx])), acc);
    }
  }
  return roundToUchar4(acc);
}

// =====================================================================================
// filter weights as kernel parameters
// =====================================================================================
// Kernel parameters live in a constant bank: with compile-time indices (unrolled taps)
// each FFMA takes its weight straight from there, the same broadcast path as __constant__
// memory, with no copy to issue and no state shared between concurrent launches.
// Taps2D<15> is 3844 bytes, inside the classic 4 KiB parameter limit.

template <int R>
struct Taps2D {
  float w[(2 * R + 1) * (2 * R + 1)];
};

template <int R>
struct Taps1D {
  float row[2 * R + 1];  // horizontal pass (x)
  float col[2 * R + 1];  // vertical pass (y)
};

// The caller has checked filter.radius == R and validateFilter().
template <int R>
Taps2D<R> makeTaps2D(const Filter& f) {
  Taps2D<R> t{};
  std::copy(f.weights.begin(), f.weights.end(), t.w);
  return t;
}

template <int R>
Taps1D<R> makeTaps1D(const Filter& f) {
  Taps1D<R> t{};
  std::copy(f.rowWeights.begin(), f.rowWeights.end(), t.row);
  std::copy(f.colWeights.begin(), f.colWeights.end(), t.col);
  return t;
}

// =====================================================================================
// radius dispatch
// =====================================================================================
// Calls f(std::integral_constant<int, R>{}) for the runtime radius, so kernels can be
// templates on R with fully known loop bounds. Radii outside 1..15 were refused earlier.

template <class F>
cudaError_t withRadius(int radius, F&& f) {
  switch (radius) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 9: return f(std::integral_constant<int, 9>{});
    case 10: return f(std::integral_constant<int, 10>{});
    case 11: return f(std::integral_constant<int, 11>{});
    case 12: return f(std::integral_constant<int, 12>{});
    case 13: return f(std::integral_constant<int, 13>{});
    case 14: return f(std::integral_constant<int, 14>{});
    case 15: return f(std::integral_constant<int, 15>{});
    default: return cudaErrorInvalidValue;
  }
}

static_assert(kMaxFilterRadius == 15, "withRadius() lists every radius up to 15");

inline unsigned ceilDiv(int n, int d) { return unsigned((n + d - 1) / d); }

}  // namespace satdof::conv

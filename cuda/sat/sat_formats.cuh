// cuda/sat/sat_formats.cuh — what the SAT kernels need to know about a table format
// (satdof/sat_format.h), and the mean pass of float32-offset.
//
// All formats are built the same way: tile-local sums in wrapping 32-bit integers (exact
// for uint32; for the float formats the tile-local sums are small enough to be exact
// signed integers, see kMaxFloatWidth), carries between tiles in the format's Carry type
// (uint32 wraps like the table; int64 is exact), and each entry converted once at the
// store. So float32 entries are the exact sums rounded once, as the reference defines.
// Entry is what one pixel's store writes: uint4 (16 bytes), or uint2 for uint21x3, whose
// entry packs the wrapping uint32 sums' R, G, B fields (satdof/reference/uint21x3.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "satdof/sat.h"
#include "satdof/reference/uint21x3.h"
#include "satdof/sat_format.h"
#include "sat/sat_source.cuh"

namespace satdof::detail {

template <SatFormat F>
struct FormatTraits;

template <>
struct FormatTraits<SatFormat::Uint32> {
  using Agg = std::uint32_t;    // a tile's own sums
  using Carry = std::uint32_t;  // sums over many tiles
  using Entry = uint4;          // one pixel's entry in the table
  static constexpr bool kOffset = false;
  __device__ static uint4 entry(const Carry (&carry)[4], const std::uint32_t (&local)[4]) {
    return make_uint4(carry[0] + local[0], carry[1] + local[1], carry[2] + local[2],
                      carry[3] + local[3]);
  }
};

template <>
struct FormatTraits<SatFormat::Float32> {
  using Agg = std::int32_t;
  using Carry = long long;
  using Entry = uint4;
  static constexpr bool kOffset = false;
  __device__ static uint4 entry(const Carry (&carry)[4], const std::uint32_t (&local)[4]) {
    uint4 e;
    e.x = __float_as_uint(__ll2float_rn(carry[0] + std::int32_t(local[0])));
    e.y = __float_as_uint(__ll2float_rn(carry[1] + std::int32_t(local[1])));
    e.z = __float_as_uint(__ll2float_rn(carry[2] + std::int32_t(local[2])));
    e.w = __float_as_uint(__ll2float_rn(carry[3] + std::int32_t(local[3])));
    return e;
  }
};

template <>
struct FormatTraits<SatFormat::Float32Offset> : FormatTraits<SatFormat::Float32> {
  static constexpr bool kOffset = true;
};

template <>
struct FormatTraits<SatFormat::Uint21x3> {
  using Agg = std::uint32_t;    // wrapping, as uint32: only the low 21/22 bits are kept
  using Carry = std::uint32_t;
  using Entry = uint2;
  static constexpr bool kOffset = false;
  __device__ static uint2 entry(const Carry (&carry)[4], const std::uint32_t (&local)[4]) {
    const reference::Uint21x3Words w =
        reference::packUint21x3(carry[0] + local[0], carry[1] + local[1], carry[2] + local[2]);
    return make_uint2(w.word0, w.word1);
  }
};

// Bytes of one channel of a Carry, for the scratch layouts sized at run time.
inline std::size_t carryBytes(SatFormat format) {
  return format == SatFormat::Float32 || format == SatFormat::Float32Offset ? 8 : 4;
}

// A lane's N adjacent entries (N even, x0 even) of an 8-byte format into one table row:
// 16 bytes per store where the row starts 16-byte aligned (then so does every pair from an
// even x0: always with an even width and a table from cudaMalloc or a GL buffer), else 8.
template <int N>
__device__ __forceinline__ void storeEntryPairs(uint2* row, int x0, int width, const uint2 (&e)[N]) {
  static_assert(N % 2 == 0, "entries come in pairs");
  const bool pairs = reinterpret_cast<std::uintptr_t>(row) % 16 == 0;
#pragma unroll
  for (int i = 0; i < N; i += 2) {
    const int x = x0 + i;
    if (pairs && x + 1 < width) {
      __stcs(reinterpret_cast<uint4*>(row + x), make_uint4(e[i].x, e[i].y, e[i + 1].x, e[i + 1].y));
    } else {
      if (x < width) __stcs(row + x, e[i]);
      if (x + 1 < width) __stcs(row + x + 1, e[i + 1]);
    }
  }
}

// Tile-local sums of the float formats are exact in int32 while
// 255 * width * kLocalRows < 2^31 (kLocalRows: the most rows a tile sums, 32 or 64).
inline constexpr int kMaxFloatWidth = 1 << 17;

// Scratch words every SAT kernel with tickets and look-back starts from (zeroed by one
// memset with the flags that follow it).
struct SatScratchHead {
  unsigned int ticket;          // next tile id
  unsigned int pad;
  unsigned long long sums[4];   // float32-offset: per-channel sums of the image
};

// ---------------------------------------------------------------------------------------
// float32-offset: per-channel image sums (one pass over the image), then each kernel
// derives the integer mean m_c = (sum_c + n/2) / n, exactly as the reference does.
// ---------------------------------------------------------------------------------------
template <class Source>
__global__ void __launch_bounds__(256) channelSumsKernel(Source src, int width, int height,
                                                         SatScratchHead* head) {
  unsigned long long local[4] = {0, 0, 0, 0};
  for (int y = blockIdx.x; y < height; y += gridDim.x) {
    for (int x = threadIdx.x; x < width; x += 256) {
      const uchar4 p = src.read(x, y);
      local[0] += p.x;
      local[1] += p.y;
      local[2] += p.z;
      local[3] += p.w;
    }
  }
#pragma unroll
  for (int c = 0; c < 4; ++c) {
#pragma unroll
    for (int m = 16; m > 0; m >>= 1) local[c] += __shfl_xor_sync(0xffffffffu, local[c], m);
    if ((threadIdx.x & 31) == 0) atomicAdd(&head->sums[c], local[c]);
  }
}

__device__ __forceinline__ void channelOffsets(const SatScratchHead* head, int width, int height,
                                               std::uint32_t (&m)[4]) {
  const unsigned long long n = static_cast<unsigned long long>(width) * height;
#pragma unroll
  for (int c = 0; c < 4; ++c) m[c] = static_cast<std::uint32_t>((head->sums[c] + n / 2) / n);
}

// The float32-offset trailer: m as 4 floats after the entries.
__device__ __forceinline__ void writeOffsetTrailer(void* table, int width, int height,
                                                   const std::uint32_t (&m)[4]) {
  auto* trailer = reinterpret_cast<float4*>(static_cast<uint4*>(table) +
                                            static_cast<std::size_t>(width) * height);
  *trailer = make_float4(float(m[0]), float(m[1]), float(m[2]), float(m[3]));
}

// ---------------------------------------------------------------------------------------
// Host side: the checks every algorithm's launch() starts with, then
// launch(source, FormatTag<format>{}) with the args' source type and format as types.
// ---------------------------------------------------------------------------------------
template <SatFormat F>
using FormatTag = std::integral_constant<SatFormat, F>;

template <class Source, class Launch>
cudaError_t withFormat(SatFormat format, Source src, Launch&& launch) {
  switch (format) {
    case SatFormat::Uint32:
      return launch(src, FormatTag<SatFormat::Uint32>{});
    case SatFormat::Float32:
      return launch(src, FormatTag<SatFormat::Float32>{});
    case SatFormat::Float32Offset:
      return launch(src, FormatTag<SatFormat::Float32Offset>{});
    case SatFormat::Uint21x3:
      return launch(src, FormatTag<SatFormat::Uint21x3>{});
  }
  return cudaErrorInvalidValue;
}

template <class Launch>
cudaError_t withSourceAndFormat(const SatArgs& args, Launch&& launch) {
  if (args.width < 0 || args.height < 0) return cudaErrorInvalidValue;
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  if (carryBytes(args.format) == 8 && args.width > kMaxFloatWidth) return cudaErrorInvalidValue;
  if (args.source.isSurface()) return withFormat(args.format, SurfaceSource{args.source.surface}, launch);
  if (!args.source.rgba) return cudaErrorInvalidValue;
  const bool aligned16 = reinterpret_cast<std::uintptr_t>(args.source.rgba) % 16 == 0 &&
                         args.source.pitchBytes % 16 == 0;
  return withFormat(args.format, LinearSource{args.source.rgba, args.source.pitchBytes, aligned16},
                    launch);
}

// SatAlgorithm::launch from an algorithm's per-format launch:
// Algorithm::launch<F>(source, width, height, table, scratch, scratchBytes, stream).
template <class Algorithm>
cudaError_t launchSat(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                      cudaStream_t stream) {
  return withSourceAndFormat(args, [&](auto src, auto format) {
    return Algorithm::template launch<decltype(format)::value>(src, args.width, args.height,
                                                               args.table, scratch, scratchBytes,
                                                               stream);
  });
}

}  // namespace satdof::detail

// conv/row_stream.cuh — the column-strip engine behind the small-radius paths (r <= 2)
// of tiled-halo, tiled-cached-halo and separable. Private.
//
// What: one warp owns a strip 128 columns wide (4 adjacent pixels per lane) and kRows
// output rows tall, and walks down it one input row at a time. Each input row is
// converted to float once per lane (its 4 pixels and r on each side) and fed to every
// output row that uses it; the 2r + 1 output rows in progress keep their accumulators in
// registers, in rotating slots, and a row is rounded and stored (one 16-byte store per
// lane) as soon as its last input row has arrived.
// Why: a load-tile / barrier / compute / store kernel has memory traffic in flight only
// during its load phase. Here each warp keeps the next rows' loads in flight while it
// computes, there is no block barrier, loads and stores are 16 bytes wide, and each
// converted pixel feeds up to 4(2r + 1) outputs.
// Where a row's window (the lane's 4 pixels and the r-pixel halo on each side) comes
// from is the variant's choice, a Source; the tap order is ConvMath::Direct (rows, then
// columns, of the 2D weights) or ConvMath::Separable (row pass into a float, then the
// column pass over those floats), exactly as the CPU reference.
#pragma once

#include "conv/conv_device.cuh"
#include "satdof/cuda_check.h"

namespace satdof::conv::rowstream {

inline constexpr int kLanes = 32;
inline constexpr int kPixelsPerLane = 4;                     // one 16-byte word group
inline constexpr int kStripWidth = kLanes * kPixelsPerLane;  // 128 columns per warp
inline constexpr int kWarpsPerBlock = 4;                     // stacked vertically
// Output rows per warp, and blocks per SM the registers are sized for. r = 1: 32 rows,
// <= 128 registers, 16 warps per SM: at 4K 30 x 68 = 2040 warps, one wave on 132 SMs.
// r = 2 needs up to 168 registers (80 accumulators) to run without spills: 12 warps per
// SM, so 44 rows: 30 x 50 = 1500 warps, again one wave (a second, nearly empty wave
// would cost as much as the first).
template <int R>
inline constexpr int kRows = R == 1 ? 32 : 44;
template <int R>
inline constexpr int kMinBlocks = R == 1 ? 4 : 3;

// =====================================================================================
// rows and words under the border rule
// =====================================================================================

struct RowRef {
  const unsigned* p;  // row y (clamped), or row 0 for a ghost row
  bool ghost;         // zero border, y outside the image: every word is 0
};

__device__ __forceinline__ RowRef rowRef(const ImageIo& io, int y) {
  bool ghost = false;
  if (io.border == Border::Clamp) {
    y = min(max(y, 0), io.height - 1);
  } else {
    ghost = unsigned(y) >= unsigned(io.height);
    if (ghost) y = 0;
  }
  return {reinterpret_cast<const unsigned*>(inRow(io, y)), ghost};
}

__device__ __forceinline__ unsigned wordAt(const ImageIo& io, RowRef r, int x) {
  if (io.border == Border::Clamp) {
    x = min(max(x, 0), io.width - 1);
  } else if (r.ghost || unsigned(x) >= unsigned(io.width)) {
    return 0u;
  }
  return __ldg(r.p + x);
}

__device__ __forceinline__ uint4 load4(const unsigned* p) {
  return __ldg(reinterpret_cast<const uint4*>(p));
}

// 16-byte accesses need 16-byte aligned rows.
__device__ __forceinline__ bool rowsAligned16(const void* base, std::size_t pitch) {
  return ((reinterpret_cast<std::size_t>(base) | pitch) & 15u) == 0;
}

__device__ __forceinline__ void storeRow(const ImageIo& io, bool vecOk, int y, int x,
                                         const float4 (&acc)[kPixelsPerLane]) {
  const uint4 o = make_uint4(roundToWord(acc[0]), roundToWord(acc[1]), roundToWord(acc[2]),
                             roundToWord(acc[3]));
  unsigned* dst = reinterpret_cast<unsigned*>(outRow(io, y)) + x;
  if (vecOk && x + 3 < io.width) {
    *reinterpret_cast<uint4*>(dst) = o;
  } else {
    const unsigned words[4] = {o.x, o.y, o.z, o.w};
#pragma unroll
    for (int m = 0; m < 4; ++m)
      if (x + m < io.width) dst[m] = words[m];
  }
}

// =====================================================================================
// the walk down one strip
// =====================================================================================
// Source provides: a Row type (what fetch() leaves in registers), fetch(RowRef) which
// issues the loads of one input row, and window(row, t, w) which yields the words of
// columns x - R .. x + 3 + R for input row t. kDepth rows are fetched ahead.

template <int R, ConvMath M, int kDepth, class Source, class Taps>
__device__ __forceinline__ void walkStrip(const ImageIo& io, const Taps& taps, Source& src,
                                          int x, int y0) {
  constexpr int kN = 2 * R + 1;
  constexpr int kW = kPixelsPerLane + 2 * R;
  static_assert(M == ConvMath::Direct || M == ConvMath::Separable);
  const int rows = min(kRows<R>, io.height - y0);
  const int inRows = rows + 2 * R;
  const bool vecOut = rowsAligned16(io.out, io.outPitch);

  typename Source::Row ahead[kDepth];
#pragma unroll
  for (int d = 0; d < kDepth; ++d) ahead[d] = src.fetch(rowRef(io, y0 - R + d));

  // Output row o (0-based in the strip) lives in slot o % kN and receives input row t
  // (also 0-based, t = o + i) through filter row i. Within period p, t = p * kN + k, so
  // the slot of the output using filter row i is (k - i) mod kN, known at compile time.
  float4 acc[kN][kPixelsPerLane];
  for (int p = 0;; ++p) {
#pragma unroll
    for (int k = 0; k < kN; ++k) {
      const int t = p * kN + k;
      if (t >= inRows) return;
      const typename Source::Row cur = ahead[0];
#pragma unroll
      for (int d = 0; d + 1 < kDepth; ++d) ahead[d] = ahead[d + 1];
      if (t + kDepth < inRows) ahead[kDepth - 1] = src.fetch(rowRef(io, y0 - R + t + kDepth));
      unsigned w[kW];
      src.window(cur, t, w);

      // A new output row starts with this input row (filter row 0).
#pragma unroll
      for (int m = 0; m < kPixelsPerLane; ++m) acc[k][m] = make_float4(0.f, 0.f, 0.f, 0.f);

      if constexpr (M == ConvMath::Direct) {
        // Pixel q feeds output column m through filter column j = q - m: for each
        // accumulator, rows ascend across input rows and columns ascend here.
#pragma unroll
        for (int q = 0; q < kW; ++q) {
          const float4 v = toFloat4(w[q]);
#pragma unroll
          for (int m = 0; m < kPixelsPerLane; ++m) {
            const int j = q - m;
            if (j < 0 || j >= kN) continue;
#pragma unroll
            for (int i = 0; i < kN; ++i) {
              if (i > k && p == 0) continue;  // output row t - i < 0: none
              fma4(taps.w[i * kN + j], v, acc[(k - i + kN) % kN][m]);
            }
          }
        }
      } else {
        // Row pass: rowWeights j-ascending into a float per pixel; then the column pass
        // adds that float to each output row in progress through colWeights[i].
        float4 h[kPixelsPerLane];
#pragma unroll
        for (int m = 0; m < kPixelsPerLane; ++m) h[m] = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int q = 0; q < kW; ++q) {
          const float4 v = toFloat4(w[q]);
#pragma unroll
          for (int m = 0; m < kPixelsPerLane; ++m) {
            const int j = q - m;
            if (j >= 0 && j < kN) fma4(taps.row[j], v, h[m]);
          }
        }
#pragma unroll
        for (int i = 0; i < kN; ++i) {
          if (i > k && p == 0) continue;
#pragma unroll
          for (int m = 0; m < kPixelsPerLane; ++m)
            fma4(taps.col[i], h[m], acc[(k - i + kN) % kN][m]);
        }
      }

      // The output row using this input row as filter row 2r is complete.
      if (p > 0 || k >= 2 * R) storeRow(io, vecOut, y0 + t - 2 * R, x, acc[(k + 1) % kN]);
    }
  }
}

// =====================================================================================
// the kernel: 4 warps per block, each its own strip (vertically adjacent)
// =====================================================================================

template <int R, ConvMath M, int kDepth, class Source, class Taps>
__global__ void __launch_bounds__(kLanes* kWarpsPerBlock, kMinBlocks<R>)
    stripKernel(ImageIo io, const __grid_constant__ Taps taps) {
  __shared__ typename Source::Shared shared[kWarpsPerBlock];
  const int lane = threadIdx.x % kLanes;
  const int warp = threadIdx.x / kLanes;
  const int y0 = (blockIdx.y * kWarpsPerBlock + warp) * kRows<R>;
  if (y0 >= io.height) return;  // uniform per warp
  const int x = (blockIdx.x * kLanes + lane) * kPixelsPerLane;
  Source src(io, x, lane, shared[warp]);
  walkStrip<R, M, kDepth>(io, taps, src, x, y0);
}

inline dim3 stripBlock() { return dim3(kLanes * kWarpsPerBlock); }

template <int R>
inline dim3 stripGrid(int width, int height) {
  const unsigned strips = ceilDiv(height, kRows<R>);
  return dim3(ceilDiv(width, kStripWidth), (strips + kWarpsPerBlock - 1) / kWarpsPerBlock);
}

// Rows fetched ahead of the one being used: 3 at r = 1, 2 at r = 2 (registers).
template <int R>
inline constexpr int kFetchDepth = R == 1 ? 3 : 2;

// The launch shared by tiled-halo, tiled-cached-halo (ConvMath::Direct) and separable
// (ConvMath::Separable): r <= 2 through the strip engine with the variant's row Source,
// larger radii through the variant's own kernel, which
// launchLarge(std::integral_constant<int, R>) launches and checks.
template <ConvMath M, template <int> class Source, class LaunchLarge>
cudaError_t launchByRadius(const ConvArgs& args, cudaStream_t stream, LaunchLarge&& launchLarge) {
  const Filter& f = *args.filter;
  return withRadius(f.radius, [&](auto radius) -> cudaError_t {
    constexpr int R = decltype(radius)::value;
    if constexpr (R <= 2) {
      const ImageIo io = makeImageIo(args);
      const auto taps = [&] {
        if constexpr (M == ConvMath::Direct) return makeTaps2D<R>(f);
        else return makeTaps1D<R>(f);
      }();
      stripKernel<R, M, kFetchDepth<R>, Source<R>>
          <<<stripGrid<R>(io.width, io.height), stripBlock(), 0, stream>>>(io, taps);
      SATDOF_TRY_LAUNCH();
      return cudaSuccess;
    } else {
      return launchLarge(radius);
    }
  });
}

// =====================================================================================
// the window straight from global memory (halo through L1/L2)
// =====================================================================================

template <int R>
struct CachedSource {
  static_assert(R >= 1 && R <= 2);
  static constexpr int kW = kPixelsPerLane + 2 * R;
  struct Shared {};
  struct Row {
    unsigned w[kW];
  };
  const ImageIo& io;
  int x;
  bool fast;  // window inside the image and 16-byte rows: vector loads

  __device__ CachedSource(const ImageIo& io_, int x_, int, Shared&)
      : io(io_), x(x_),
        fast(rowsAligned16(io_.in, io_.inPitch) && x_ - R >= 0 && x_ + 3 + R < io_.width) {}

  __device__ __forceinline__ Row fetch(RowRef r) const {
    Row row;
    if (fast && !r.ghost) {
      const uint4 m = load4(r.p + x);
      if constexpr (R == 1) {
        row.w[0] = __ldg(r.p + x - 1);
        row.w[5] = __ldg(r.p + x + 4);
      } else {
        const uint2 l = __ldg(reinterpret_cast<const uint2*>(r.p + x - 2));
        const uint2 h = __ldg(reinterpret_cast<const uint2*>(r.p + x + 4));
        row.w[0] = l.x, row.w[1] = l.y, row.w[6] = h.x, row.w[7] = h.y;
      }
      row.w[R] = m.x, row.w[R + 1] = m.y, row.w[R + 2] = m.z, row.w[R + 3] = m.w;
    } else {
#pragma unroll
      for (int k = 0; k < kW; ++k) row.w[k] = wordAt(io, r, x - R + k);
    }
    return row;
  }

  __device__ __forceinline__ void window(const Row& row, int, unsigned (&w)[kW]) const {
#pragma unroll
    for (int k = 0; k < kW; ++k) w[k] = row.w[k];
  }
};

}  // namespace satdof::conv::rowstream

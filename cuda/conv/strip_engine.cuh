// conv/strip_engine.cuh — the column-strip engine behind the small-radius paths (r <= 2)
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
// How the rows stay in flight: each warp has a ring of kStages row tiles in shared
// memory, filled by asynchronous copies (cp.async: global to shared without passing
// through registers). While the warp computes row t, rows t + 1 .. t + kStages - 1 are
// on their way; nothing waits until row t itself is needed. (Holding rows in flight in
// registers instead made the compiler rotate registers that a load was still writing,
// and every rotation waited for that load.)
// Where a row's window (the lane's 4 pixels and the r-pixel halo on each side) comes
// from is the variant's choice, a Source; the tap order is ConvMath::Direct (rows, then
// columns, of the 2D weights) or ConvMath::Separable (row pass into a float, then the
// column pass over those floats), exactly as the CPU reference.
#pragma once

#include "conv/conv_device.cuh"
#include "satdof/conv_tiles.h"
#include "satdof/cuda_check.h"

namespace satdof::conv::strip {

// The shapes and the index arithmetic are satdof/conv_tiles.h's, which the lesson shares.
inline constexpr int kLanes = conv_tiles::kStripLanes;
inline constexpr int kPixelsPerLane = conv_tiles::kStripPixelsPerLane;  // one 16-byte word group
inline constexpr int kStripWidth = conv_tiles::kStripWidth;             // 128 columns per warp
inline constexpr int kWarpsPerBlock = conv_tiles::kStripWarpsPerBlock;  // stacked vertically
// Output rows per warp, and blocks per SM the registers are sized for. r = 1: 26 rows,
// <= 102 registers, 20 warps per SM: at 4K 30 x 84 = 2520 warps, one wave on 132 SMs
// (2640 slots). r = 2 needs up to 168 registers (80 accumulators) to run without spills:
// 12 warps per SM, so 44 rows: 30 x 50 = 1500 warps, again one wave (a second, nearly
// empty wave would cost as much as the first).
template <int R>
inline constexpr int kRows = conv_tiles::stripRows(R);
template <int R>
inline constexpr int kMinBlocks = R == 1 ? 5 : 3;
// Row tiles in each warp's ring: kStages - 1 rows in flight while one is computed.
// 5 x 512 bytes per warp and 12 to 20 warps per SM keep 30 to 50 KB of loads in flight
// per SM, what the H100/H200's bandwidth times their memory latency asks for.
inline constexpr int kStages = conv_tiles::kStripStages;

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
    y = conv_tiles::clampToEdge(y, io.height);
  } else {
    ghost = !conv_tiles::insideAxis(y, io.height);
    if (ghost) y = 0;
  }
  return {reinterpret_cast<const unsigned*>(inRow(io, y)), ghost};
}

__device__ __forceinline__ unsigned wordAt(const ImageIo& io, RowRef r, int x) {
  if (io.border == Border::Clamp) {
    x = conv_tiles::clampToEdge(x, io.width);
  } else if (r.ghost || !conv_tiles::insideAxis(x, io.width)) {
    return 0u;
  }
  return __ldg(r.p + x);
}

__device__ __forceinline__ uint4 load4(const unsigned* p) {
  return __ldg(reinterpret_cast<const uint4*>(p));
}

// Four words of a row under the border rule, for the lanes whose group is not one
// aligned 16-byte block inside the image (image edges, unaligned pitches).
__device__ __forceinline__ uint4 groupAt(const ImageIo& io, RowRef r, int x0) {
  return make_uint4(wordAt(io, r, x0), wordAt(io, r, x0 + 1), wordAt(io, r, x0 + 2),
                    wordAt(io, r, x0 + 3));
}

// 16-byte accesses need 16-byte aligned rows.
__device__ __forceinline__ bool rowsAligned16(const void* base, std::size_t pitch) {
  return ((reinterpret_cast<std::size_t>(base) | pitch) & 15u) == 0;
}

// =====================================================================================
// asynchronous row copies (cp.async on sm_80 and later; plain copies before)
// =====================================================================================

// 16 bytes from global to shared memory, cached in L1 on the way (.ca), so that halo
// reads of the same lines hit there. `ghost`: the 16 bytes are zero-filled instead
// (nothing is read; src must still be a valid address).
__device__ __forceinline__ void copyAsync16(uint4* dst, const unsigned* src, bool ghost) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" ::"r"(
                   unsigned(__cvta_generic_to_shared(dst))),
               "l"(src), "r"(ghost ? 0u : 16u)
               : "memory");
#else
  *dst = ghost ? make_uint4(0u, 0u, 0u, 0u) : load4(src);
#endif
}

// Closes the group of copies issued since the last commit (one group per row).
__device__ __forceinline__ void commitCopies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits until at most `Pending` of this thread's most recent groups are still in flight.
template <int Pending>
__device__ __forceinline__ void waitCopies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}

// Rounds and stores one output row's 4 pixels at `dst` (column x of that row).
__device__ __forceinline__ void storeRow(const ImageIo& io, bool vecOk, unsigned* dst, int x,
                                         const float4 (&acc)[kPixelsPerLane]) {
  const uint4 o = make_uint4(roundToWord(acc[0]), roundToWord(acc[1]), roundToWord(acc[2]),
                             roundToWord(acc[3]));
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
// Source provides: a Shared type (the warp's ring of kStages row tiles), fetch(r, slot),
// which issues the asynchronous copies of input row r into ring slot `slot`,
// prime(first), called once before the walk with its first row, and window(slot, next,
// w), which yields the words of columns x - R .. x + 3 + R of the row in ring slot
// `slot` once its copies have landed (`next` is the row after it).

template <int R, ConvMath M, class Source, class Taps>
__device__ __forceinline__ void walkStrip(const ImageIo& io, const Taps& taps, Source& src,
                                          int x, int y0) {
  constexpr int kN = 2 * R + 1;
  constexpr int kW = kPixelsPerLane + 2 * R;
  static_assert(M == ConvMath::Direct || M == ConvMath::Separable);
  const int rows = min(kRows<R>, io.height - y0);
  const int inRows = rows + 2 * R;
  const bool vecOut = rowsAligned16(io.out, io.outPitch);
  // The next output row to store; rows are completed, and stored, in order.
  char* out = reinterpret_cast<char*>(reinterpret_cast<unsigned*>(outRow(io, y0)) + x);

  // Input row t goes to ring slot t % kStages, one commit group per row (empty groups
  // past the strip's end keep the count uniform). Rows 0 .. kStages - 2 start now.
#pragma unroll
  for (int d = 0; d + 1 < kStages; ++d) {
    if (d < inRows) src.fetch(rowRef(io, y0 - R + d), d);
    commitCopies();
  }
  src.prime(rowRef(io, y0 - R));

  // Output row o (0-based in the strip) lives in slot o % kN and receives input row t
  // (also 0-based, t = o + i) through filter row i. Within period p, t = p * kN + k, so
  // the slot of the output using filter row i is (k - i) mod kN, known at compile time.
  // In the first period the slots of outputs "above" the strip (t - i < 0) take FMAs
  // too: they are reset before their first real input row and never stored, and doing
  // the FMAs costs less than testing for them.
  float4 acc[kN][kPixelsPerLane];
#pragma unroll
  for (int s = 0; s < kN; ++s)
#pragma unroll
    for (int m = 0; m < kPixelsPerLane; ++m) acc[s][m] = make_float4(0.f, 0.f, 0.f, 0.f);
  int slot = 0;  // t % kStages
  for (int p = 0;; ++p) {
#pragma unroll
    for (int k = 0; k < kN; ++k) {
      const int t = p * kN + k;
      if (t >= inRows) return;  // no copies are left in flight: the rest were empty
      // Rows up to t + kStages - 2 are committed: row t has landed once at most
      // kStages - 2 groups are pending. The warp barrier makes every lane's copies
      // visible, and tells that row t - 1's slot has been read by all: row
      // t + kStages - 1 goes there.
      waitCopies<kStages - 2>();
      __syncwarp();
      const int refill = slot == 0 ? kStages - 1 : slot - 1;
      if (t + kStages - 1 < inRows) src.fetch(rowRef(io, y0 - R + t + kStages - 1), refill);
      commitCopies();
      unsigned w[kW];
      src.window(slot, rowRef(io, y0 - R + t + 1), w);
      slot = slot == kStages - 1 ? 0 : slot + 1;

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
            for (int i = 0; i < kN; ++i) fma4(taps.w[i * kN + j], v, acc[conv_tiles::stripSlot(k, i, kN)][m]);
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
        for (int i = 0; i < kN; ++i)
#pragma unroll
          for (int m = 0; m < kPixelsPerLane; ++m)
            fma4(taps.col[i], h[m], acc[conv_tiles::stripSlot(k, i, kN)][m]);
      }

      // The output row using this input row as filter row 2r is complete.
      if (p > 0 || k >= 2 * R) {
        storeRow(io, vecOut, reinterpret_cast<unsigned*>(out), x, acc[conv_tiles::stripDoneSlot(k, kN)]);
        out += io.outPitch;
      }
    }
  }
}

// =====================================================================================
// the kernel: 4 warps per block, each its own strip (vertically adjacent)
// =====================================================================================

template <int R, ConvMath M, class Source, class Taps>
__global__ void __launch_bounds__(kLanes* kWarpsPerBlock, kMinBlocks<R>)
    stripKernel(ImageIo io, const __grid_constant__ Taps taps) {
  __shared__ typename Source::Shared shared[kWarpsPerBlock];
  const int lane = threadIdx.x % kLanes;
  const int warp = threadIdx.x / kLanes;
  const int y0 = conv_tiles::stripFirstRow(blockIdx.y, warp, R);
  if (y0 >= io.height) return;  // uniform per warp
  const int x = conv_tiles::stripLaneColumn(blockIdx.x, lane);
  Source src(io, x, lane, shared[warp]);
  walkStrip<R, M>(io, taps, src, x, y0);
}

inline dim3 stripBlock() { return dim3(kLanes * kWarpsPerBlock); }

template <int R>
inline dim3 stripGrid(int width, int height) {
  const unsigned strips = ceilDiv(height, kRows<R>);
  return dim3(ceilDiv(width, kStripWidth), (strips + kWarpsPerBlock - 1) / kWarpsPerBlock);
}

// The launch shared by tiled-halo, tiled-cached-halo (ConvMath::Direct) and separable
// (ConvMath::Separable): r <= 2 through the strip engine with the variant's row Source,
// larger radii through the variant's own kernel, which
// launchLarge(std::integral_constant<int, R>) launches and checks.
template <ConvMath M, template <int> class Source, class LaunchLarge>
cudaError_t launchByRadius(const ConvArgs& args, cudaStream_t stream, LaunchLarge&& launchLarge) {
  const Filter& f = *args.filter;
  return withRadius(f.radius, [&](auto radius) -> cudaError_t {
    constexpr int R = decltype(radius)::value;
    if constexpr (R < conv_tiles::kTiledMinRadius) {
      const ImageIo io = makeImageIo(args);
      const auto taps = [&] {
        if constexpr (M == ConvMath::Direct) return makeTaps2D<R>(f);
        else return makeTaps1D<R>(f);
      }();
      stripKernel<R, M, Source<R>>
          <<<stripGrid<R>(io.width, io.height), stripBlock(), 0, stream>>>(io, taps);
      SATDOF_TRY_LAUNCH();
      return cudaSuccess;
    } else {
      return launchLarge(radius);
    }
  });
}

// =====================================================================================
// the lane's own pixels through the ring, the halo straight from global memory (L1)
// =====================================================================================

template <int R>
struct CachedSource {
  static_assert(R >= 1 && R <= 2);
  static constexpr int kW = kPixelsPerLane + 2 * R;
  struct Shared {
    uint4 tile[kStages][kLanes];  // the lanes' own 4 pixels of kStages rows
  };
  const ImageIo& io;
  Shared& sh;
  int x, lane;
  bool fastOwn;  // the lane's group: aligned and inside the image, one 16-byte copy
  bool fast;     // the whole window inside the image: halo words without border tests
  // The halo of the row to be used next, loaded one row ahead: the loads have a row's
  // arithmetic to arrive, from L1 or, at the strip's ends, from L2.
  unsigned left[R], right[R];

  __device__ CachedSource(const ImageIo& io_, int x_, int lane_, Shared& sh_)
      : io(io_), sh(sh_), x(x_), lane(lane_) {
    const bool aligned = rowsAligned16(io_.in, io_.inPitch);
    fastOwn = aligned && x_ + 3 < io_.width;
    fast = fastOwn && x_ - R >= 0 && x_ + 3 + R < io_.width;
  }

  __device__ __forceinline__ void fetch(RowRef r, int slot) const {
    uint4* dst = &sh.tile[slot][lane];
    if (fastOwn) copyAsync16(dst, r.p + x, r.ghost);
    else *dst = groupAt(io, r, x);
  }

  // The halo: straight from global memory, through the caches.
  __device__ __forceinline__ void loadHalo(RowRef r) {
    if (fast && !r.ghost) {
      // Columns conv_tiles::stripHaloLeft(x, R, k) and stripHaloRight(x, k), spelled out:
      // as one int offset the pointer arithmetic compiles differently (the static_assert
      // below ties the two).
#pragma unroll
      for (int k = 0; k < R; ++k)
        left[k] = __ldg(r.p + x - R + k), right[k] = __ldg(r.p + x + 4 + k);
    } else {
#pragma unroll
      for (int k = 0; k < R; ++k)
        left[k] = wordAt(io, r, conv_tiles::stripHaloLeft(x, R, k)),
        right[k] = wordAt(io, r, conv_tiles::stripHaloRight(x, k));
    }
  }


  static constexpr bool haloOffsetsAreTheHeaders() {
    for (int k = 0; k < R; ++k)
      if (conv_tiles::stripHaloLeft(0, R, k) != -R + k || conv_tiles::stripHaloRight(0, k) != 4 + k) return false;
    return true;
  }
  static_assert(haloOffsetsAreTheHeaders(), "loadHalo()'s offsets are the header's");

  __device__ __forceinline__ void prime(RowRef first) { loadHalo(first); }

  __device__ __forceinline__ void window(int slot, RowRef next, unsigned (&w)[kW]) {
    const uint4 own = sh.tile[slot][lane];
#pragma unroll
    for (int k = 0; k < R; ++k) w[k] = left[k], w[R + 4 + k] = right[k];
    w[R] = own.x, w[R + 1] = own.y, w[R + 2] = own.z, w[R + 3] = own.w;
    loadHalo(next);  // past the strip's last row: loaded, never used
  }
};

}  // namespace satdof::conv::strip

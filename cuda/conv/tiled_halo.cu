// conv/tiled_halo.cu — the book's third kernel: each block loads its input tile,
// including the halo cells (r on every side), into shared memory, then computes its
// output tile from there without any bounds check.
//
// The book fixes IN_TILE_DIM = 32 and maps one thread to each input cell, so the output
// tile shrinks to 32 - 2r (2 at r = 15, most threads only loading). Here the output tile
// is fixed (64x64) and the input tile grows with the radius (64 + 2r on a side): all
// 256 threads load the tile cooperatively, then each computes an 8x2 block of outputs,
// reusing every converted pixel for up to 16 outputs from registers. Every radius 1..15
// runs; the shared tile is at most 94x94 words (35 KiB).
//
// Ghost cells are stored as the border rule says (0 or the clamped pixel), which gives
// the same bits as skipping them: fma(w, 0, acc) == acc.
//
// Radius 1 and 2 (the common 3x3 and 5x5 filters) take a streaming path instead
// (conv/strip_engine.cuh): each warp walks down a 128-column strip, and every input row,
// with its halo, is copied asynchronously into a ring of shared-memory row tiles: a lane
// copies its own 4 pixels, the warp's end lanes the 4 pixels beyond each end, and each
// lane reads its halo back from there. No block barrier, 16-byte copies and stores, the
// next rows' copies in flight while computing.
#include "conv/conv_device.cuh"
#include "conv/strip_engine.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

constexpr int kThreadsX = conv_tiles::kTiledThreadsX;
constexpr int kThreadsY = conv_tiles::kTiledThreadsY;
constexpr int kRows = kTiledRowsPerThread;  // outputs per thread, vertically
constexpr int kCols = kTiledColsPerThread;  // outputs per thread, horizontally (adjacent)
constexpr int kTileW = conv_tiles::kTiledOutW;  // 64
constexpr int kTileH = conv_tiles::kTiledOutH;  // 64
static_assert(kCols == 2, "the compute loop reads pixel pairs as 8-byte words");

template <int R>
__global__ void __launch_bounds__(kThreadsX * kThreadsY, 3)
    tiledHaloKernel(ImageIo io, const __grid_constant__ Taps2D<R> taps) {
  constexpr int kN = 2 * R + 1;
  constexpr int kInW = conv_tiles::tiledInputSide(kTileW, R);  // even: rows stay 8-byte aligned
  constexpr int kInH = conv_tiles::tiledInputSide(kTileH, R);
  constexpr bool kUnrolled = R <= kTiledUnrollMaxRadius;
  __shared__ __align__(8) unsigned tile[kInH][kInW];
  __shared__ float sharedWeights[kUnrolled ? 1 : kN * kN];

  const int x0 = blockIdx.x * kTileW;
  const int y0 = blockIdx.y * kTileH;

  // ===================================================================================
  // phase 1: input tile and halo into shared memory, border rule applied
  // ===================================================================================
#pragma unroll 4
  for (int r = threadIdx.y; r < kInH; r += kThreadsY)
#pragma unroll
    for (int c = threadIdx.x; c < kInW; c += kThreadsX)
      tile[r][c] = fetchWord(io, x0 - R + c, y0 - R + r);
  if constexpr (!kUnrolled) {
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    for (int k = tid; k < kN * kN; k += kThreadsX * kThreadsY) sharedWeights[k] = taps.w[k];
  }
  __syncthreads();

  // ===================================================================================
  // phase 2: an 8x2 block of outputs per thread
  // ===================================================================================
  // Input row rr of the thread's window feeds output row k through filter row i = rr - k;
  // within a row, pixel q feeds output column m through filter column j = q - m. Rows
  // ascend, then columns, so every accumulator sees its taps row-major (Direct maths).
  const int tr = threadIdx.y * kRows;
  const int tc = threadIdx.x * kCols;
  float4 acc[kRows][kCols];
#pragma unroll
  for (int k = 0; k < kRows; ++k)
#pragma unroll
    for (int m = 0; m < kCols; ++m) acc[k][m] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

#pragma unroll(kUnrolled ? kRows + 2 * R : 1)
  for (int rr = 0; rr < kRows + 2 * R; ++rr) {
    // A compiler-only fence: without it the scheduler hoists the loads of the whole
    // unrolled window and spills; one input row at a time fits in 80 registers.
    asm volatile("" ::: "memory");
    const uint2* src = reinterpret_cast<const uint2*>(&tile[tr + rr][tc]);
#pragma unroll
    for (int qp = 0; qp <= R; ++qp) {  // 2r + 2 pixels, as r + 1 pairs
      const uint2 pair = src[qp];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int q = 2 * qp + h;
        const float4 v = toFloat4(h == 0 ? pair.x : pair.y);
#pragma unroll
        for (int m = 0; m < kCols; ++m) {
          const int j = q - m;
          if (j < 0 || j >= kN) continue;
#pragma unroll
          for (int k = 0; k < kRows; ++k) {
            const int i = rr - k;
            if (i < 0 || i >= kN) continue;
            if constexpr (kUnrolled) {
              fma4(taps.w[i * kN + j], v, acc[k][m]);
            } else {
              fma4(sharedWeights[i * kN + j], v, acc[k][m]);
            }
          }
        }
      }
    }
  }

  // ===================================================================================
  // phase 3: round and store the outputs inside the image
  // ===================================================================================
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    const int y = y0 + tr + k;
    if (y >= io.height) break;
    uchar4* dst = outRow(io, y);
#pragma unroll
    for (int m = 0; m < kCols; ++m) {
      const int x = x0 + tc + m;
      if (x < io.width) dst[x] = roundToUchar4(acc[k][m]);
    }
  }
}

// =====================================================================================
// the streaming path's window: the row and its halo through a shared-memory row tile
// =====================================================================================

template <int R>
struct SharedRowSource {
  static_assert(R >= 1 && R <= 4);
  static constexpr int kW = strip::kPixelsPerLane + 2 * R;
  static constexpr int kGroups = conv_tiles::kStripRowGroups;  // 4 halo words each side
  struct Shared {
    uint4 tile[strip::kStages][kGroups];  // group g: columns x_strip - 4 + 4g .. + 3
  };
  const ImageIo& io;
  Shared& sh;
  int x, lane;
  bool fastOwn, fastEdge;

  __device__ SharedRowSource(const ImageIo& io_, int x_, int lane_, Shared& sh_)
      : io(io_), sh(sh_), x(x_), lane(lane_) {
    const bool aligned = strip::rowsAligned16(io_.in, io_.inPitch);
    fastOwn = aligned && x_ + 3 < io_.width;
    const int e = lane_ == 0 ? x_ - 4 : x_ + 4;
    fastEdge = aligned && e >= 0 && e + 3 < io_.width;
  }

  // The group of 4 words from column x0 into `dst`: one asynchronous 16-byte copy where
  // it is aligned and inside the image, else the border rule word by word.
  __device__ __forceinline__ void group(strip::RowRef r, int x0, bool fast, uint4* dst) const {
    if (fast) strip::copyAsync16(dst, r.p + x0, r.ghost);
    else *dst = strip::groupAt(io, r, x0);
  }

  // Each lane copies its own 4 pixels; the end lanes also the 4 beyond each end.
  __device__ __forceinline__ void fetch(strip::RowRef r, int slot) const {
    uint4* tile = sh.tile[slot];
    group(r, x, fastOwn, &tile[conv_tiles::stripOwnGroup(lane)]);
    if (lane == 0) group(r, x - 4, fastEdge, &tile[0]);
    if (lane == strip::kLanes - 1) group(r, x + 4, fastEdge, &tile[kGroups - 1]);
  }

  __device__ __forceinline__ void prime(strip::RowRef) const {}

  // Groups lane, lane + 1 and lane + 2: window word q is their word stripTileWord(q, R).
  __device__ __forceinline__ void window(int slot, strip::RowRef, unsigned (&w)[kW]) const {
    const uint4* tile = sh.tile[slot];
    const uint4 l = tile[lane];
    const uint4 own = tile[lane + 1];
    const uint4 h = tile[lane + 2];
    const unsigned words[12] = {l.x, l.y, l.z, l.w, own.x, own.y, own.z, own.w, h.x, h.y, h.z, h.w};
#pragma unroll
    for (int q = 0; q < kW; ++q) w[q] = words[conv_tiles::stripTileWord(q, R)];
  }
};

}  // namespace

cudaError_t tiledHaloLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, supportsAnyFilter, scratch, scratchBytes, 0));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const Filter& f = *args.filter;
  using strip::launchByRadius;
  return launchByRadius<ConvMath::Direct, SharedRowSource>(args, stream, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
    const dim3 grid(ceilDiv(args.width, kTileW), ceilDiv(args.height, kTileH));
    const dim3 block(kThreadsX, kThreadsY);
    tiledHaloKernel<R><<<grid, block, 0, stream>>>(makeImageIo(args), makeTaps2D<R>(f));
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  });
}

}  // namespace satdof::conv

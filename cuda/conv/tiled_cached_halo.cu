// conv/tiled_cached_halo.cu — the book's fourth kernel: the block stages only its
// output-sized tile in shared memory; halo cells are read straight from global memory,
// betting that the neighbouring blocks have just pulled them into L1/L2.
//
// Each tap first asks "is this cell in my tile?": inside, a shared-memory load; outside,
// a global load under the border rule. Lanes at the tile's left and right edges take the
// global path, so a warp executes both for those taps; the price of a smaller tile is
// divergence and cache traffic rather than shared memory. As in tiled-halo, each thread
// computes several outputs (8 rows of one column) to reuse every converted pixel.
//
// Radius 1 and 2 (3x3, 5x5) take a streaming path (conv/strip_engine.cuh): the tile is the
// lane's own 4 pixels of each row, copied asynchronously (16 bytes) into a ring of
// shared-memory row tiles; the halo, r pixels each side, is loaded straight from global
// memory, one row ahead, through L1 (the neighbouring lanes' copies bring those lines
// there) or L2. Each warp walks down a 128-column strip with the next rows' copies in
// flight and no block barrier.
#include "conv/conv_device.cuh"
#include "conv/strip_engine.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

constexpr int kThreadsX = conv_tiles::kTiledThreadsX;
constexpr int kThreadsY = conv_tiles::kTiledThreadsY;
constexpr int kRows = kCachedRowsPerThread;     // outputs per thread, vertically
constexpr int kTileW = conv_tiles::kCachedOutW;  // 32
constexpr int kTileH = conv_tiles::kCachedOutH;  // 64
static_assert(kTileW == kThreadsX && kTileH == kThreadsY * kRows, "a thread a column, 8 rows each");

template <int R>
__global__ void __launch_bounds__(kThreadsX * kThreadsY, 3)
    tiledCachedHaloKernel(ImageIo io, const __grid_constant__ Taps2D<R> taps) {
  constexpr int kN = 2 * R + 1;
  constexpr bool kUnrolled = R <= kTiledUnrollMaxRadius;
  __shared__ unsigned tile[kTileH][kTileW];
  __shared__ float sharedWeights[kUnrolled ? 1 : kN * kN];

  const int x0 = blockIdx.x * kTileW;
  const int y0 = blockIdx.y * kTileH;
  const int tx = threadIdx.x;
  const int tr = threadIdx.y * kRows;

  // ===================================================================================
  // phase 1: the output-sized tile into shared memory (border rule past the image)
  // ===================================================================================
#pragma unroll
  for (int k = 0; k < kRows; ++k) tile[tr + k][tx] = fetchWord(io, x0 + tx, y0 + tr + k);
  if constexpr (!kUnrolled) {
    const int tid = threadIdx.y * kThreadsX + threadIdx.x;
    for (int k = tid; k < kN * kN; k += kThreadsX * kThreadsY) sharedWeights[k] = taps.w[k];
  }
  __syncthreads();

  // ===================================================================================
  // phase 2: 8 outputs per thread; tile cells from shared memory, halo from the caches
  // ===================================================================================
  // Input row rr of the window feeds output row k through filter row i = rr - k; rows
  // ascend, then columns: every accumulator sees its taps row-major (Direct maths).
  float4 acc[kRows];
#pragma unroll
  for (int k = 0; k < kRows; ++k) acc[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

#pragma unroll(kUnrolled ? kRows + 2 * R : 1)
  for (int rr = 0; rr < kRows + 2 * R; ++rr) {
    asm volatile("" ::: "memory");  // one input row at a time (see tiled_halo.cu)
    const int sr = tr + rr - R;     // tile row; the same for the whole warp
    // conv_tiles::cachedTileHolds(sr, sc), spelled out: written as the function call, nvcc
    // 13 compiles this loop differently (a 3 % smaller fatbin), so the kernel keeps the
    // form it was measured with.
    const bool rowInTile = sr >= 0 && sr < kTileH;
    const int gy = y0 + sr;
#pragma unroll
    for (int j = 0; j < kN; ++j) {
      const int sc = tx + j - R;
      const unsigned word = rowInTile && sc >= 0 && sc < kTileW ? tile[sr][sc]
                                                                : fetchWord(io, x0 + sc, gy);
      const float4 v = toFloat4(word);
#pragma unroll
      for (int k = 0; k < kRows; ++k) {
        const int i = rr - k;
        if (i < 0 || i >= kN) continue;
        if constexpr (kUnrolled) {
          fma4(taps.w[i * kN + j], v, acc[k]);
        } else {
          fma4(sharedWeights[i * kN + j], v, acc[k]);
        }
      }
    }
  }

  // ===================================================================================
  // phase 3: round and store the outputs inside the image
  // ===================================================================================
  const int x = x0 + tx;
  if (x >= io.width) return;
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    const int y = y0 + tr + k;
    if (y < io.height) outRow(io, y)[x] = roundToUchar4(acc[k]);
  }
}

}  // namespace

cudaError_t tiledCachedLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, supportsAnyFilter, scratch, scratchBytes, 0));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const Filter& f = *args.filter;
  using strip::launchByRadius;
  return launchByRadius<ConvMath::Direct, strip::CachedSource>(args, stream, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
    const dim3 grid(ceilDiv(args.width, kTileW), ceilDiv(args.height, kTileH));
    const dim3 block(kThreadsX, kThreadsY);
    tiledCachedHaloKernel<R><<<grid, block, 0, stream>>>(makeImageIo(args), makeTaps2D<R>(f));
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  });
}

}  // namespace satdof::conv

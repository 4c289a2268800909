// conv/separable.cu — a rank-one filter as two 1D passes, horizontal then vertical,
// fused in one kernel through shared memory.
//
// A (2r+1)^2 filter that is an outer product col x row costs 2(2r+1) taps per pixel
// instead of (2r+1)^2. Writing the float intermediate to global memory would move 40
// bytes per pixel; keeping it in shared memory leaves the 8-byte floor (read RGBA8,
// write RGBA8) plus the halo re-reads, which come mostly from L2. Per 32x32 output tile:
//   phase 1  input tile + halo, (32 + 2r) rows x (32 + 2r) columns, to shared memory;
//   phase 2  horizontal pass: (32 + 2r) x 32 float4 intermediates, 4 per task, each
//            pixel loaded as part of a 16-byte vector and converted once;
//   phase 3  vertical pass: 4 outputs per thread, rounded and stored.
// The maths is ConvMath::Separable: rowWeights j-ascending into a float, then colWeights
// i-ascending over those floats. A ghost row's intermediate is exactly +0 (zero border)
// or the clamped row's (clamp border), as in the reference.
//
// Radius 1 and 2 take a streaming path (conv/row_stream.cuh): each warp walks down a
// 128-column strip; per input row a lane loads its 4 pixels (16 bytes) and the r-pixel
// halo, runs the row pass into 4 floats in registers and adds them to the 2r + 1 output
// rows in progress. The intermediate never leaves registers, and there is no barrier.
#include "conv/conv_device.cuh"
#include "conv/row_stream.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;
constexpr int kThreads = kThreadsX * kThreadsY;
constexpr int kTile = kSeparableTile;                  // 32x32 outputs per block
constexpr int kRowsPerThread = kTile / kThreadsY;      // vertical pass: 4 outputs
constexpr int kColsPerTask = 4;                        // horizontal pass: 4 outputs
constexpr int kTasksPerRow = kTile / kColsPerTask;     // 8
static_assert(kTile == 32, "the intermediate's swizzle assumes 32 columns");

// Intermediate column c is stored at column swizzle(c): the horizontal pass writes
// columns 4g + m (g = 0..7) from eight lanes, the vertical pass reads 0..31 from 32
// lanes; with the XOR both hit eight distinct 16-byte bank groups per quarter warp.
__device__ __forceinline__ int swizzle(int c) { return c ^ ((c >> 3) & 3); }

template <int R>
__global__ void __launch_bounds__(kThreads)
    separableKernel(ImageIo io, const __grid_constant__ Taps1D<R> taps) {
  constexpr int kN = 2 * R + 1;
  constexpr int kInH = kTile + 2 * R;
  constexpr int kInValid = kTile + 2 * R;            // input columns the tile needs
  constexpr int kInW = (kInValid + 3) / 4 * 4;       // padded to whole 16-byte vectors
  constexpr int kTaskPixels = kColsPerTask + 2 * R;  // input pixels one task reads
  constexpr int kTaskVectors = (kTaskPixels + 3) / 4;
  static_assert((kTasksPerRow - 1) * kColsPerTask + 4 * kTaskVectors <= kInW);
  __shared__ __align__(16) unsigned in[kInH][kInW];
  __shared__ float4 mid[kInH][kTile];

  const int x0 = blockIdx.x * kTile;
  const int y0 = blockIdx.y * kTile;
  const int tid = threadIdx.y * kThreadsX + threadIdx.x;

  // ===================================================================================
  // phase 1: input tile and halo into shared memory, border rule applied
  // ===================================================================================
#pragma unroll 4
  for (int r = threadIdx.y; r < kInH; r += kThreadsY)
#pragma unroll
    for (int c = threadIdx.x; c < kInW; c += kThreadsX)
      in[r][c] = c < kInValid ? fetchWord(io, x0 - R + c, y0 - R + r) : 0u;
  __syncthreads();

  // ===================================================================================
  // phase 2: horizontal pass into the float intermediate
  // ===================================================================================
  for (int task = tid; task < kInH * kTasksPerRow; task += kThreads) {
    const int row = task / kTasksPerRow;
    const int c0 = (task % kTasksPerRow) * kColsPerTask;
    const uint4* src = reinterpret_cast<const uint4*>(&in[row][c0]);
    float4 acc[kColsPerTask];
#pragma unroll
    for (int m = 0; m < kColsPerTask; ++m) acc[m] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int p = 0; p < kTaskVectors; ++p) {
      asm volatile("" ::: "memory");  // one vector at a time (see tiled_halo.cu)
      const uint4 vec = src[p];
      const unsigned words[4] = {vec.x, vec.y, vec.z, vec.w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int q = 4 * p + e;  // pixel q feeds output m through tap j = q - m
        if (q >= kTaskPixels) continue;
        const float4 v = toFloat4(words[e]);
#pragma unroll
        for (int m = 0; m < kColsPerTask; ++m) {
          const int j = q - m;
          if (j >= 0 && j < kN) fma4(taps.row[j], v, acc[m]);
        }
      }
    }
#pragma unroll
    for (int m = 0; m < kColsPerTask; ++m) mid[row][swizzle(c0 + m)] = acc[m];
  }
  __syncthreads();

  // ===================================================================================
  // phase 3: vertical pass, 4 outputs per thread, round and store
  // ===================================================================================
  const int tr = threadIdx.y * kRowsPerThread;
  const int col = swizzle(threadIdx.x);
  float4 acc[kRowsPerThread];
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) acc[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int rr = 0; rr < kRowsPerThread + 2 * R; ++rr) {
    asm volatile("" ::: "memory");       // one row at a time: 40-56 registers, no spills
    const float4 v = mid[tr + rr][col];  // intermediate row rr feeds output k via i = rr - k
#pragma unroll
    for (int k = 0; k < kRowsPerThread; ++k) {
      const int i = rr - k;
      if (i >= 0 && i < kN) fma4(taps.col[i], v, acc[k]);
    }
  }
  const int x = x0 + threadIdx.x;
  if (x >= io.width) return;
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const int y = y0 + tr + k;
    if (y < io.height) outRow(io, y)[x] = roundToUchar4(acc[k]);
  }
}

}  // namespace

std::optional<std::string> separableSupports(const Filter& filter) {
  if (!filter.separable)
    return "needs a separable (rank-one) filter; '" + filter.name + "' is not";
  return std::nullopt;
}

cudaError_t separableLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, separableSupports, scratch, scratchBytes, 0));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const Filter& f = *args.filter;
  const ImageIo io = makeImageIo(args);
  const dim3 block(kThreadsX, kThreadsY);
  const dim3 grid(ceilDiv(args.width, kTile), ceilDiv(args.height, kTile));
  return withRadius(f.radius, [&](auto radius) -> cudaError_t {
    constexpr int R = decltype(radius)::value;
    if constexpr (R <= 2) {
      rowstream::stripKernel<R, ConvMath::Separable, R == 1 ? 3 : 2, rowstream::CachedSource<R>>
          <<<rowstream::stripGrid<R>(io.width, io.height), rowstream::stripBlock(), 0, stream>>>(
              io, makeTaps1D<R>(f));
    } else {
      separableKernel<R><<<grid, block, 0, stream>>>(io, makeTaps1D<R>(f));
    }
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  });
}

}  // namespace satdof::conv

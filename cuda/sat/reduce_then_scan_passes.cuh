// cuda/sat/reduce_then_scan_passes.cuh — `reduce-then-scan`'s tile geometry, scratch
// layout and its first two kernels (reduce, carries), templated on the scan policy
// (detail/scan_policy/) whose warp scans they are made of. The algorithm is described in
// reduce_then_scan.cu; the third kernel and the launch are in reduce_then_scan.cuh.
#pragma once

#include <algorithm>
#include <cstdint>

#include "satdof/cuda_check.h"
#include "detail/scan_policy/policy.cuh"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"
#include "sat/vector_lookback.cuh"

namespace satdof::detail::rts {

constexpr int kPx = 2;                  // adjacent pixels per lane
constexpr int kCols = 32 * kPx;         // tile width
constexpr int kRows = 32;               // tile height: the rows a warp walks
constexpr int kBatch = 8;               // step 3: rows loaded ahead, scanned side by side
constexpr int kPackedBatch = 4;         //   the same for uint21x3 (kBatchOf)
constexpr int kWarps = 4;               // tiles per block in steps 1 and 3
constexpr int kThreads = kWarps * 32;
constexpr int kCarryThreads = 256;      // step 2: 8 rows, or 32 columns x 8 groups of bands
constexpr int kBandGroups = kCarryThreads / 32;
static_assert(kCols * 255 < (1 << 16), "a row's sum inside a tile must fit 16 bits");
static_assert(kRows * 255 < (1 << 16), "a column's sum inside a tile must fit 16 bits");
static_assert(kRows % kBatch == 0 && kRows % kPackedBatch == 0, "rows come in whole batches");

struct Geometry {
  int tilesX = 0, tilesY = 0;
  __host__ __device__ long long tiles() const { return static_cast<long long>(tilesX) * tilesY; }
  static Geometry of(int width, int height) {
    return {(width + kCols - 1) / kCols, (height + kRows - 1) / kRows};
  }
};

template <class Carry>
struct alignas(4 * sizeof(Carry)) Carry4 {
  Carry v[4];
};

// Scratch: [head] [rowTot: tiles x 32 uint4] [colPre: tilesY x width uint4]
//          [colSum: tilesY x width Carry4]
//          and for the look-back (TileCrossing::LookBack):
//          [rowInc: tiles x 32 uint4] [cornerInc: tiles Carry4] [rowFlag, colFlag: tiles]
struct Layout {
  Geometry g;
  std::size_t rowTot, colPre, colSum, rowInc, cornerInc, rowFlag, colFlag, total;
  Layout(int width, int height, SatFormat format) : g(Geometry::of(width, height)) {
    const std::size_t carryBytes = detail::carryBytes(format);
    const std::size_t tiles = static_cast<std::size_t>(g.tiles());
    rowTot = alignUp(sizeof(SatScratchHead));
    colPre = rowTot + alignUp(tiles * kRows * 16);
    colSum = colPre + alignUp(std::size_t(g.tilesY) * width * 16);
    rowInc = colSum + alignUp(std::size_t(g.tilesY) * width * 4 * carryBytes);
    cornerInc = rowInc + alignUp(tiles * kRows * 16);
    rowFlag = cornerInc + alignUp(tiles * 4 * carryBytes);
    colFlag = rowFlag + alignUp(tiles * 4);
    total = colFlag + alignUp(tiles * 4);
  }
};

// Where row y's total over tile bx lives: by rows (a carries warp reads an image row's
// totals side by side) for the hierarchy, by tiles (a tile's 32 rows side by side, one
// coalesced read of 512 bytes) for the look-back.
template <TileCrossing C>
__host__ __device__ __forceinline__ std::size_t rowTotIndex(Geometry g, int y, int bx) {
  if constexpr (C == TileCrossing::Hierarchy) return std::size_t(y) * g.tilesX + bx;
  else return (std::size_t(y / kRows) * g.tilesX + bx) * kRows + y % kRows;
}

template <SatFormat F>
struct Arrays {
  using Carry = typename FormatTraits<F>::Carry;
  SatScratchHead* head;
  uint4* rowTot;         // row y's sum over tile bx (rowTotIndex); hierarchy: after step 2,
                         // its sum left of the tile
  uint4* colPre;         // [by][x]: band by's sum over its rows and columns x0(bx) .. x
  Carry4<Carry>* colSum; // [by][x]: hierarchy, sum of colPre[0 .. by-1][x]; look-back,
                         // of colPre[0 .. by][x], published by tile (bx, by)
  // The look-back's publications, per tile: its rows' sums up to and including it
  // ([tile][row]), the sum of everything above-left of the tile below it, and the flags.
  uint4* rowInc;
  Carry4<Carry>* cornerInc;
  std::uint32_t* rowFlag;
  std::uint32_t* colFlag;

  static Arrays carve(void* scratch, const Layout& l) {
    auto* b = static_cast<unsigned char*>(scratch);
    return {reinterpret_cast<SatScratchHead*>(b), reinterpret_cast<uint4*>(b + l.rowTot),
            reinterpret_cast<uint4*>(b + l.colPre),
            reinterpret_cast<Carry4<Carry>*>(b + l.colSum), reinterpret_cast<uint4*>(b + l.rowInc),
            reinterpret_cast<Carry4<Carry>*>(b + l.cornerInc),
            reinterpret_cast<std::uint32_t*>(b + l.rowFlag),
            reinterpret_cast<std::uint32_t*>(b + l.colFlag)};
  }
};

// ---------------------------------------------------------------------------------------
// Small pieces: packed channel pairs, warp scans, programmatic dependent launch.
// ---------------------------------------------------------------------------------------
// R|B and G|A of an RGBA8 pixel, each channel in a 16-bit half.
__device__ __forceinline__ std::uint32_t pairRB(std::uint32_t p) { return __byte_perm(p, 0, 0x4240); }
__device__ __forceinline__ std::uint32_t pairGA(std::uint32_t p) { return __byte_perm(p, 0, 0x4341); }
// Channels 0..3 of two packed pairs.
__device__ __forceinline__ uint4 unpackPairs(std::uint32_t rb, std::uint32_t ga) {
  return make_uint4(rb & 0xffffu, ga & 0xffffu, rb >> 16, ga >> 16);
}

// One scan of the policy per channel of a uint4 (lane l: items l*N .. l*N+N-1); the
// channels' totals come back in `total`.
template <class Policy, int N>
__device__ __forceinline__ void scanChannels(uint4 (&v)[N], std::uint32_t* smem, uint4& total) {
  std::uint32_t c[4][N];
#pragma unroll
  for (int k = 0; k < N; ++k) c[0][k] = v[k].x, c[1][k] = v[k].y, c[2][k] = v[k].z, c[3][k] = v[k].w;
  std::uint32_t t[4];
#pragma unroll
  for (int ch = 0; ch < 4; ++ch) t[ch] = Policy::inclusiveScan(c[ch], smem);
#pragma unroll
  for (int k = 0; k < N; ++k) v[k] = make_uint4(c[0][k], c[1][k], c[2][k], c[3][k]);
  total = make_uint4(t[0], t[1], t[2], t[3]);
}

template <class T>
__device__ __forceinline__ T warpSum(T v) {
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}

__device__ __forceinline__ void waitForPriorGrid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void allowDependentGrid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

template <int N, class Source>
__device__ __forceinline__ void loadRows(const Source& src, int x, int y, int width, int height,
                                         uint2 (&px)[N]) {
#pragma unroll
  for (int r = 0; r < N; ++r) px[r] = src.read2(x, y + r, width, height);
}

// ---------------------------------------------------------------------------------------
// 1. reduce: a warp per tile.
// ---------------------------------------------------------------------------------------
// For the look-back it also marks the tile's sums as its aggregate (kSlotAggregate): the
// scan kernel's tiles find every predecessor at least there, so none ever waits.
template <class Policy, class Source>
__global__ void __launch_bounds__(kThreads)
    reduceKernel(Source src, int width, int height, Geometry g, uint4* rowTot, uint4* colPre,
                 std::uint32_t* rowFlag, std::uint32_t* colFlag) {
  constexpr TileCrossing kCrossing = Policy::kAcrossTiles;
  __shared__ std::uint32_t scanWords[kWarps][Policy::template kWords<kPx>];
  allowDependentGrid();
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const long long tile = static_cast<long long>(blockIdx.x) * kWarps + threadIdx.x / 32;
  if (tile >= g.tiles()) return;
  const int by = static_cast<int>(tile / g.tilesX), bx = static_cast<int>(tile % g.tilesX);
  const int x0 = bx * kCols + lane * kPx, y0 = by * kRows;

  std::uint32_t colRB[kPx] = {0, 0}, colGA[kPx] = {0, 0};  // packed column sums
  std::uint32_t myRB = 0, myGA = 0;                          // lane r: row r's total
  uint2 px[kRows];  // all the tile's rows in flight at once: one memory latency per tile
  loadRows(src, x0, y0, width, height, px);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const std::uint32_t rb0 = pairRB(px[r].x), rb1 = pairRB(px[r].y);
    const std::uint32_t ga0 = pairGA(px[r].x), ga1 = pairGA(px[r].y);
    colRB[0] += rb0, colRB[1] += rb1, colGA[0] += ga0, colGA[1] += ga1;
    const std::uint32_t tRB = __reduce_add_sync(0xffffffffu, rb0 + rb1);
    const std::uint32_t tGA = __reduce_add_sync(0xffffffffu, ga0 + ga1);
    if (lane == r) myRB = tRB, myGA = tGA;
  }
  if (kCrossing == TileCrossing::LookBack || y0 + lane < height)  // rows past the image: 0
    rowTot[rowTotIndex<kCrossing>(g, y0 + lane, bx)] = unpackPairs(myRB, myGA);
  if (kCrossing == TileCrossing::LookBack && lane == 0) {
    rowFlag[tile] = kSlotAggregate;
    colFlag[tile] = kSlotAggregate;
  }

  // The tile's column totals, then their inclusive prefix along the tile.
  uint4 col[kPx];
#pragma unroll
  for (int k = 0; k < kPx; ++k) col[k] = unpackPairs(colRB[k], colGA[k]);
  uint4 tileTotal;
  scanChannels<Policy>(col, scanWords[threadIdx.x / 32], tileTotal);
  uint4* out = colPre + std::size_t(by) * width;
#pragma unroll
  for (int k = 0; k < kPx; ++k)
    if (x0 + k < width) out[x0 + k] = col[k];
}

// ---------------------------------------------------------------------------------------
// 2. carries: blocks [0, rowBlocks) scan image rows along the tiles (a warp per row),
//    the others sum columns down the bands (32 columns x kBandGroups groups of bands per
//    block: each group sums its bands, the groups meet in shared memory, then each writes
//    its running sums).
// ---------------------------------------------------------------------------------------
template <SatFormat F, class Policy>
__global__ void __launch_bounds__(kCarryThreads)
    carriesKernel(int width, int height, Geometry g, unsigned rowBlocks, Arrays<F> a) {
  using Carry = typename FormatTraits<F>::Carry;
  using Agg = typename FormatTraits<F>::Agg;
  __shared__ Carry partial[kBandGroups][4][32];
  __shared__ std::uint32_t scanWords[kBandGroups][Policy::template kWords<1>];
  allowDependentGrid();
  waitForPriorGrid();
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;

  if (blockIdx.x < rowBlocks) {
    const long long y = static_cast<long long>(blockIdx.x) * kBandGroups + warp;
    if (y >= height) return;
    uint4* line = a.rowTot + y * g.tilesX;
    uint4 run = make_uint4(0, 0, 0, 0);
    for (int base = 0; base < g.tilesX; base += 32) {
      const int i = base + lane;
      const uint4 v = i < g.tilesX ? line[i] : make_uint4(0, 0, 0, 0);
      uint4 incl[1] = {v}, total;
      scanChannels<Policy>(incl, scanWords[warp], total);
      if (i < g.tilesX)
        line[i] = make_uint4(run.x + incl[0].x - v.x, run.y + incl[0].y - v.y,
                             run.z + incl[0].z - v.z, run.w + incl[0].w - v.w);
      run.x += total.x, run.y += total.y, run.z += total.z, run.w += total.w;
    }
    return;
  }

  const int x = static_cast<int>(blockIdx.x - rowBlocks) * 32 + lane;
  const bool inside = x < width;
  const int per = (g.tilesY + kBandGroups - 1) / kBandGroups;
  const int b0 = warp * per, b1 = min(b0 + per, g.tilesY);
  const auto band = [&](int by, Carry (&v)[4]) {
    const uint4 p = a.colPre[std::size_t(by) * width + x];
    v[0] = static_cast<Agg>(p.x), v[1] = static_cast<Agg>(p.y), v[2] = static_cast<Agg>(p.z),
    v[3] = static_cast<Agg>(p.w);
  };
  Carry sum[4] = {0, 0, 0, 0};
  if (inside) {
#pragma unroll 4
    for (int by = b0; by < b1; ++by) {
      Carry v[4];
      band(by, v);
#pragma unroll
      for (int c = 0; c < 4; ++c) sum[c] += v[c];
    }
  }
#pragma unroll
  for (int c = 0; c < 4; ++c) partial[warp][c][lane] = sum[c];
  __syncthreads();
  if (!inside) return;
  Carry4<Carry> run = {{0, 0, 0, 0}};
  for (int w = 0; w < warp; ++w)
#pragma unroll
    for (int c = 0; c < 4; ++c) run.v[c] += partial[w][c][lane];
  for (int by = b0; by < b1; ++by) {
    Carry v[4];
    band(by, v);
    a.colSum[std::size_t(by) * width + x] = run;
#pragma unroll
    for (int c = 0; c < 4; ++c) run.v[c] += v[c];
  }
}

}  // namespace satdof::detail::rts

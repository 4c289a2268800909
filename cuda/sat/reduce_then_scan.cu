// cuda/sat/reduce_then_scan.cu — the SAT algorithm `reduce-then-scan`: the image is read
// twice and the table written once, with no tile ever waiting for another.
//
// Why next to `single-pass`: a look-back makes tiles wait on each other, and a waiting
// tile holds its registers while moving no bytes. Here every kernel is a plain stream over
// independent tiles (the multi-block scan of the chapter, 39.2.4, done in two dimensions).
// A tile is 64 columns x 32 rows and belongs to one warp, which walks down its rows; lane
// l owns pixels 2l and 2l+1 of every row (one 8-byte load).
//
//   1. reduce    per tile: each row's total (rowTot), and the inclusive prefix along the
//                tile of its column totals (colPre; at the tile's last column, the tile's
//                total)                                                read 4 B/pixel
//   2. carries   one kernel, two kinds of blocks: a warp per image row scans rowTot along
//                the tiles (rowTot becomes the row's sum left of each tile); a thread per
//                column sums colPre down the bands of tiles (colSum[by][x]: the sum over
//                the bands above, exclusive)
//   3. scan      per tile: the entries, from the pixels (read again) and the carries:
//                  SAT(x, y) = corner + colSum[by][x] + sum of rows y0..y of (row sum
//                  left of the tile + the row's prefix inside the tile)
//                where corner = sum over tiles left of bx of colSum[by][their last
//                column] (a warp reduction over at most width/64 values); the table rows
//                are staged in shared memory and stored 512 contiguous bytes per warp
//                instruction                             read 4 B/pixel, write 16 B/pixel
//                (uint21x3: 8 B/pixel, stored straight from registers, see kStaged)
//
// Steps 2 and 3 are launched as programmatic dependents (sm_90): their blocks start while
// the previous kernel drains, step 3 loads pixels (its first batch of rows, or its whole
// tile where that costs no extra wave of blocks: preloadPays), and both wait
// (griddepcontrol.wait) before reading what the previous kernel wrote. With the whole
// tile loaded early, the image's second read overlaps steps 1-2 instead of the walk.
//
// Arithmetic: a row's sums inside a tile are at most 64 x 255 < 2^16, so the row scans
// run on two channels per 32-bit word (R|B and G|A in 16-bit halves). Everything else is
// wrapping uint32 (exact for uint32) or, for the float formats, exact int32 inside a tile
// and int64 between tiles, rounded once at the store. float32-offset builds the SAT of
// the pixels and subtracts m * (x+1) * (y+1) exactly before rounding: the same integer
// as the sum of (pixel - m). Carry arrays are about 1-2 B/pixel, mostly in L2.
#include <algorithm>
#include <cstdint>

#include "detail/device_facts.h"
#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"

namespace satdof::detail {
namespace {

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

// Scratch: [head] [rowTot: height x tilesX uint4] [colPre: tilesY x width uint4]
//          [colSum: tilesY x width Carry4]
struct Layout {
  Geometry g;
  std::size_t rowTot, colPre, colSum, total;
  Layout(int width, int height, SatFormat format) : g(Geometry::of(width, height)) {
    const std::size_t carryBytes = detail::carryBytes(format);
    rowTot = alignUp(sizeof(SatScratchHead));
    colPre = rowTot + alignUp(std::size_t(height) * g.tilesX * 16);
    colSum = colPre + alignUp(std::size_t(g.tilesY) * width * 16);
    total = colSum + alignUp(std::size_t(g.tilesY) * width * 4 * carryBytes);
  }
};

template <SatFormat F>
struct Arrays {
  using Carry = typename FormatTraits<F>::Carry;
  SatScratchHead* head;
  uint4* rowTot;         // [y][bx]: row y's sum over tile bx; after step 2, left of it
  uint4* colPre;         // [by][x]: band by's sum over its rows and columns x0(bx) .. x
  Carry4<Carry>* colSum; // [by][x]: sum of colPre[0 .. by-1][x]

  static Arrays carve(void* scratch, const Layout& l) {
    auto* b = static_cast<unsigned char*>(scratch);
    return {reinterpret_cast<SatScratchHead*>(b), reinterpret_cast<uint4*>(b + l.rowTot),
            reinterpret_cast<uint4*>(b + l.colPre),
            reinterpret_cast<Carry4<Carry>*>(b + l.colSum)};
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

template <class T>
__device__ __forceinline__ T warpInclusiveScan(T v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const T y = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += y;
  }
  return v;
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
template <class Source>
__global__ void __launch_bounds__(kThreads)
    reduceKernel(Source src, int width, int height, Geometry g, uint4* rowTot, uint4* colPre) {
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
  if (y0 + lane < height) rowTot[std::size_t(y0 + lane) * g.tilesX + bx] = unpackPairs(myRB, myGA);

  // The tile's column totals, then their inclusive prefix along the tile.
  uint4 col[kPx];
#pragma unroll
  for (int k = 0; k < kPx; ++k) col[k] = unpackPairs(colRB[k], colGA[k]);
  col[1].x += col[0].x, col[1].y += col[0].y, col[1].z += col[0].z, col[1].w += col[0].w;
  const uint4 laneTotal = col[1];
  const uint4 excl = make_uint4(warpInclusiveScan(laneTotal.x, lane) - laneTotal.x,
                                warpInclusiveScan(laneTotal.y, lane) - laneTotal.y,
                                warpInclusiveScan(laneTotal.z, lane) - laneTotal.z,
                                warpInclusiveScan(laneTotal.w, lane) - laneTotal.w);
  uint4* out = colPre + std::size_t(by) * width;
#pragma unroll
  for (int k = 0; k < kPx; ++k)
    if (x0 + k < width)
      out[x0 + k] = make_uint4(col[k].x + excl.x, col[k].y + excl.y, col[k].z + excl.z,
                               col[k].w + excl.w);
}

// ---------------------------------------------------------------------------------------
// 2. carries: blocks [0, rowBlocks) scan image rows along the tiles (a warp per row),
//    the others sum columns down the bands (32 columns x kBandGroups groups of bands per
//    block: each group sums its bands, the groups meet in shared memory, then each writes
//    its running sums).
// ---------------------------------------------------------------------------------------
template <SatFormat F>
__global__ void __launch_bounds__(kCarryThreads)
    carriesKernel(int width, int height, Geometry g, unsigned rowBlocks, Arrays<F> a) {
  using Carry = typename FormatTraits<F>::Carry;
  using Agg = typename FormatTraits<F>::Agg;
  __shared__ Carry partial[kBandGroups][4][32];
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
      const uint4 incl = make_uint4(warpInclusiveScan(v.x, lane), warpInclusiveScan(v.y, lane),
                                    warpInclusiveScan(v.z, lane), warpInclusiveScan(v.w, lane));
      if (i < g.tilesX)
        line[i] = make_uint4(run.x + incl.x - v.x, run.y + incl.y - v.y, run.z + incl.z - v.z,
                             run.w + incl.w - v.w);
      run.x += __shfl_sync(0xffffffffu, incl.x, 31), run.y += __shfl_sync(0xffffffffu, incl.y, 31);
      run.z += __shfl_sync(0xffffffffu, incl.z, 31), run.w += __shfl_sync(0xffffffffu, incl.w, 31);
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

// ---------------------------------------------------------------------------------------
// 3. scan: a warp per tile walks down its rows.
// ---------------------------------------------------------------------------------------
// Where logical entry p (0 .. 63) of a staged row lives: lane l writes entries 2l, 2l+1 as
// 16-byte stores, which would put lanes l and l+4 on the same banks; swapping the pair
// in every other group of four lanes spreads each 8-lane phase over all 32 banks, and the
// read-back (lane l: entries l and 32+l) stays conflict-free too.
__device__ __forceinline__ int stagedIndex(int p) {
  const int pair = p >> 1;
  return 2 * pair + (((p & 1) + (pair >> 2)) & 1);
}

template <SatFormat F>
__device__ __forceinline__ typename FormatTraits<F>::Entry entryOf(
    const typename FormatTraits<F>::Carry (&carry)[4], const std::uint32_t (&local)[4],
    const std::uint32_t (&m)[4], int x, int y) {
  if constexpr (!std::is_same_v<typename FormatTraits<F>::Carry, long long>) {
    return FormatTraits<F>::entry(carry, local);  // uint32, uint21x3: wrapping sums
  } else {
    long long v[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) v[c] = carry[c] + static_cast<std::int32_t>(local[c]);
    if constexpr (FormatTraits<F>::kOffset) {
      const long long n = static_cast<long long>(x + 1) * (y + 1);
#pragma unroll
      for (int c = 0; c < 4; ++c) v[c] -= static_cast<long long>(m[c]) * n;
    }
    return make_uint4(__float_as_uint(__ll2float_rn(v[0])), __float_as_uint(__ll2float_rn(v[1])),
                      __float_as_uint(__ll2float_rn(v[2])), __float_as_uint(__ll2float_rn(v[3])));
  }
}

// 16-byte entries go through a shared-memory stage so that each store instruction writes
// 512 contiguous bytes; 8-byte entries (uint21x3) need none: a lane's two entries are
// adjacent in the table, one 16-byte store, and the warp's 32 stores are 512 contiguous
// bytes as they are.
template <SatFormat F>
inline constexpr bool kStaged = sizeof(typename FormatTraits<F>::Entry) == 16;

// Rows a warp loads ahead and scans side by side. Unstaged (uint21x3), 8 rows took 92
// registers a thread in the H200 build (5 blocks an SM: 4K in 1.55 waves, Nsight
// Compute), and a bound of 6 blocks an SM spilled and ran slower; 4 rows take 64 with no
// spill (ptxas, sm_90): 8 blocks an SM, a 4K frame's 1020 blocks in one wave of 1056.
template <SatFormat F>
inline constexpr int kBatchOf = kStaged<F> ? kBatch : kPackedBatch;

template <SatFormat F, bool Preload, class Source>
__global__ void __launch_bounds__(kThreads)
    scanKernel(Source src, int width, int height, Geometry g, typename FormatTraits<F>::Entry* table,
               Arrays<F> a) {
  using Traits = FormatTraits<F>;
  using Carry = typename Traits::Carry;
  using Entry = typename Traits::Entry;
  constexpr int kB = kBatchOf<F>;
  __shared__ uint4 stage[kWarps][kStaged<F> ? kB : 1][kCols];  // rows of entries per warp
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
  const long long tile = static_cast<long long>(blockIdx.x) * kWarps + warp;
  if (tile >= g.tiles()) return;
  const int by = static_cast<int>(tile / g.tilesX), bx = static_cast<int>(tile % g.tilesX);
  const int xt = bx * kCols, x0 = xt + lane * kPx, y0 = by * kRows;

  // The pixels are input, not written by steps 1-2: the first batch (Preload: the whole
  // tile) is loaded before waiting, while the previous kernels run.
  uint2 px[Preload ? kRows : kB];
  loadRows(src, x0, y0, width, height, px);
  waitForPriorGrid();

  std::uint32_t m[4] = {0, 0, 0, 0};
  if constexpr (Traits::kOffset) {
    channelOffsets(a.head, width, height, m);
    if (tile == 0 && lane == 0) writeOffsetTrailer(table, width, height, m);
  }

  // ---- carries: lane r holds the sum of the row sums left of the tile over rows 0..r --
  std::uint32_t rowCum[4];
  {
    const uint4 v = y0 + lane < height ? a.rowTot[std::size_t(y0 + lane) * g.tilesX + bx]
                                       : make_uint4(0, 0, 0, 0);
    rowCum[0] = warpInclusiveScan(v.x, lane), rowCum[1] = warpInclusiveScan(v.y, lane);
    rowCum[2] = warpInclusiveScan(v.z, lane), rowCum[3] = warpInclusiveScan(v.w, lane);
  }
  // ---- and SAT(x, y0 - 1) for the lane's columns ------------------------------------
  Carry carry[kPx][4];
  {
    const Carry4<Carry>* sums = a.colSum + std::size_t(by) * width;
    Carry4<Carry> own[kPx];
#pragma unroll
    for (int k = 0; k < kPx; ++k) own[k] = x0 + k < width ? sums[x0 + k] : Carry4<Carry>{{0, 0, 0, 0}};
    Carry corner[4] = {0, 0, 0, 0};
    for (int j = lane; j < bx; j += 32) {
      const Carry4<Carry> v = sums[(j + 1) * kCols - 1];
#pragma unroll
      for (int c = 0; c < 4; ++c) corner[c] += v.v[c];
    }
#pragma unroll
    for (int c = 0; c < 4; ++c) corner[c] = warpSum(corner[c]);
#pragma unroll
    for (int k = 0; k < kPx; ++k)
#pragma unroll
      for (int c = 0; c < 4; ++c) carry[k][c] = corner[c] + own[k].v[c];
  }

  // ---- rows, a batch at a time: the batch's row scans side by side (they are
  //      independent), then its entries in order down the columns into the warp's stage,
  //      then the stage to the table, 512 contiguous bytes per store instruction --------
  std::uint32_t acc[kPx][4] = {};  // the tile's sums of in-tile row prefixes, per column
  uint4 (*const rows)[kCols] = stage[warp];
#pragma unroll
  for (int r0 = 0; r0 < kRows; r0 += kB) {
    uint2 next[kB];
    if (!Preload && r0 + kB < kRows) loadRows(src, x0, y0 + r0 + kB, width, height, next);
    const uint2* cur = Preload ? px + r0 : px;
    std::uint32_t pre[kB][kPx][2];  // packed in-tile row prefixes (R|B, G|A)
#pragma unroll
    for (int r = 0; r < kB; ++r) {
      const std::uint32_t rb0 = pairRB(cur[r].x), ga0 = pairGA(cur[r].x);
      const std::uint32_t rb1 = rb0 + pairRB(cur[r].y), ga1 = ga0 + pairGA(cur[r].y);
      const std::uint32_t exRB = warpInclusiveScan(rb1, lane) - rb1;
      const std::uint32_t exGA = warpInclusiveScan(ga1, lane) - ga1;
      pre[r][0][0] = exRB + rb0, pre[r][0][1] = exGA + ga0;
      pre[r][1][0] = exRB + rb1, pre[r][1][1] = exGA + ga1;
    }
#pragma unroll
    for (int r = 0; r < kB; ++r) {
      std::uint32_t rc[4];
#pragma unroll
      for (int c = 0; c < 4; ++c) rc[c] = __shfl_sync(0xffffffffu, rowCum[c], r0 + r);
      Entry e[kPx];
#pragma unroll
      for (int k = 0; k < kPx; ++k) {
        const uint4 p = unpackPairs(pre[r][k][0], pre[r][k][1]);
        acc[k][0] += p.x, acc[k][1] += p.y, acc[k][2] += p.z, acc[k][3] += p.w;
        const std::uint32_t local[4] = {acc[k][0] + rc[0], acc[k][1] + rc[1], acc[k][2] + rc[2],
                                        acc[k][3] + rc[3]};
        e[k] = entryOf<F>(carry[k], local, m, x0 + k, y0 + r0 + r);
      }
      if constexpr (kStaged<F>) {
#pragma unroll
        for (int k = 0; k < kPx; ++k) rows[r][stagedIndex(kPx * lane + k)] = e[k];
      } else {
        const int y = y0 + r0 + r;
        if (y < height) storeEntryPairs(table + std::size_t(y) * width, x0, width, e);
      }
    }
    if constexpr (kStaged<F>) {
      __syncwarp();
#pragma unroll
      for (int r = 0; r < kB; ++r) {
        const int y = y0 + r0 + r;
        if (y >= height) break;
        Entry* row = table + std::size_t(y) * width + xt;
#pragma unroll
        for (int j = 0; j < kPx; ++j) {
          const int p = 32 * j + lane;
          if (xt + p < width) __stcs(row + p, rows[r][stagedIndex(p)]);
        }
      }
      __syncwarp();
    }
#pragma unroll
    for (int r = 0; r < kB; ++r)
      if constexpr (!Preload) px[r] = next[r];
  }
}

// Launches `kernel` as a programmatic dependent of the stream's previous kernel where the
// device has them (sm_90 and later); elsewhere as an ordinary launch.
template <class... Params, class... Args>
cudaError_t launchDependent(bool programmatic, void (*kernel)(Params...), unsigned blocks,
                            unsigned threads, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = programmatic ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, args...);
}

// Whether the scan kernel should load its whole tile before waiting for the carries: it
// then reads the image while steps 1-2 run and walks its rows from registers, but holds
// twice the registers (uint21x3: 144 against 64, uint32: 128 against 80-87, ptxas sm_90),
// so fewer blocks fit an SM. Taken when that costs no extra wave of blocks: at 720p and
// 1080p in every format, and for uint32 at 4K too (2 waves either way); not for uint21x3
// at 4K (1 wave against 3). H200, satdof bench sat, every size and format both ways:
// docs/PERFORMANCE.md.
template <SatFormat F, class Source>
cudaError_t preloadPays(unsigned blocks, bool& pays) {
  DeviceFacts facts;
  int streaming = 0, preloading = 0;
  SATDOF_TRY(currentDeviceFacts(facts));
  SATDOF_TRY(cachedOccupancy(scanKernel<F, false, Source>, kThreads, 0, streaming));
  SATDOF_TRY(cachedOccupancy(scanKernel<F, true, Source>, kThreads, 0, preloading));
  const auto waves = [&](int perSm) {
    const long long resident = static_cast<long long>(std::max(perSm, 1)) * facts.sms;
    return (blocks + resident - 1) / resident;
  };
  pays = preloading > 0 && waves(preloading) <= waves(streaming);
  return cudaSuccess;
}

template <SatFormat F, class Source>
cudaError_t launchFormat(Source src, int width, int height, void* table, void* scratch,
                         std::size_t scratchBytes, cudaStream_t stream) {
  const Layout l(width, height, F);
  if (scratchBytes < l.total || !scratch || !table) return cudaErrorInvalidValue;
  const Arrays<F> a = Arrays<F>::carve(scratch, l);
  int device = 0, major = 0;
  SATDOF_TRY(cudaGetDevice(&device));
  SATDOF_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  const bool programmatic = major >= 9;
  const unsigned tileBlocks = static_cast<unsigned>((l.g.tiles() + kWarps - 1) / kWarps);
  if constexpr (FormatTraits<F>::kOffset) {
    SATDOF_TRY(cudaMemsetAsync(a.head, 0, sizeof(SatScratchHead), stream));
    channelSumsKernel<<<min(height, 1024), 256, 0, stream>>>(src, width, height, a.head);
    SATDOF_TRY_LAUNCH();
  }
  reduceKernel<<<tileBlocks, kThreads, 0, stream>>>(src, width, height, l.g, a.rowTot, a.colPre);
  SATDOF_TRY_LAUNCH();
  const unsigned rowBlocks = static_cast<unsigned>((height + kBandGroups - 1) / kBandGroups);
  const unsigned columnBlocks = static_cast<unsigned>((width + 31) / 32);
  SATDOF_TRY(launchDependent(programmatic, carriesKernel<F>, rowBlocks + columnBlocks,
                             kCarryThreads, stream, width, height, l.g, rowBlocks, a));
  const auto entries = static_cast<typename FormatTraits<F>::Entry*>(table);
  bool preload = false;
  SATDOF_TRY((preloadPays<F, Source>(tileBlocks, preload)));
  if (preload)
    SATDOF_TRY(launchDependent(programmatic, scanKernel<F, true, Source>, tileBlocks, kThreads, stream,
                               src, width, height, l.g, entries, a));
  else
    SATDOF_TRY(launchDependent(programmatic, scanKernel<F, false, Source>, tileBlocks, kThreads, stream,
                               src, width, height, l.g, entries, a));
  return cudaSuccess;
}

}  // namespace

std::size_t reduceThenScanScratchBytes(const SatArgs& args) {
  if (args.width <= 0 || args.height <= 0) return 0;
  return Layout(args.width, args.height, args.format).total;
}

cudaError_t reduceThenScanLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                                 cudaStream_t stream) {
  return withSourceAndFormat(args, [&](auto src, auto format) {
    return launchFormat<decltype(format)::value>(src, args.width, args.height, args.table, scratch,
                                                 scratchBytes, stream);
  });
}

}  // namespace satdof::detail

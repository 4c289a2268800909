// cuda/sat/reduce_then_scan.cu — the SAT algorithm `reduce-then-scan`: the image is read
// twice and the table written once, with no tile ever waiting for another.
//
// Why next to `single-pass`: a look-back makes tiles wait on each other, and a waiting
// tile holds its registers while moving no bytes. Here every kernel is a plain stream over
// independent tiles (the multi-block scan of the chapter, 39.2.4, done in two dimensions):
//
//   1. reduce       per 32 x 128 tile (tile_rows.cuh): each row's total, and the inclusive
//                   prefix along the tile's columns of its column totals (the last row of
//                   the tile's own SAT)                                   read 4 B/pixel
//   2. row carries  per image row, the exclusive scan of its tile row totals along the
//                   tiles; per band of tiles, the exclusive scan of the tile totals
//   3. col carries  per column x and band, SAT(x, top of band - 1): the exclusive scan
//                   down the bands of (band's column prefix at x + band's tiles to the left)
//   4. scan         per tile: the entries, from the pixels (read again) and both carries
//                                                          read 4 B/pixel, write 16 B/pixel
//
// Carry arrays (steps 1-3) are about 1 B/pixel, so the whole moves ~25 B/pixel against the
// floor's 20, with steps 2-3 touching only the small arrays. float32-offset reads the
// image once more first, for the mean.
#include <cstdint>

#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"
#include "sat/tile_rows.cuh"

namespace satdof::detail {
namespace {

// Scratch: [head] [rowTot: height x tilesX uint4] [colPre: tilesY x width uint4]
//          [bandLeft: tilesY x tilesX uint4] [colCarry: tilesY x width x 4 Carry]
struct Layout {
  TileGeometry g;
  std::size_t rowTot, colPre, bandLeft, colCarry, total;
  Layout(int width, int height, SatFormat format) : g(TileGeometry::of(width, height)) {
    const std::size_t carryBytes = format == SatFormat::Uint32 ? 4 : 8;
    rowTot = alignUp(sizeof(SatScratchHead));
    colPre = rowTot + alignUp(std::size_t(height) * g.tilesX * 16);
    bandLeft = colPre + alignUp(std::size_t(g.tilesY) * width * 16);
    colCarry = bandLeft + alignUp(std::size_t(g.tilesY) * g.tilesX * 16);
    total = colCarry + alignUp(std::size_t(g.tilesY) * width * 4 * carryBytes);
  }
};

template <SatFormat F>
struct Arrays {
  SatScratchHead* head;
  uint4* rowTot;    // [y][bx]: row y's sum over tile bx; after step 2, the sum left of it
  uint4* colPre;    // [by][x]: the band's sum over rows of the band, columns x0 .. x of x's tile
  uint4* bandLeft;  // [by][bx]: after step 2, the band's sum over the tiles left of bx
  typename FormatTraits<F>::Carry* colCarry;  // [by][x][c]: SAT(x, band top - 1)

  static Arrays carve(void* scratch, const Layout& l) {
    auto* b = static_cast<unsigned char*>(scratch);
    return {reinterpret_cast<SatScratchHead*>(b), reinterpret_cast<uint4*>(b + l.rowTot),
            reinterpret_cast<uint4*>(b + l.colPre), reinterpret_cast<uint4*>(b + l.bandLeft),
            reinterpret_cast<typename FormatTraits<F>::Carry*>(b + l.colCarry)};
  }
};

__device__ __forceinline__ uint4 add4(uint4 a, uint4 b) {
  return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// ---------------------------------------------------------------------------------------
// 1. reduce: one block per tile, tiles in blockIdx order (nobody waits).
// ---------------------------------------------------------------------------------------
template <SatFormat F, class Source>
__global__ void __launch_bounds__(kTileThreads)
    reduceKernel(Source src, int width, int height, int tilesX, Arrays<F> a) {
  __shared__ TileColumns columns;
  const int by = static_cast<int>(blockIdx.x / tilesX), bx = static_cast<int>(blockIdx.x % tilesX);
  LaneTile t(bx, by, width, height);
  if constexpr (FormatTraits<F>::kOffset) channelOffsets(a.head, width, height, t.m);
  t.load(src);

  // Row totals: a warp reduction per row and channel.
  std::uint32_t col[kPxPerLane][4] = {};
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    std::uint32_t total[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      std::uint32_t s = 0;
#pragma unroll
      for (int i = 0; i < kPxPerLane; ++i) {
        const std::uint32_t v = t.value(r, i, c);
        s += v;
        col[i][c] += v;
      }
      total[c] = __reduce_add_sync(0xffffffffu, s);
    }
    if (t.lane == 0 && t.y0 + r < height)
      a.rowTot[std::size_t(t.y0 + r) * tilesX + bx] = make_uint4(total[0], total[1], total[2], total[3]);
  }

  // Column totals of the tile, then their inclusive prefix along the tile (warp 0).
  columns.share(t, col);
  __syncthreads();
  if (t.warp != 0) return;
  std::uint32_t tot[kPxPerLane][4] = {};
  columns.total(t.lane, tot);
#pragma unroll
  for (int c = 0; c < 4; ++c) {
#pragma unroll
    for (int i = 1; i < kPxPerLane; ++i) tot[i][c] += tot[i - 1][c];
    const std::uint32_t laneTotal = tot[kPxPerLane - 1][c];
    std::uint32_t incl = laneTotal;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const std::uint32_t y = __shfl_up_sync(0xffffffffu, incl, d);
      if (t.lane >= d) incl += y;
    }
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i) tot[i][c] += incl - laneTotal;
  }
  uint4* out = a.colPre + std::size_t(by) * width;
#pragma unroll
  for (int i = 0; i < kPxPerLane; ++i)
    if (t.insideX[i]) out[t.x0 + i] = make_uint4(tot[i][0], tot[i][1], tot[i][2], tot[i][3]);
  if (t.lane == 31)  // the tile's total: the prefix at its last column (zeros beyond width)
    a.bandLeft[std::size_t(by) * tilesX + bx] =
        make_uint4(tot[kPxPerLane - 1][0], tot[kPxPerLane - 1][1], tot[kPxPerLane - 1][2],
                   tot[kPxPerLane - 1][3]);
}

// ---------------------------------------------------------------------------------------
// 2. row carries: threads 0 .. height-1 scan image rows along the tiles, the next tilesY
//    threads scan the tile totals of a band; both exclusive, in place.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256)
    rowCarryKernel(uint4* rowTot, uint4* bandLeft, int height, int tilesX, int tilesY) {
  const long long i = blockIdx.x * 256ll + threadIdx.x;
  uint4* line;
  if (i < height) line = rowTot + i * tilesX;
  else if (i < height + tilesY) line = bandLeft + (i - height) * tilesX;
  else return;
  uint4 run = make_uint4(0, 0, 0, 0);
  for (int bx = 0; bx < tilesX; ++bx) {
    const uint4 v = line[bx];
    line[bx] = run;
    run = add4(run, v);
  }
}

// ---------------------------------------------------------------------------------------
// 3. column carries: a block of 32 columns x 16 groups of consecutive bands; each group
//    sums its bands, the groups meet in shared memory, then each writes its running sums.
// ---------------------------------------------------------------------------------------
constexpr int kColumnGroups = 16;

template <SatFormat F>
__global__ void __launch_bounds__(32 * kColumnGroups)
    columnCarryKernel(int width, int height, int tilesX, int tilesY, Arrays<F> a) {
  using Carry = typename FormatTraits<F>::Carry;
  using Agg = typename FormatTraits<F>::Agg;
  __shared__ Carry partial[kColumnGroups][4][32];
  const int lane = static_cast<int>(threadIdx.x) % 32, group = static_cast<int>(threadIdx.x) / 32;
  const int x = blockIdx.x * 32 + lane;
  const int per = (tilesY + kColumnGroups - 1) / kColumnGroups;
  const int b0 = group * per, b1 = min(b0 + per, tilesY);
  const bool inside = x < width;
  const int bx = x / kTileCols;
  // The band's SAT increment at column x: its column prefix plus its tiles left of x's.
  const auto band = [&](int by, Carry (&v)[4]) {
    const uint4 p = add4(a.colPre[std::size_t(by) * width + x], a.bandLeft[std::size_t(by) * tilesX + bx]);
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
  for (int c = 0; c < 4; ++c) partial[group][c][lane] = sum[c];
  __syncthreads();
  if (!inside) return;
  Carry run[4] = {0, 0, 0, 0};
  for (int g = 0; g < group; ++g)
#pragma unroll
    for (int c = 0; c < 4; ++c) run[c] += partial[g][c][lane];
  for (int by = b0; by < b1; ++by) {
    Carry* out = a.colCarry + (std::size_t(by) * width + x) * 4;
    Carry v[4];
    band(by, v);
#pragma unroll
    for (int c = 0; c < 4; ++c) out[c] = run[c], run[c] += v[c];
  }
}

// ---------------------------------------------------------------------------------------
// 4. scan: one block per tile; the carries come from steps 2 and 3.
// ---------------------------------------------------------------------------------------
template <SatFormat F, class Source>
__global__ void __launch_bounds__(kTileThreads, 3)
    scanKernel(Source src, int width, int height, int tilesX, uint4* table, Arrays<F> a) {
  using Traits = FormatTraits<F>;
  using Carry = typename Traits::Carry;
  __shared__ TileColumns columns;
  const int by = static_cast<int>(blockIdx.x / tilesX), bx = static_cast<int>(blockIdx.x % tilesX);
  LaneTile t(bx, by, width, height);
  if constexpr (Traits::kOffset) channelOffsets(a.head, width, height, t.m);
  t.load(src);

  std::uint32_t rowBase[kRowsPerWarp][4];
  std::uint32_t myRowTotal[4];
  t.rowScan(rowBase, myRowTotal);
  {
    std::uint32_t carry[4] = {0, 0, 0, 0};  // lane r < 8: row r's sum left of the tile
    if (t.lane < kRowsPerWarp && t.y0 + t.lane < height) {
      const uint4 v = a.rowTot[std::size_t(t.y0 + t.lane) * tilesX + bx];
      carry[0] = v.x, carry[1] = v.y, carry[2] = v.z, carry[3] = v.w;
    }
    t.addRowCarries(rowBase, carry);
  }
  {
    std::uint32_t col[kPxPerLane][4] = {};
    t.columnSums(rowBase, col);
    columns.share(t, col);
  }
  if constexpr (Traits::kOffset) {
    if (blockIdx.x == 0 && threadIdx.x == 0) writeOffsetTrailer(table, width, height, t.m);
  }
  __syncthreads();
  std::uint32_t above[kPxPerLane][4] = {};
  columns.above(t, above);
  Carry carry[kPxPerLane][4];
#pragma unroll
  for (int i = 0; i < kPxPerLane; ++i) {
    const Carry* p = a.colCarry + (std::size_t(by) * width + t.x0 + i) * 4;
#pragma unroll
    for (int c = 0; c < 4; ++c) carry[i][c] = t.insideX[i] ? p[c] : Carry(0);
  }
  t.store<Traits>(table, rowBase, carry, above);
}

template <SatFormat F, class Source>
cudaError_t launchFormat(Source src, int width, int height, void* table, void* scratch,
                         std::size_t scratchBytes, cudaStream_t stream) {
  const Layout l(width, height, F);
  if (scratchBytes < l.total || !scratch || !table) return cudaErrorInvalidValue;
  const Arrays<F> a = Arrays<F>::carve(scratch, l);
  const unsigned tiles = static_cast<unsigned>(l.g.tiles());
  if constexpr (FormatTraits<F>::kOffset) {
    SATDOF_TRY(cudaMemsetAsync(a.head, 0, sizeof(SatScratchHead), stream));
    channelSumsKernel<<<min(height, 1024), 256, 0, stream>>>(src, width, height, a.head);
    SATDOF_TRY_LAUNCH();
  }
  reduceKernel<F><<<tiles, kTileThreads, 0, stream>>>(src, width, height, l.g.tilesX, a);
  SATDOF_TRY_LAUNCH();
  const long long lines = static_cast<long long>(height) + l.g.tilesY;
  rowCarryKernel<<<static_cast<unsigned>((lines + 255) / 256), 256, 0, stream>>>(
      a.rowTot, a.bandLeft, height, l.g.tilesX, l.g.tilesY);
  SATDOF_TRY_LAUNCH();
  columnCarryKernel<F><<<(width + 31) / 32, 32 * kColumnGroups, 0, stream>>>(
      width, height, l.g.tilesX, l.g.tilesY, a);
  SATDOF_TRY_LAUNCH();
  scanKernel<F><<<tiles, kTileThreads, 0, stream>>>(src, width, height, l.g.tilesX,
                                                     static_cast<uint4*>(table), a);
  SATDOF_TRY_LAUNCH();
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

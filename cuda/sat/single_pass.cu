// cuda/sat/single_pass.cu — the SAT algorithm `single-pass`: one read of the RGBA8 image,
// one write of the table, tiles passing row and column sums to later tiles through a
// two-stage decoupled look-back (in the spirit of Emoto et al. 2017; the carries are
// vectors, see vector_lookback.cuh).
//
// A tile is 32 rows x 128 columns, one block of 4 warps; warp w owns rows 8w .. 8w+7,
// each lane 4 adjacent pixels of each (one 16-byte read per row). Tile ids come from an
// atomic counter in row-major order, so the tiles left of and above a tile always have
// smaller ids (forward progress; see vector_lookback.cuh).
//
//   1. load        8 rows x 4 pixels per lane, kept packed in registers
//   2. row scan    lane sums, warp scan: each pixel's sum along its row inside the tile
//   3. row carry   each warp publishes its 8 row totals and looks back along the row of
//                  tiles: + sum of the row over all tiles to the left = the full-row prefix
//   4. columns     each warp sums its 8 rows of full-row prefixes per column (registers),
//                  the 4 warps meet in shared memory: the tile's column aggregate
//   5. col carry   warp i publishes the aggregate of columns x0 + 4l + i (every lane l)
//                  and looks back up the column of tiles for them, so four look-backs
//                  run side by side: + the SAT of the row above the tile, per column
//   6. store       entry = column carry + the tile's column sum through this row, in the
//                  format (uint32 wrapping, or the exact sum rounded once to float),
//                  through shared memory: each store instruction writes 512 contiguous B
//
// Steps 1, 2, 4 and 6 are LaneTile's (tile_rows.cuh).
//
// Bytes per pixel: 4 read + 16 written, plus the carries: per tile 32 rows x 2 x 16 B
// (row aggregate and prefix) and 128 columns x (16 + 16 or 32) B (column aggregate and
// prefix), about 1.3-1.8 B per pixel, written and read mostly in L2.
#include <cstdint>

#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"
#include "sat/tile_rows.cuh"
#include "sat/vector_lookback.cuh"

namespace satdof::detail {
namespace {

using Geometry = TileGeometry;
constexpr int kWarps = kTileWarps;
constexpr int kThreads = kTileThreads;

template <SatFormat F>
struct Workspace {
  using Traits = FormatTraits<F>;
  SatScratchHead* head;
  // Row sums along a row of tiles: slot (tile, warp), lanes 0..7 hold one row each.
  VectorChain<kRowsPerWarp, 4, std::uint32_t, std::uint32_t> rows;
  // Column sums down a column of tiles: slot (tile, pixel i), lane l holds column
  // x0 + 4l + i (4 channels).
  VectorChain<32, 4, typename Traits::Agg, typename Traits::Carry> columns;
};

// Scratch: [head][row flags][column flags] (zeroed per launch) [row agg][row prefix]
// [column agg][column prefix], each 256-byte aligned.
template <SatFormat F>
struct ScratchLayout {
  std::size_t head, rowFlags, colFlags, zeroed, rowAgg, rowPre, colAgg, colPre, total;
  explicit ScratchLayout(Geometry g) {
    using Traits = FormatTraits<F>;
    const std::size_t tiles = static_cast<std::size_t>(g.tiles());
    head = 0;
    rowFlags = alignUp(sizeof(SatScratchHead));
    colFlags = rowFlags + alignUp(tiles * kWarps * 4);
    zeroed = colFlags + alignUp(tiles * kWarps * 4);
    rowAgg = zeroed;
    rowPre = rowAgg + alignUp(tiles * kWarps * kRowsPerWarp * 4 * 4);
    colAgg = rowPre + alignUp(tiles * kWarps * kRowsPerWarp * 4 * 4);
    colPre = colAgg + alignUp(tiles * kTileCols * 4 * sizeof(typename Traits::Agg));
    total = colPre + alignUp(tiles * kTileCols * 4 * sizeof(typename Traits::Carry));
  }
  Workspace<F> carve(void* scratch) const {
    auto* b = static_cast<unsigned char*>(scratch);
    using Traits = FormatTraits<F>;
    Workspace<F> ws;
    ws.head = reinterpret_cast<SatScratchHead*>(b + head);
    ws.rows = {reinterpret_cast<std::uint32_t*>(b + rowFlags),
               reinterpret_cast<std::uint32_t*>(b + rowAgg),
               reinterpret_cast<std::uint32_t*>(b + rowPre)};
    ws.columns = {reinterpret_cast<std::uint32_t*>(b + colFlags),
                  reinterpret_cast<typename Traits::Agg*>(b + colAgg),
                  reinterpret_cast<typename Traits::Carry*>(b + colPre)};
    return ws;
  }
};

template <SatFormat F, class Source>
__global__ void __launch_bounds__(kThreads, 4)
    singlePassKernel(Source src, int width, int height, int tilesX,
                     typename FormatTraits<F>::Entry* table, Workspace<F> ws) {
  using Traits = FormatTraits<F>;
  using Carry = typename Traits::Carry;
  using Agg = typename Traits::Agg;
  __shared__ unsigned int tileId;
  __shared__ TileColumns columns;
  __shared__ Carry columnCarry[kPxPerLane * 4][32];  // [pixel * 4 + channel][lane]
  __shared__ uint4 stage[kWarps][kTileCols];         // a row of entries per warp

  if (threadIdx.x == 0) tileId = atomicAdd(&ws.head->ticket, 1u);
  __syncthreads();
  const int by = static_cast<int>(tileId / tilesX);
  const int bx = static_cast<int>(tileId % tilesX);
  LaneTile t(bx, by, width, height);
  if constexpr (Traits::kOffset) channelOffsets(ws.head, width, height, t.m);

  // ---- 1. load ------------------------------------------------------------------------
  t.load(src);

  // ---- 2. row scan inside the tile ------------------------------------------------------
  std::uint32_t rowBase[kRowsPerWarp][4];
  std::uint32_t myRowTotal[4];  // lane r < 8: the tile's total of row r
  t.rowScan(rowBase, myRowTotal);

  // ---- 3. row carry: look back along the row of tiles ------------------------------------
  {
    const int warp = t.warp;
    const auto rowSlot = [&](int p) {
      return (static_cast<long long>(by) * tilesX + p) * kWarps + warp;
    };
    std::uint32_t carry[4] = {0, 0, 0, 0};
    if (bx == 0) {
      ws.rows.publishPrefix(rowSlot(0), myRowTotal);
    } else {
      ws.rows.publishAggregate(rowSlot(bx), myRowTotal);
      ws.rows.exclusivePrefix(bx, rowSlot, carry);
      std::uint32_t incl[4];
#pragma unroll
      for (int c = 0; c < 4; ++c) incl[c] = carry[c] + myRowTotal[c];
      ws.rows.publishPrefix(rowSlot(bx), incl);
    }
    t.addRowCarries(rowBase, carry);
  }

  // ---- 4. column sums of the warp's rows, then of the tile -------------------------------
  {
    std::uint32_t col[kPxPerLane][4] = {};
    t.columnSums(rowBase, col);
    columns.share(t, col);
  }
  __syncthreads();

  // ---- 5. column carry: each warp looks back up the column of tiles for one pixel of
  //         every lane (warp i: columns x0 + i), so the four look-backs run side by side
  {
    const int i = t.warp;
    std::uint32_t total[4] = {0, 0, 0, 0};
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const uint4 v = columns.sums[w][i][t.lane];
      total[0] += v.x, total[1] += v.y, total[2] += v.z, total[3] += v.w;
    }
    Agg agg[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) agg[c] = static_cast<Agg>(total[c]);
    const auto colSlot = [&](int p) {
      return (static_cast<long long>(p) * tilesX + bx) * kWarps + i;
    };
    Carry carry[4] = {0, 0, 0, 0};
    if (by > 0) {
      ws.columns.publishAggregate(colSlot(by), agg);
      ws.columns.exclusivePrefix(by, colSlot, carry);
    }
    Carry incl[4];
#pragma unroll
    for (int c = 0; c < 4; ++c) incl[c] = carry[c] + static_cast<Carry>(agg[c]);
    ws.columns.publishPrefix(colSlot(by), incl);
#pragma unroll
    for (int c = 0; c < 4; ++c) columnCarry[i * 4 + c][t.lane] = carry[c];
  }
  std::uint32_t above[kPxPerLane][4] = {};  // rows of the tile above this warp's rows
  columns.above(t, above);
  if constexpr (Traits::kOffset) {
    if (tileId == 0 && threadIdx.x == 0) writeOffsetTrailer(table, width, height, t.m);
  }
  __syncthreads();

  // ---- 6. store -----------------------------------------------------------------------
  Carry carry[kPxPerLane][4];
#pragma unroll
  for (int i = 0; i < kPxPerLane; ++i)
#pragma unroll
    for (int c = 0; c < 4; ++c) carry[i][c] = columnCarry[i * 4 + c][t.lane];
  t.store<Traits>(table, rowBase, carry, above, stage[t.warp]);
}

template <SatFormat F, class Source>
cudaError_t launchFormat(Source src, int width, int height, void* table, void* scratch,
                         std::size_t scratchBytes, cudaStream_t stream) {
  const Geometry g = Geometry::of(width, height);
  const ScratchLayout<F> layout(g);
  if (scratchBytes < layout.total || !scratch || !table) return cudaErrorInvalidValue;
  const Workspace<F> ws = layout.carve(scratch);
  SATDOF_TRY(cudaMemsetAsync(scratch, 0, layout.zeroed, stream));
  if constexpr (FormatTraits<F>::kOffset) {
    channelSumsKernel<<<min(height, 1024), 256, 0, stream>>>(src, width, height, ws.head);
    SATDOF_TRY_LAUNCH();
  }
  singlePassKernel<F><<<static_cast<unsigned>(g.tiles()), kThreads, 0, stream>>>(
      src, width, height, g.tilesX, static_cast<typename FormatTraits<F>::Entry*>(table), ws);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace

std::size_t singlePassScratchBytes(const SatArgs& args) {
  if (args.width <= 0 || args.height <= 0) return 0;
  const Geometry g = Geometry::of(args.width, args.height);
  switch (args.format) {
    case SatFormat::Uint32:
      return ScratchLayout<SatFormat::Uint32>(g).total;
    case SatFormat::Float32:
      return ScratchLayout<SatFormat::Float32>(g).total;
    case SatFormat::Float32Offset:
      return ScratchLayout<SatFormat::Float32Offset>(g).total;
    case SatFormat::Uint21x3:
      return ScratchLayout<SatFormat::Uint21x3>(g).total;
  }
  return 0;
}

cudaError_t singlePassLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                             cudaStream_t stream) {
  return withSourceAndFormat(args, [&](auto src, auto format) {
    return launchFormat<decltype(format)::value>(src, args.width, args.height, args.table, scratch,
                                                 scratchBytes, stream);
  });
}

}  // namespace satdof::detail

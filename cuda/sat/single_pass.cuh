// cuda/sat/single_pass.cuh — `single-pass`'s kernel and launch, templated on the scan
// policy (detail/scan_policy/) whose warp scans make its row scans. The algorithm is
// described in single_pass.cu; each scan variant's file in sat/by_scan/ instantiates
// SinglePass<its policy>.
#pragma once

#include <cstdint>

#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"
#include "sat/tile_rows.cuh"
#include "sat/vector_lookback.cuh"

namespace satdof::detail::sp {

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

// Blocks an SM the kernel is compiled for: 4 (128 registers a thread) with the register
// policies; the shared-memory policies' trees need more registers and get 2 (at 4 they
// spilled up to 1 KB a thread, ptxas sm_90; the float formats spill some at 4 with every
// policy, as before the policies).
template <class Policy>
inline constexpr int kMinBlocksOf = Policy::template kWords<kPxPerLane> > 1 ? 2 : 4;

template <SatFormat F, class Policy, class Source>
__global__ void __launch_bounds__(kThreads, kMinBlocksOf<Policy>)
    singlePassKernel(Source src, int width, int height, int tilesX,
                     typename FormatTraits<F>::Entry* table, Workspace<F> ws) {
  using Traits = FormatTraits<F>;
  using Carry = typename Traits::Carry;
  using Agg = typename Traits::Agg;
  __shared__ unsigned int tileId;
  __shared__ TileColumns columns;
  __shared__ Carry columnCarry[kPxPerLane * 4][32];  // [pixel * 4 + channel][lane]
  __shared__ uint4 stage[kWarps][kTileCols];         // a row of entries per warp
  __shared__ std::uint32_t scanWords[kWarps][Policy::template kWords<kPxPerLane>];

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
  t.rowScan<Policy>(rowBase, myRowTotal, scanWords[t.warp]);

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

// The launch for one format and source (through launchSat, sat_formats.cuh); the
// by_scan/ files instantiate it with their policy.
template <class Policy>
struct SinglePass {
  template <SatFormat F, class Source>
  static cudaError_t launch(Source src, int width, int height, void* table, void* scratch,
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
    singlePassKernel<F, Policy><<<static_cast<unsigned>(g.tiles()), kThreads, 0, stream>>>(
        src, width, height, g.tilesX, static_cast<typename FormatTraits<F>::Entry*>(table), ws);
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  }
};

}  // namespace satdof::detail::sp

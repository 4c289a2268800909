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
//   5. col carry   warp 0 publishes the aggregate and looks back up the column of tiles:
//                  + the SAT of the row above the tile, per column
//   6. store       entry = column carry + the tile's column sum through this row, in the
//                  format (uint32 wrapping, or the exact sum rounded once to float)
//
// Bytes per pixel: 4 read + 16 written, plus the carries: per tile 32 rows x 2 x 16 B
// (row aggregate and prefix) and 128 columns x (16 + 16 or 32) B (column aggregate and
// prefix), about 1.3-1.8 B per pixel, written and read mostly in L2.
#include <cstdint>

#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"
#include "sat/vector_lookback.cuh"

namespace satdof::detail {
namespace {

constexpr int kWarps = 4;
constexpr int kThreads = kWarps * 32;
constexpr int kRowsPerWarp = 8;
constexpr int kTileRows = kWarps * kRowsPerWarp;  // 32
constexpr int kPxPerLane = 4;
constexpr int kTileCols = 32 * kPxPerLane;        // 128
static_assert(kTileRows * 255ll * kMaxFloatWidth < (1ll << 31), "tile sums must fit int32");

struct Geometry {
  int tilesX = 0, tilesY = 0;
  long long tiles() const { return static_cast<long long>(tilesX) * tilesY; }
};

Geometry geometryOf(int width, int height) {
  return {(width + kTileCols - 1) / kTileCols, (height + kTileRows - 1) / kTileRows};
}

template <SatFormat F>
struct Workspace {
  using Traits = FormatTraits<F>;
  SatScratchHead* head;
  // Row sums along a row of tiles: slot (tile, warp), lanes 0..7 hold one row each.
  VectorChain<kRowsPerWarp, 4, std::uint32_t, std::uint32_t> rows;
  // Column sums down a column of tiles: slot tile, each lane 4 columns x 4 channels.
  VectorChain<32, 16, typename Traits::Agg, typename Traits::Carry> columns;
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
    zeroed = colFlags + alignUp(tiles * 4);
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

__device__ __forceinline__ std::uint32_t pixelOf(const uint4& packed, int i) {
  return i == 0 ? packed.x : i == 1 ? packed.y : i == 2 ? packed.z : packed.w;
}

// Channel c of pixel i of a lane's packed row, minus the offset where the pixel exists.
__device__ __forceinline__ std::uint32_t valueOf(const uint4& packed, int i, int c,
                                                 std::uint32_t offset, bool inside) {
  return ((pixelOf(packed, i) >> (8 * c)) & 0xffu) - (inside ? offset : 0u);
}

// Adds the full-row prefixes of a lane's 4 pixels of one row (the row's sum left of the
// lane, `base`, plus the pixels so far) to the running column sums `col`.
__device__ __forceinline__ void addRowPrefixes(const uint4& packed, const std::uint32_t (&base)[4],
                                               const std::uint32_t (&m)[4],
                                               const bool (&insideX)[kPxPerLane], bool insideY,
                                               std::uint32_t (&col)[kPxPerLane][4]) {
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    std::uint32_t run = base[c];
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i) {
      run += valueOf(packed, i, c, m[c], insideX[i] && insideY);
      col[i][c] += run;
    }
  }
}

template <SatFormat F, class Source>
__global__ void __launch_bounds__(kThreads)
    singlePassKernel(Source src, int width, int height, int tilesX, uint4* table,
                     Workspace<F> ws) {
  using Traits = FormatTraits<F>;
  using Carry = typename Traits::Carry;
  using Agg = typename Traits::Agg;
  __shared__ unsigned int tileId;
  __shared__ uint4 warpColumnSums[kWarps][kPxPerLane][32];  // [warp][pixel][lane]
  __shared__ Carry columnCarry[kPxPerLane * 4][32];         // [pixel * 4 + channel][lane]

  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (threadIdx.x == 0) tileId = atomicAdd(&ws.head->ticket, 1u);
  __syncthreads();
  const int by = static_cast<int>(tileId / tilesX);
  const int bx = static_cast<int>(tileId % tilesX);
  const int x0 = bx * kTileCols + lane * kPxPerLane;
  const int y0 = by * kTileRows + warp * kRowsPerWarp;

  std::uint32_t m[4] = {0, 0, 0, 0};
  if constexpr (Traits::kOffset) channelOffsets(ws.head, width, height, m);
  bool insideX[kPxPerLane];
#pragma unroll
  for (int i = 0; i < kPxPerLane; ++i) insideX[i] = x0 + i < width;

  // ---- 1. load ------------------------------------------------------------------------
  uint4 raw[kRowsPerWarp];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) raw[r] = src.read4(x0, y0 + r, width, height);

  // ---- 2. row scan inside the tile ------------------------------------------------------
  // rowBase[r][c]: the sum of row r left of this lane's first pixel (tile-local for now).
  std::uint32_t rowBase[kRowsPerWarp][4];
  std::uint32_t myRowTotal[4] = {0, 0, 0, 0};  // lane r < 8: the tile's total of row r
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    const bool insideY = y0 + r < height;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      std::uint32_t s = 0;
#pragma unroll
      for (int i = 0; i < kPxPerLane; ++i) s += valueOf(raw[r], i, c, m[c], insideX[i] && insideY);
      std::uint32_t incl = s;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const std::uint32_t y = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += y;
      }
      rowBase[r][c] = incl - s;
      const std::uint32_t total = __shfl_sync(0xffffffffu, incl, 31);
      if (lane == r) myRowTotal[c] = total;
    }
  }

  // ---- 3. row carry: look back along the row of tiles ------------------------------------
  {
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
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
      for (int c = 0; c < 4; ++c) rowBase[r][c] += __shfl_sync(0xffffffffu, carry[c], r);
  }

  // ---- 4. column sums of the warp's rows, then of the tile -------------------------------
  std::uint32_t above[kPxPerLane][4] = {};  // rows of the tile above this warp's rows
  {
    std::uint32_t col[kPxPerLane][4] = {};
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
      addRowPrefixes(raw[r], rowBase[r], m, insideX, y0 + r < height, col);
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i)
      warpColumnSums[warp][i][lane] = make_uint4(col[i][0], col[i][1], col[i][2], col[i][3]);
  }
  __syncthreads();

  // ---- 5. column carry: warp 0 looks back up the column of tiles -------------------------
  if (warp == 0) {
    Agg agg[kPxPerLane * 4];
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i) {
      std::uint32_t s[4] = {0, 0, 0, 0};
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const uint4 v = warpColumnSums[w][i][lane];
        s[0] += v.x, s[1] += v.y, s[2] += v.z, s[3] += v.w;
      }
#pragma unroll
      for (int c = 0; c < 4; ++c) agg[i * 4 + c] = static_cast<Agg>(s[c]);
    }
    const auto colSlot = [&](int p) { return static_cast<long long>(p) * tilesX + bx; };
    Carry carry[kPxPerLane * 4];
    if (by == 0) {
      Carry incl[kPxPerLane * 4];
#pragma unroll
      for (int j = 0; j < kPxPerLane * 4; ++j) carry[j] = 0, incl[j] = static_cast<Carry>(agg[j]);
      ws.columns.publishPrefix(colSlot(0), incl);
    } else {
      ws.columns.publishAggregate(colSlot(by), agg);
      ws.columns.exclusivePrefix(by, colSlot, carry);
      Carry incl[kPxPerLane * 4];
#pragma unroll
      for (int j = 0; j < kPxPerLane * 4; ++j) incl[j] = carry[j] + static_cast<Carry>(agg[j]);
      ws.columns.publishPrefix(colSlot(by), incl);
    }
#pragma unroll
    for (int j = 0; j < kPxPerLane * 4; ++j) columnCarry[j][lane] = carry[j];
  }
#pragma unroll
  for (int w = 0; w < kWarps - 1; ++w) {
    if (w < warp) {
#pragma unroll
      for (int i = 0; i < kPxPerLane; ++i) {
        const uint4 v = warpColumnSums[w][i][lane];
        above[i][0] += v.x, above[i][1] += v.y, above[i][2] += v.z, above[i][3] += v.w;
      }
    }
  }
  if constexpr (Traits::kOffset) {
    if (tileId == 0 && threadIdx.x == 0) writeOffsetTrailer(table, width, height, m);
  }
  __syncthreads();

  // ---- 6. store -----------------------------------------------------------------------
  Carry carry[kPxPerLane][4];
#pragma unroll
  for (int i = 0; i < kPxPerLane; ++i)
#pragma unroll
    for (int c = 0; c < 4; ++c) carry[i][c] = columnCarry[i * 4 + c][lane];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    const int y = y0 + r;
    const bool insideY = y < height;
    uint4 entry[kPxPerLane];
    addRowPrefixes(raw[r], rowBase[r], m, insideX, insideY, above);
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i) entry[i] = Traits::entry(carry[i], above[i]);
    if (!insideY) continue;
    uint4* row = table + static_cast<std::size_t>(y) * width;
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i)
      if (insideX[i]) row[x0 + i] = entry[i];
  }
}

template <SatFormat F, class Source>
cudaError_t launchFormat(Source src, int width, int height, void* table, void* scratch,
                         std::size_t scratchBytes, cudaStream_t stream) {
  const Geometry g = geometryOf(width, height);
  const ScratchLayout<F> layout(g);
  if (scratchBytes < layout.total || !scratch || !table) return cudaErrorInvalidValue;
  const Workspace<F> ws = layout.carve(scratch);
  SATDOF_TRY(cudaMemsetAsync(scratch, 0, layout.zeroed, stream));
  if constexpr (FormatTraits<F>::kOffset) {
    channelSumsKernel<<<min(height, 1024), 256, 0, stream>>>(src, width, height, ws.head);
    SATDOF_TRY_LAUNCH();
  }
  singlePassKernel<F><<<static_cast<unsigned>(g.tiles()), kThreads, 0, stream>>>(
      src, width, height, g.tilesX, static_cast<uint4*>(table), ws);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace

std::size_t singlePassScratchBytes(const SatArgs& args) {
  if (args.width <= 0 || args.height <= 0) return 0;
  const Geometry g = geometryOf(args.width, args.height);
  switch (args.format) {
    case SatFormat::Uint32:
      return ScratchLayout<SatFormat::Uint32>(g).total;
    case SatFormat::Float32:
      return ScratchLayout<SatFormat::Float32>(g).total;
    case SatFormat::Float32Offset:
      return ScratchLayout<SatFormat::Float32Offset>(g).total;
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

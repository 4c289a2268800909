// cuda/sat/reduce_then_scan.cuh — `reduce-then-scan`'s third kernel (the table, tile by
// tile, from the pixels and the carries) and its launch, templated on the scan policy
// (detail/scan_policy/). The algorithm is described in reduce_then_scan.cu; each scan
// variant's file in sat/by_scan/ instantiates ReduceThenScan<its policy>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "detail/device_facts.h"
#include "sat/reduce_then_scan_lookback.cuh"
#include "sat/reduce_then_scan_passes.cuh"

namespace satdof::detail::rts {

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

template <SatFormat F, bool Preload, class Policy, class Source>
__global__ void __launch_bounds__(kThreads)
    scanKernel(Source src, int width, int height, Geometry g, typename FormatTraits<F>::Entry* table,
               Arrays<F> a) {
  using Traits = FormatTraits<F>;
  using Carry = typename Traits::Carry;
  using Entry = typename Traits::Entry;
  constexpr int kB = kBatchOf<F>;
  __shared__ uint4 stage[kWarps][kStaged<F> ? kB : 1][kCols];  // rows of entries per warp
  __shared__ std::uint32_t scanWords[kWarps][Policy::template kWords<kPx>];
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

  // ---- carries: lane r holds the sum of the row sums left of the tile over rows 0..r,
  //      and carry[k] = SAT(x0 + k, y0 - 1) -----------------------------------------------
  std::uint32_t* const smem = scanWords[warp];
  uint4 left;  // lane r: row y0 + r's sum left of the tile
  Carry carry[kPx][4];
  if constexpr (Policy::kAcrossTiles == TileCrossing::LookBack) {
    left = rowsLeftOf<F>(a, g, bx, by, lane);
    Carry above[kPx][4], corner[4];
    columnsAbove<F>(a, g, width, bx, by, lane, x0, left, above, corner);
#pragma unroll
    for (int k = 0; k < kPx; ++k)
#pragma unroll
      for (int c = 0; c < 4; ++c) carry[k][c] = corner[c] + above[k][c];
  } else {
    left = y0 + lane < height ? a.rowTot[rowTotIndex<TileCrossing::Hierarchy>(g, y0 + lane, bx)]
                              : make_uint4(0, 0, 0, 0);
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
  std::uint32_t rowCum[4];
  {
    uint4 v[1] = {left};
    uint4 total;
    scanChannels<Policy>(v, smem, total);
    rowCum[0] = v[0].x, rowCum[1] = v[0].y, rowCum[2] = v[0].z, rowCum[3] = v[0].w;
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
      std::uint32_t rb[kPx] = {pairRB(cur[r].x), pairRB(cur[r].y)};
      std::uint32_t ga[kPx] = {pairGA(cur[r].x), pairGA(cur[r].y)};
      Policy::inclusiveScan(rb, smem);
      Policy::inclusiveScan(ga, smem);
      pre[r][0][0] = rb[0], pre[r][0][1] = ga[0];
      pre[r][1][0] = rb[1], pre[r][1][1] = ga[1];
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
template <SatFormat F, class Policy, class Source>
cudaError_t preloadPays(unsigned blocks, bool& pays) {
  DeviceFacts facts;
  int streaming = 0, preloading = 0;
  SATDOF_TRY(currentDeviceFacts(facts));
  SATDOF_TRY(cachedOccupancy(scanKernel<F, false, Policy, Source>, kThreads, 0, streaming));
  SATDOF_TRY(cachedOccupancy(scanKernel<F, true, Policy, Source>, kThreads, 0, preloading));
  const auto waves = [&](int perSm) {
    const long long resident = static_cast<long long>(std::max(perSm, 1)) * facts.sms;
    return (blocks + resident - 1) / resident;
  };
  pays = preloading > 0 && waves(preloading) <= waves(streaming);
  return cudaSuccess;
}

// The launch for one format and source (through launchSat, sat_formats.cuh); the
// by_scan/ files instantiate it with their policy.
template <class Policy>
struct ReduceThenScan {
  template <SatFormat F, class Source>
  static cudaError_t launch(Source src, int width, int height, void* table, void* scratch,
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
    reduceKernel<Policy><<<tileBlocks, kThreads, 0, stream>>>(src, width, height, l.g, a.rowTot, a.colPre,
                                                              a.rowFlag, a.colFlag);
    SATDOF_TRY_LAUNCH();
    if constexpr (Policy::kAcrossTiles == TileCrossing::Hierarchy) {
      const unsigned rowBlocks = static_cast<unsigned>((height + kBandGroups - 1) / kBandGroups);
      const unsigned columnBlocks = static_cast<unsigned>((width + 31) / 32);
      SATDOF_TRY(launchDependent(programmatic, carriesKernel<F, Policy>, rowBlocks + columnBlocks,
                                 kCarryThreads, stream, width, height, l.g, rowBlocks, a));
    }
    const auto entries = static_cast<typename FormatTraits<F>::Entry*>(table);
    bool preload = false;
    SATDOF_TRY((preloadPays<F, Policy, Source>(tileBlocks, preload)));
    if (preload)
      SATDOF_TRY(launchDependent(programmatic, scanKernel<F, true, Policy, Source>, tileBlocks, kThreads, stream,
                                 src, width, height, l.g, entries, a));
    else
      SATDOF_TRY(launchDependent(programmatic, scanKernel<F, false, Policy, Source>, tileBlocks, kThreads, stream,
                                 src, width, height, l.g, entries, a));
    return cudaSuccess;
  }
};

}  // namespace satdof::detail::rts

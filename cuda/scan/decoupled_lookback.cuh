// scan/decoupled_lookback.cuh — the single-pass scan's kernel and launch, as templates on
// the tile shape (Threads x Items) so that decoupled_lookback.cu can instantiate the
// registered shape and the tuning sweep (bench/scan_tuning.cu) any other. Private to cuda/.
// The algorithm is described in decoupled_lookback.cu.
#pragma once

#include <cuda/atomic>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/lookback.cuh"
#include "detail/scan_args.cuh"
#include "detail/thread_tile.cuh"
#include "detail/warp_exchange.cuh"
#include "satdof/cuda_check.h"
#include "satdof/scan.h"

namespace satdof::detail {

inline constexpr std::size_t kCounterBytes = 256;  // keeps the status words 256-byte aligned

template <class T, int Threads, int Items>
struct LookbackTileStorage {
  T exchange[Threads / kWarpSize][WarpExchangeLayout<Items>::kSlots];
  typename WarpShuffleBlockScan<Threads, T, SumOp>::TempStorage scan;
  T tilePrefix;
  unsigned tileId;
};

// ---------------------------------------------------------------------------------------
// The kernel: one tile of Threads x Items elements per block
// ---------------------------------------------------------------------------------------
// status == nullptr: every row is a single tile, blocks take tiles by blockIdx.x and
// nothing is published. Otherwise tiles come from tileCounter in launch order.
template <class T, class Op, int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    decoupledLookbackKernel(const T* in, T* out, std::size_t length, std::size_t pitch,
                            std::size_t tilesPerRow, unsigned* tileCounter,
                            TileStatusWord* status, LookbackDelays delays, bool exclusive) {
  constexpr int kTileItems = Threads * Items;
  __shared__ LookbackTileStorage<T, Threads, Items> tmp;
  const Op op{};
  const T identity = Op::template identity<T>();
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;

  // ---- 1. dynamic tile id -> (row, tile in row) -----------------------------------------
  std::size_t tile = blockIdx.x;
  if (tileCounter != nullptr) {
    if (threadIdx.x == 0) tmp.tileId = atomicAdd(tileCounter, 1u);
    __syncthreads();
    tile = tmp.tileId;
  }
  const std::size_t row = tile / tilesPerRow;
  const std::size_t tileInRow = tile - row * tilesPerRow;
  const std::size_t start = tileInRow * kTileItems;
  const int count = static_cast<int>(std::min<std::size_t>(length - start, kTileItems));
  const T* src = in + row * pitch + start;
  T* dst = out + row * pitch + start;

  // ---- 2. coalesced load, transposed to Items consecutive elements per thread ----------
  const int warpStart = warp * WarpExchangeLayout<Items>::kSegment;
  const bool full = count == kTileItems;
  T items[Items];
  loadWarpStriped(src + warpStart, count - warpStart, full && isAligned16(src),
                  tmp.exchange[warp], items, identity);

  // ---- 3. reduce runs, scan run totals across the block (ends synchronised) -----------
  T aggregate;
  const T runPrefix = WarpShuffleBlockScan<Threads, T, Op>::exclusiveScan(
      threadReduce(items, op), aggregate, tmp.scan, op);

  // ---- 4. publish the aggregate, look back, publish the inclusive prefix --------------
  if (warp == 0) {
    T tilePrefix = identity;
    if (status != nullptr) {
      TileStatusWord* own = status + tile;
      if (tileInRow == 0) {
        if (lane == 0) publishStatus(own, TileFlag::Prefix, aggregate);
      } else {
        if (lane == 0) publishStatus(own, TileFlag::Aggregate, aggregate);
        tilePrefix = lookbackExclusivePrefix<T>(status, static_cast<long long>(tile),
                                                static_cast<long long>(tile - tileInRow),
                                                delays, op);
        if (lane == 0) publishStatus(own, TileFlag::Prefix, op(tilePrefix, aggregate));
      }
    }
    if (lane == 0) tmp.tilePrefix = tilePrefix;
  }
  __syncthreads();

  // ---- 5. rescan the runs from their prefixes, transpose back, coalesced store --------
  threadScanSeeded(items, op(tmp.tilePrefix, runPrefix), exclusive, op);
  storeWarpStriped(dst + warpStart, count - warpStart, full && isAligned16(dst),
                   tmp.exchange[warp], items);
}

// ---------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------
struct LookbackPlan {
  std::size_t tilesPerRow = 0;
  std::size_t tiles = 0;
  bool lookback = false;    // more than one tile per row
  std::size_t scratch = 0;  // bytes: counter + status words, 0 without look-back
};

inline LookbackPlan makeLookbackPlan(const ScanArgs& args, int tileItems) {
  LookbackPlan plan;
  if (isEmptyScan(args)) return plan;
  plan.tilesPerRow = ceilDiv(args.length, static_cast<std::size_t>(tileItems));
  plan.tiles = plan.tilesPerRow * args.rows;
  plan.lookback = plan.tilesPerRow > 1;
  if (plan.lookback) plan.scratch = kCounterBytes + alignUp(plan.tiles * sizeof(TileStatusWord));
  return plan;
}

// The variant's launch for a tile of Threads x Items; delaysFor(tiles) gives the look-back
// waits for a grid of that many tiles.
template <int Threads, int Items, class DelaysFor>
cudaError_t launchDecoupledLookback(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                                    DelaysFor delaysFor, cudaStream_t stream) {
  const LookbackPlan plan = makeLookbackPlan(args, Threads * Items);
  SATDOF_TRY(validateScanArgs(args, scratch, scratchBytes, plan.scratch));
  if (isEmptyScan(args)) return cudaSuccess;
  // One block per tile; tile ids must also fit the 32-bit counter.
  if (plan.tiles > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;

  unsigned* counter = nullptr;
  TileStatusWord* status = nullptr;
  if (plan.lookback) {
    auto* base = static_cast<std::byte*>(scratch);
    counter = reinterpret_cast<unsigned*>(base);
    status = reinterpret_cast<TileStatusWord*>(base + kCounterBytes);
    SATDOF_TRY(cudaMemsetAsync(base, 0, plan.scratch, stream));
  }
  return dispatchScanType(args.type, [&](auto tag) -> cudaError_t {
    using T = decltype(tag);
    decoupledLookbackKernel<T, SumOp, Threads, Items>
        <<<static_cast<unsigned>(plan.tiles), Threads, 0, stream>>>(
            static_cast<const T*>(args.in), static_cast<T*>(args.out), args.length,
            args.rowPitch(), plan.tilesPerRow, counter, status, delaysFor(plan.tiles),
            args.op == ScanOp::Exclusive);
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  });
}

}  // namespace satdof::detail

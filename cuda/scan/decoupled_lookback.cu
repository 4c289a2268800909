// scan/decoupled_lookback.cu — `decoupled-lookback`: the single-pass scan of Merrill &
// Garland (2016), the algorithm behind CUB's DeviceScan.
//
// The hierarchy variants move each element four times (read, write, read and write again
// for the uniform add) plus the sums levels. This one reads every element once and
// writes it once, in a single kernel:
//   1. a block takes the next tile id from an atomic counter (launch order, which is what
//      makes the look-back deadlock-free) and maps it to (row, tile within row);
//   2. its warps load the tile coalesced (16-byte vectors when possible) and transpose
//      it through shared memory so every thread holds 16 consecutive elements;
//   3. threads reduce their runs, a warp-shuffle block scan combines the run totals;
//   4. thread 0 publishes the tile's aggregate, warp 0 looks back over the predecessors
//      of the same row (detail/lookback.cuh) and publishes the inclusive prefix;
//   5. threads rescan their runs seeded with tile prefix + run prefix, and the warps
//      transpose back and store coalesced.
// Batches: tile ids run over all rows (row = id / tilesPerRow); a row's look-back stops
// at its first tile. Rows that fit in one tile need no look-back at all: no status
// words, no counter, no memset (the SAT's 4K row pass is such a batch).
//
// Scratch: [tile counter | pad to 256 B | one 64-bit status word per tile], zeroed by one
// cudaMemsetAsync before the kernel.
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
#include "scan/variants.h"

namespace satdof::detail {
namespace {

constexpr int kThreads = kDecoupledLookbackTuning.threadsPerBlock;
constexpr int kItems = kDecoupledLookbackTuning.itemsPerThread;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kTileItems = kThreads * kItems;
constexpr std::size_t kCounterBytes = 256;  // keeps the status words 256-byte aligned

template <class T>
struct TempStorage {
  T exchange[kWarps][WarpExchangeLayout<kItems>::kSlots];
  typename WarpShuffleBlockScan<kThreads, T, SumOp>::TempStorage scan;
  T tilePrefix;
  unsigned tileId;
};

// ---------------------------------------------------------------------------------------
// The kernel: one tile per block
// ---------------------------------------------------------------------------------------
// tileCounter == nullptr: every row is a single tile, blocks take tiles by blockIdx.x and
// nothing is published.
template <class T, class Op>
__global__ void __launch_bounds__(kThreads)
    decoupledLookbackKernel(const T* in, T* out, std::size_t length, std::size_t pitch,
                            std::size_t tilesPerRow, unsigned* tileCounter,
                            TileStatusWord* status, bool exclusive) {
  __shared__ TempStorage<T> tmp;
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

  // ---- 2. coalesced load, transposed to 16 consecutive elements per thread ------------
  const int warpStart = warp * WarpExchangeLayout<kItems>::kSegment;
  const bool full = count == kTileItems;
  T items[kItems];
  loadWarpStriped(src + warpStart, count - warpStart, full && isAligned16(src),
                  tmp.exchange[warp], items, identity);

  // ---- 3. reduce runs, scan run totals across the block (ends synchronised) -----------
  T aggregate;
  const T runPrefix = WarpShuffleBlockScan<kThreads, T, Op>::exclusiveScan(
      threadReduce(items, op), aggregate, tmp.scan, op);

  // ---- 4. publish the aggregate, look back, publish the inclusive prefix --------------
  if (warp == 0) {
    T tilePrefix = identity;
    if (tileCounter != nullptr) {
      TileStatusWord* own = status + tile;
      if (tileInRow == 0) {
        if (lane == 0) publishStatus(own, TileFlag::Prefix, aggregate);
      } else {
        if (lane == 0) publishStatus(own, TileFlag::Aggregate, aggregate);
        tilePrefix = lookbackExclusivePrefix<T>(status, static_cast<long long>(tile),
                                                static_cast<long long>(tile - tileInRow), op);
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
struct Plan {
  std::size_t tilesPerRow = 0;
  std::size_t tiles = 0;
  bool lookback = false;     // more than one tile per row
  std::size_t scratch = 0;   // bytes: counter + status words, 0 without look-back
};

Plan makePlan(const ScanArgs& args) {
  Plan plan;
  if (isEmptyScan(args)) return plan;
  plan.tilesPerRow = ceilDiv(args.length, kTileItems);
  plan.tiles = plan.tilesPerRow * args.rows;
  plan.lookback = plan.tilesPerRow > 1;
  if (plan.lookback) plan.scratch = kCounterBytes + alignUp(plan.tiles * sizeof(TileStatusWord));
  return plan;
}

template __global__ void decoupledLookbackKernel<std::uint32_t, SumOp>(
    const std::uint32_t*, std::uint32_t*, std::size_t, std::size_t, std::size_t, unsigned*,
    TileStatusWord*, bool);
template __global__ void decoupledLookbackKernel<float, SumOp>(const float*, float*, std::size_t,
                                                               std::size_t, std::size_t,
                                                               unsigned*, TileStatusWord*, bool);

}  // namespace

std::size_t decoupledLookbackScratchBytes(const ScanArgs& args) { return makePlan(args).scratch; }

cudaError_t decoupledLookbackLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                                    cudaStream_t stream) {
  const Plan plan = makePlan(args);
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
    decoupledLookbackKernel<T, SumOp><<<static_cast<unsigned>(plan.tiles), kThreads, 0, stream>>>(
        static_cast<const T*>(args.in), static_cast<T*>(args.out), args.length, args.rowPitch(),
        plan.tilesPerRow, counter, status, args.op == ScanOp::Exclusive);
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  });
}

}  // namespace satdof::detail

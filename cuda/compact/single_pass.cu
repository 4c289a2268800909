// compact/single_pass.cu — `single-pass`: stream compaction in one kernel, the way CUB's
// DeviceSelect does it: the flags, their scan and the scatter of scan-scatter fused, with
// the decoupled look-back of the single-pass scan (detail/lookback.cuh) carrying the
// running count of selected elements from tile to tile.
//   1. a block takes the next tile id from an atomic counter (launch order: every
//      predecessor is running or done, so the look-back cannot deadlock);
//   2. its warps load the tile coalesced (16-byte vectors when complete and aligned) and
//      transpose it so every thread holds Items consecutive elements;
//   3. each thread evaluates the predicate into a bit mask (elements past the end are
//      never selected) and counts it; a warp-shuffle block scan of the counts gives each
//      thread its rank within the tile and the tile's count;
//   4. warp 0 publishes the tile's count, looks back for the count before the tile and
//      publishes the inclusive one; the last tile writes the total to args.count;
//   5. threads write their selected values to shared memory at their ranks, and the block
//      stores the tile's run contiguously (coalesced) at its prefix; the same again for
//      the indices when asked for.
// Each element is read once and each selected one written once (n + s words, + s for the
// indices): what a copy of the result costs.
//
// Scratch: [tile counter | pad to 256 B | one 64-bit status word per tile], zeroed by one
// cudaMemsetAsync before the kernel.
#include <algorithm>
#include <cstdint>

#include "compact/variants.h"
#include "detail/block_scan.cuh"
#include "detail/lookback.cuh"
#include "detail/thread_tile.cuh"
#include "detail/warp_exchange.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

constexpr int kThreads = kSinglePassCompactThreads;
constexpr int kItems = kSinglePassCompactItems;
constexpr int kTileItems = kThreads * kItems;
constexpr std::size_t kCounterBytes = 256;  // keeps the status words 256-byte aligned
static_assert(kItems <= 32, "a thread's flags are one 32-bit mask");

using Layout = WarpExchangeLayout<kItems>;
using BlockScan = WarpShuffleBlockScan<kThreads, std::uint32_t, SumOp>;

struct SelectStorage {
  union {
    std::uint32_t exchange[kThreads / kWarpSize][Layout::kSlots];  // the load's transpose
    std::uint32_t gathered[kTileItems];  // then the tile's selected values (or indices)
  };
  BlockScan::TempStorage scan;
  std::uint32_t tilePrefix;
  unsigned tileId;
};
static_assert(sizeof(std::uint32_t[kThreads / kWarpSize][Layout::kSlots]) >=
              sizeof(std::uint32_t[kTileItems]));

// Writes the selected of a thread's run (mask bit i: element i) to gathered[rank...].
template <class ValueOf>
__device__ __forceinline__ void gather(std::uint32_t* gathered, std::uint32_t rank,
                                       unsigned mask, ValueOf valueOf) {
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    if (mask & (1u << i)) gathered[rank++] = valueOf(i);
}

__device__ __forceinline__ void storeRun(std::uint32_t* dst, const std::uint32_t* gathered,
                                         std::uint32_t count) {
  for (std::uint32_t j = threadIdx.x; j < count; j += kThreads) dst[j] = gathered[j];
}

__global__ void __launch_bounds__(kThreads)
    singlePassCompactKernel(const std::uint32_t* in, std::uint32_t* out, std::uint32_t* indices,
                            std::uint32_t* count, std::size_t n, std::size_t tiles,
                            Predicate pred, unsigned* tileCounter, TileStatusWord* status,
                            LookbackDelays delays) {
  __shared__ SelectStorage tmp;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;

  // ---- 1. dynamic tile id ----------------------------------------------------------------
  if (threadIdx.x == 0) tmp.tileId = atomicAdd(tileCounter, 1u);
  __syncthreads();
  const std::size_t tile = tmp.tileId;
  const std::size_t start = tile * kTileItems;
  const int inTile = static_cast<int>(std::min<std::size_t>(n - start, kTileItems));
  const std::uint32_t* src = in + start;

  // ---- 2. coalesced load, blocked runs ---------------------------------------------------
  const int warpStart = warp * Layout::kSegment;
  std::uint32_t items[kItems];
  loadWarpStriped(src + warpStart, inTile - warpStart, inTile == kTileItems && isAligned16(src),
                  tmp.exchange[warp], items, 0u);

  // ---- 3. flags as a mask, ranks by a block scan (ends synchronised: exchange is free) --
  const int first = warpStart + lane * kItems;  // tile index of items[0]
  unsigned mask = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    if (first + i < inTile && pred(items[i])) mask |= 1u << i;
  std::uint32_t selected;
  const std::uint32_t rank =
      BlockScan::exclusiveScan(static_cast<std::uint32_t>(__popc(mask)), selected, tmp.scan,
                               SumOp{});

  // ---- 4. look-back: the count before this tile ------------------------------------------
  if (warp == 0) {
    std::uint32_t tilePrefix = 0;
    TileStatusWord* own = status + tile;
    if (tile == 0) {
      if (lane == 0) publishStatus(own, TileFlag::Prefix, selected);
    } else {
      if (lane == 0) publishStatus(own, TileFlag::Aggregate, selected);
      tilePrefix = lookbackExclusivePrefix<std::uint32_t>(status, static_cast<long long>(tile), 0,
                                                          delays, SumOp{});
      if (lane == 0) publishStatus(own, TileFlag::Prefix, tilePrefix + selected);
    }
    if (lane == 0) {
      tmp.tilePrefix = tilePrefix;
      if (tile == tiles - 1) *count = tilePrefix + selected;
    }
  }

  // ---- 5. gather in shared memory, store the tile's run contiguously ---------------------
  if (out != nullptr) {
    gather(tmp.gathered, rank, mask, [&](int i) { return items[i]; });
    __syncthreads();
    storeRun(out + tmp.tilePrefix, tmp.gathered, selected);
  }
  if (indices != nullptr) {
    if (out != nullptr) __syncthreads();  // the values' store is done reading gathered
    const std::uint32_t base = static_cast<std::uint32_t>(start) + static_cast<std::uint32_t>(first);
    gather(tmp.gathered, rank, mask, [&](int i) { return base + static_cast<std::uint32_t>(i); });
    __syncthreads();
    storeRun(indices + tmp.tilePrefix, tmp.gathered, selected);
  }
}

struct Plan {
  std::size_t tiles = 0;
  std::size_t scratch = 0;
};

Plan makePlan(const CompactArgs& args) {
  Plan p;
  if (args.n == 0) return p;
  p.tiles = (args.n + kTileItems - 1) / kTileItems;
  p.scratch = kCounterBytes + alignUp(p.tiles * sizeof(TileStatusWord));
  return p;
}

}  // namespace

std::size_t singlePassCompactScratchBytes(const CompactArgs& args) {
  return makePlan(args).scratch;
}

cudaError_t singlePassCompactLaunch(const CompactArgs& args, void* scratch,
                                    std::size_t scratchBytes, cudaStream_t stream) {
  const Plan plan = makePlan(args);
  SATDOF_TRY(validateCompactArgs(args, scratch, scratchBytes, plan.scratch));
  if (args.n == 0) return writeEmptyCount(args, stream);

  auto* base = static_cast<std::byte*>(scratch);
  auto* counter = reinterpret_cast<unsigned*>(base);
  auto* status = reinterpret_cast<TileStatusWord*>(base + kCounterBytes);
  SATDOF_TRY(cudaMemsetAsync(base, 0, plan.scratch, stream));
  // The scan's measured waits (scan/variants.h), by the same one-wave rule.
  const LookbackDelays delays = lookbackDelaysFor(plan.tiles, kThreads);
  singlePassCompactKernel<<<static_cast<unsigned>(plan.tiles), kThreads, 0, stream>>>(
      args.in, args.out, args.indices, args.count, args.n, plan.tiles, args.predicate, counter,
      status, delays);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace satdof::detail

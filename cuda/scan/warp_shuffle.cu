// scan/warp_shuffle.cu — `warp-shuffle`: the block scan rebuilt from register shuffles.
//
// On current GPUs a warp exchanges registers directly with __shfl_up_sync, so the
// shared-memory tree shrinks to one value per warp:
//   1. each of 512 threads loads 4 consecutive elements as one 16-byte vector (a warp
//      reads 512 contiguous bytes) and reduces them;
//   2. every warp scans its 32 thread totals with 5 shuffle steps;
//   3. the 16 warp totals go through shared memory and one warp scans them;
//   4. each thread rescans its 4 registers from its prefix and stores them.
// Two barriers per tile, against 2 log2(n) for the trees. Longer rows go through
// detail/hierarchy.cuh.
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/hierarchy.cuh"
#include "detail/thread_tile.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

template <class T>
struct WarpShuffleTile {
  using Value = T;
  using Op = SumOp;
  static constexpr int kThreads = kWarpShuffleTuning.threadsPerBlock;
  static constexpr int kItems = kWarpShuffleTuning.itemsPerThread;
  static constexpr int kTileItems = kThreads * kItems;
  using BlockScan = WarpShuffleBlockScan<kThreads, T, Op>;

  struct TempStorage {
    typename BlockScan::TempStorage scan;
  };

  __device__ static T scanTile(const T* in, T* out, int count, bool exclusive, TempStorage& tmp) {
    const Op op{};
    const int tid = static_cast<int>(threadIdx.x);
    const bool full = count == kTileItems;

    // ---- load one vector (or 4 scalars) per thread and reduce it ---------------------
    T items[kItems];
    loadBlocked(in, count, tid, full && isAligned16(in), items, Op::template identity<T>());

    // ---- shuffle scans: lanes, then warp totals (ends synchronised) ------------------
    T tileTotal;
    const T prefix = BlockScan::exclusiveScan(threadReduce(items, op), tileTotal, tmp.scan, op);

    // ---- rescan the registers from the thread's prefix and store ---------------------
    threadScanSeeded(items, prefix, exclusive, op);
    storeBlocked(out, count, tid, full && isAligned16(out), items);
    return tileTotal;
  }
};

}  // namespace

template __global__ void scanTilesKernel<WarpShuffleTile<std::uint32_t>>(
    const std::uint32_t*, std::uint32_t*, std::size_t, std::size_t, std::size_t,
    std::uint32_t*, std::size_t, bool);
template __global__ void scanTilesKernel<WarpShuffleTile<float>>(
    const float*, float*, std::size_t, std::size_t, std::size_t, float*, std::size_t, bool);

std::size_t warpShuffleScratchBytes(const ScanArgs& args) {
  return hierarchyVariantScratchBytes<WarpShuffleTile<float>::kTileItems>(args);
}

cudaError_t warpShuffleLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream) {
  return launchHierarchy<WarpShuffleTile>(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

// scan/blelloch_8_per_thread.cu — `blelloch-8-per-thread`: more work per thread, GPU Gems 3
// 39.2.5.
//
// Each of 256 threads owns 8 consecutive elements of a 2048-element tile and loads them
// as two 16-byte vectors (uint4 / float4). It reduces them in registers, the padded
// Blelloch tree then scans only the 256 per-thread totals (1/8 of the shared-memory
// traffic and barriers of the two-per-thread tree), and every thread rescans its 8
// registers seeded with its exclusive prefix. By Brent's theorem the sequential part
// costs O(n / p) while the tree stays O(log p) deep.
//
// Vector loads need a 16-byte aligned, complete run. A tile qualifies when it is full
// and its row start is aligned (pitch a multiple of 4 and a 16-byte aligned base); the
// ragged last tile and rows shifted by an odd pitch take the scalar path.
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/hierarchy.cuh"
#include "detail/thread_tile.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

template <class T>
struct Blelloch8Tile {
  using Value = T;
  using Op = SumOp;
  using Pad = BankPadding;
  static constexpr int kThreads = kBlelloch8Tuning.threadsPerBlock;
  static constexpr int kItems = kBlelloch8Tuning.itemsPerThread;
  static constexpr int kTileItems = kThreads * kItems;

  struct TempStorage {
    T totals[Pad::size(kThreads)];  // one per thread, scanned by the padded tree
    T total;
  };

  __device__ static T scanTile(const T* in, T* out, int count, bool exclusive, TempStorage& tmp) {
    const Op op{};
    const int tid = static_cast<int>(threadIdx.x);
    const bool full = count == kTileItems;

    // ---- load 8 consecutive elements: two vectors, or scalars with identity padding --
    T items[kItems];
    loadBlocked(in, count, tid, full && isAligned16(in), items, Op::template identity<T>());

    // ---- reduce in registers; the tree scans the per-thread totals -------------------
    tmp.totals[Pad::index(tid)] = threadReduce(items, op);
    blellochExclusiveScan<kThreads, Pad>(tmp.totals, &tmp.total, op);

    // ---- rescan the registers from the thread's prefix and store ---------------------
    threadScanSeeded(items, tmp.totals[Pad::index(tid)], exclusive, op);
    storeBlocked(out, count, tid, full && isAligned16(out), items);
    return tmp.total;
  }
};

}  // namespace

template __global__ void scanTilesKernel<Blelloch8Tile<std::uint32_t>>(
    const std::uint32_t*, std::uint32_t*, std::size_t, std::size_t, std::size_t,
    std::uint32_t*, std::size_t, bool);
template __global__ void scanTilesKernel<Blelloch8Tile<float>>(
    const float*, float*, std::size_t, std::size_t, std::size_t, float*, std::size_t, bool);

std::size_t blelloch8ScratchBytes(const ScanArgs& args) {
  return hierarchyVariantScratchBytes<Blelloch8Tile<float>::kTileItems>(args);
}

cudaError_t blelloch8Launch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  return launchHierarchy<Blelloch8Tile>(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

// scan/hillis_steele.cu — `hillis-steele`: the naive scan of GPU Gems 3, 39.2.1.
//
// One element per thread; log2(512) = 9 steps, step d adding the element 2^(d-1) places
// to the left (PMPP calls this Kogge-Stone). That is n log n additions instead of n, so
// it loses to the work-efficient variants as soon as memory stops being the only cost,
// but it is the simplest correct block scan and the baseline of the teaching order.
// Two shared buffers alternate between reading and writing, because warps of one block
// do not run in lock-step. Longer rows go through detail/hierarchy.cuh.
//
// Exclusive results are read from the neighbour's inclusive value in shared memory
// (thread t takes thread t-1's), not by shifting the global load by one: nothing reads
// outside the tile, and in-place scans stay safe.
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/hierarchy.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

template <class T>
struct HillisSteeleTile {
  using Value = T;
  using Op = SumOp;
  static constexpr int kThreads = kHillisSteeleTuning.threadsPerBlock;
  static constexpr int kTileItems = kThreads;
  static_assert(kHillisSteeleTuning.itemsPerThread == 1, "one element per thread");

  struct TempStorage {
    T buffers[2 * kThreads];  // double buffer: [0, n) and [n, 2n)
  };

  __device__ static T scanTile(const T* in, T* out, int count, bool exclusive, TempStorage& tmp) {
    const Op op{};
    const T identity = Op::template identity<T>();
    const int tid = static_cast<int>(threadIdx.x);

    // ---- load one element per thread (coalesced), identity past the end -------------
    const T x = tid < count ? in[tid] : identity;

    // ---- log2(n) double-buffered steps (ends synchronised) ---------------------------
    const T inclusive = hillisSteeleInclusiveScan<kThreads>(x, tmp.buffers, op);
    const T* result = tmp.buffers + hillisSteeleResultBuffer(kThreads) * kThreads;

    // ---- store: exclusive takes the left neighbour's inclusive value ------------------
    if (tid < count) out[tid] = exclusive ? (tid > 0 ? result[tid - 1] : identity) : inclusive;
    return result[kThreads - 1];
  }
};

}  // namespace

template __global__ void scanTilesKernel<HillisSteeleTile<std::uint32_t>>(
    const std::uint32_t*, std::uint32_t*, std::size_t, std::size_t, std::size_t,
    std::uint32_t*, std::size_t, bool);
template __global__ void scanTilesKernel<HillisSteeleTile<float>>(
    const float*, float*, std::size_t, std::size_t, std::size_t, float*, std::size_t, bool);

std::size_t hillisSteeleScratchBytes(const ScanArgs& args) {
  return hierarchyVariantScratchBytes<HillisSteeleTile<float>::kTileItems>(args);
}

cudaError_t hillisSteeleLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                               cudaStream_t stream) {
  return launchHierarchy<HillisSteeleTile>(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

// scan/blelloch.cu — `blelloch`: the work-efficient tree scan of GPU Gems 3, 39.2.2.
//
// Each of 512 threads loads two adjacent elements (2t, 2t+1) of a 1024-element tile into
// shared memory; an up-sweep builds partial sums in place over a balanced binary tree,
// the root is cleared, and a down-sweep distributes prefixes: 2(n-1) additions, O(n)
// work, against Hillis-Steele's n log n. Kept exactly as the chapter first writes it,
// bank conflicts included (the tree's strided indices hit the same banks up to 16-way),
// so that `blelloch-conflict-free` can show what padding buys. Longer rows go through
// the shared multi-block hierarchy (detail/hierarchy.cuh).
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/hierarchy.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

template <class T>
struct BlellochTile {
  using Value = T;
  using Op = SumOp;
  static constexpr int kThreads = kBlellochTuning.threadsPerBlock;
  static constexpr int kTileItems = kThreads * kBlellochTuning.itemsPerThread;
  static_assert(kBlellochTuning.itemsPerThread == 2, "the tree scans two elements per thread");

  struct TempStorage {
    T data[kTileItems];
    T total;
  };

  __device__ static T scanTile(const T* in, T* out, int count, bool exclusive, TempStorage& tmp) {
    const Op op{};
    const T identity = Op::template identity<T>();
    const int i0 = scan_tree::AdjacentPairs::element(static_cast<int>(threadIdx.x), 0, kTileItems);
    const int i1 = scan_tree::AdjacentPairs::element(static_cast<int>(threadIdx.x), 1, kTileItems);

    // ---- load: two adjacent elements per thread, identity past the end --------------
    const T a = i0 < count ? in[i0] : identity;
    const T b = i1 < count ? in[i1] : identity;
    tmp.data[i0] = a;
    tmp.data[i1] = b;

    // ---- up-sweep, clear, down-sweep (ends synchronised) ------------------------------
    blellochExclusiveScan<kTileItems, NoPadding>(tmp.data, &tmp.total, op);

    // ---- store: exclusive from the tree, inclusive adds the element back -------------
    if (i0 < count) out[i0] = exclusive ? tmp.data[i0] : op(tmp.data[i0], a);
    if (i1 < count) out[i1] = exclusive ? tmp.data[i1] : op(tmp.data[i1], b);
    return tmp.total;
  }
};

}  // namespace

std::size_t blellochScratchBytes(const ScanArgs& args) {
  return hierarchyVariantScratchBytes<BlellochTile<float>::kTileItems>(args);
}

cudaError_t blellochLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                           cudaStream_t stream) {
  return launchHierarchy<BlellochTile>(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

// scan/blelloch_conflict_free.cu — `blelloch-conflict-free`: the tree of `blelloch` with
// the shared-memory padding of GPU Gems 3, 39.2.3.
//
// Two changes against `blelloch`, both aimed at shared-memory bank conflicts:
//   * every shared index i is stored at i + (i >> 5) (BankPadding, one pad word per 32
//     banks of 4 bytes), so the tree's power-of-two strides spread over distinct banks;
//   * thread t loads elements t and t + n/2 (the two halves of the tile) instead of 2t
//     and 2t + 1: each warp's loads and shared stores are then unit-stride, so both the
//     global accesses and the shared writes are conflict-free.
// scripts/ncu-bank-conflicts.sh measures the conflicts of both variants side by side.
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/hierarchy.cuh"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

template <class T>
struct BlellochConflictFreeTile {
  using Value = T;
  using Op = SumOp;
  using Pad = BankPadding;
  static constexpr int kThreads = kBlellochConflictFreeTuning.threadsPerBlock;
  static constexpr int kTileItems = kThreads * kBlellochConflictFreeTuning.itemsPerThread;
  static_assert(kBlellochConflictFreeTuning.itemsPerThread == 2, "two elements per thread");

  struct TempStorage {
    T data[Pad::size(kTileItems)];
    T total;
  };

  __device__ static T scanTile(const T* in, T* out, int count, bool exclusive, TempStorage& tmp) {
    const Op op{};
    const T identity = Op::template identity<T>();
    const int ai = scan_tree::TileHalves::element(static_cast<int>(threadIdx.x), 0, kTileItems);  // first half
    const int bi = scan_tree::TileHalves::element(static_cast<int>(threadIdx.x), 1, kTileItems);  // second half
    const int sa = Pad::index(ai);
    const int sb = Pad::index(bi);

    // ---- load: one element from each half, identity past the end ---------------------
    const T a = ai < count ? in[ai] : identity;
    const T b = bi < count ? in[bi] : identity;
    tmp.data[sa] = a;
    tmp.data[sb] = b;

    // ---- padded up-sweep, clear, down-sweep (ends synchronised) ----------------------
    blellochExclusiveScan<kTileItems, Pad>(tmp.data, &tmp.total, op);

    // ---- store ------------------------------------------------------------------------
    if (ai < count) out[ai] = exclusive ? tmp.data[sa] : op(tmp.data[sa], a);
    if (bi < count) out[bi] = exclusive ? tmp.data[sb] : op(tmp.data[sb], b);
    return tmp.total;
  }
};

}  // namespace

std::size_t blellochConflictFreeScratchBytes(const ScanArgs& args) {
  return hierarchyVariantScratchBytes<BlellochConflictFreeTile<float>::kTileItems>(args);
}

cudaError_t blellochConflictFreeLaunch(const ScanArgs& args, void* scratch,
                                       std::size_t scratchBytes, cudaStream_t stream) {
  return launchHierarchy<BlellochConflictFreeTile>(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

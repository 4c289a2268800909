// scan/blelloch_8_per_thread.cuh — the tile of `blelloch-8-per-thread`, a template on the
// block size so that blelloch_8_per_thread.cu can instantiate the registered shape and the
// tuning sweep (bench/scan_tuning.cu) others. Private to cuda/. The algorithm is
// described in blelloch_8_per_thread.cu; its lanes, slots and the runs its threads hold come
// from satdof/scan_tree.h, which the lesson's trace of it runs (lesson/register_scans.cpp).
#pragma once

#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/hierarchy.cuh"
#include "detail/thread_tile.cuh"
#include "detail/warp_scan.cuh"

namespace satdof::detail {

template <class T, int Threads>
struct Blelloch8TileOf {
  using Value = T;
  using Op = SumOp;
  using Pad = BankPadding;
  static constexpr int kThreads = Threads;
  static constexpr int kItems = 8;  // two 16-byte vectors
  static constexpr int kTileItems = kThreads * kItems;
  static constexpr int kWarps = kThreads / kWarpSize;

  struct TempStorage {
    T totals[Pad::size(kThreads)];  // one per thread, scanned by the padded tree
    T total;
  };

  // ---- reduce-then-scan, pass 1: the tile's total in thread 0 --------------------------
  // Eight elements per thread in registers, then warp shuffles; one barrier for the warp
  // totals (a tree would add log2(Threads) barriers for a value nobody scans).
  __device__ static T reduceTile(const T* in, int count, TempStorage& tmp) {
    const Op op{};
    const int tid = static_cast<int>(threadIdx.x);
    T items[kItems];
    loadBlocked(in, count, tid, count == kTileItems && isAligned16(in), items,
                Op::template identity<T>());
    const T warpTotal = warpReduce(threadReduce(items, op), op);
    if (scan_tree::laneOf(tid) == 0) tmp.totals[scan_tree::warpTotalSlot(scan_tree::warpOf(tid))] = warpTotal;
    __syncthreads();
    T total = tmp.totals[scan_tree::warpTotalSlot(0)];
    if (tid == 0)
      for (int w = 1; w < kWarps; ++w) total = op(total, tmp.totals[scan_tree::warpTotalSlot(w)]);
    return total;
  }

  // ---- the tile scan, seeded with everything before the tile ---------------------------
  __device__ static void scanTileSeeded(const T* in, T* out, int count, bool exclusive, T seed,
                                        TempStorage& tmp) {
    const Op op{};
    const int tid = static_cast<int>(threadIdx.x);
    const bool full = count == kTileItems;

    // load 8 consecutive elements: two vectors, or scalars with identity padding
    T items[kItems];
    loadBlocked(in, count, tid, full && isAligned16(in), items, Op::template identity<T>());

    // reduce in registers; the tree scans the per-thread totals
    tmp.totals[Pad::index(tid)] = threadReduce(items, op);
    blellochExclusiveScan<kThreads, Pad>(tmp.totals, &tmp.total, op);

    // rescan the registers from seed + the thread's prefix, and store
    threadScanSeeded(items, op(seed, tmp.totals[Pad::index(tid)]), exclusive, op);
    storeBlocked(out, count, tid, full && isAligned16(out), items);
  }

  // ---- the chapter's scan-then-add needs only the unseeded scan and its total ---------
  __device__ static T scanTile(const T* in, T* out, int count, bool exclusive, TempStorage& tmp) {
    scanTileSeeded(in, out, count, exclusive, Op::template identity<T>(), tmp);
    return tmp.total;
  }
};

}  // namespace satdof::detail

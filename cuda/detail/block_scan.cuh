// detail/block_scan.cuh — block-wide scans over shared memory, one per teaching step.
//
//   hillisSteeleInclusiveScan  naive, double-buffered, O(n log n) additions (GPU Gems 3
//                              39.2.1; PMPP's Kogge-Stone)
//   blellochExclusiveScan      work-efficient up-sweep / down-sweep tree (39.2.2), with a
//                              padding policy: NoPadding or BankPadding (39.2.3)
//   WarpShuffleBlockScan       warp scans through shuffles, warp totals scanned by one warp
//
// Each is called by every thread of the block and ends with the block synchronised, so
// the caller may read its results from shared memory right away. Callers must
// synchronise before they overwrite the shared memory a scan used.
#pragma once

#include "satdof/scan_tree.h"
#include "detail/scan_op.cuh"
#include "detail/warp_scan.cuh"

namespace satdof::detail {

// The index arithmetic (bank padding, the trees' nodes, Hillis-Steele's sources, the warp
// totals' slots) lives in satdof/scan_tree.h, shared with the lesson's traces of these scans.
using scan_tree::BankPadding;
using scan_tree::conflictFreeOffset;
using scan_tree::hillisSteeleResultBuffer;
using scan_tree::kLogNumBanks;
using scan_tree::kNumBanks;
using scan_tree::NoPadding;

// ---------------------------------------------------------------------------------------
// Hillis-Steele (Kogge-Stone): naive inclusive scan, one element per thread
// ---------------------------------------------------------------------------------------
// Step d adds the element 2^(d-1) to the left. Reading and writing one array in the same
// step would race (warps are not in lock-step across the block), hence two buffers that
// swap roles every step. `buffers` holds 2 * N elements; N == blockDim.x.
// Returns the thread's inclusive value; on return buffer hillisSteeleResultBuffer(N),
// i.e. buffers[hillisSteeleResultBuffer(N) * N + i], holds the inclusive scan of the
// whole block, readable by every thread.
template <int N, class T, class Op>
__device__ __forceinline__ T hillisSteeleInclusiveScan(T x, T* buffers, Op op) {
  const int tid = static_cast<int>(threadIdx.x);
  int pout = 0;
  buffers[pout * N + tid] = x;
  __syncthreads();
  for (int offset = 1; offset < N; offset <<= 1) {
    pout = 1 - pout;
    const int pin = 1 - pout;
    T v = buffers[pin * N + tid];
    if (scan_tree::hillisSteeleAdds(tid, offset)) v = op(buffers[pin * N + scan_tree::hillisSteeleSource(tid, offset)], v);
    buffers[pout * N + tid] = v;
    __syncthreads();
  }
  return buffers[pout * N + tid];
}

// ---------------------------------------------------------------------------------------
// Blelloch: work-efficient exclusive scan of N elements held in shared memory
// ---------------------------------------------------------------------------------------
// `temp` holds N logical elements at Pad::index(i). Needs at least N / 2 threads (the
// first step has N / 2 independent pairs); extra threads only join the barriers. On
// return temp holds the exclusive scan and *total the combination of all N inputs.
template <int N, class Pad, class T, class Op>
__device__ __forceinline__ void blellochExclusiveScan(T* temp, T* total, Op op) {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "the tree needs a power-of-two size");
  const int tid = static_cast<int>(threadIdx.x);

  // ---- up-sweep (reduce): after level d, node offset*(2k+2)-1 holds its subtree sum ---
  int offset = 1;
#pragma unroll
  for (int d = N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      const int ai = Pad::index(scan_tree::blellochLeft(offset, tid));
      const int bi = Pad::index(scan_tree::blellochRight(offset, tid));
      temp[bi] = op(temp[ai], temp[bi]);
    }
    offset <<= 1;
  }

  // ---- clear the root: it becomes the exclusive prefix of the whole block -------------
  if (tid == 0) {
    const int root = Pad::index(N - 1);
    *total = temp[root];
    temp[root] = Op::template identity<T>();
  }

  // ---- down-sweep: each node hands its prefix to the left child, prefix+left to the right
#pragma unroll
  for (int d = 1; d < N; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const int ai = Pad::index(scan_tree::blellochLeft(offset, tid));
      const int bi = Pad::index(scan_tree::blellochRight(offset, tid));
      const T left = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] = op(temp[bi], left);
    }
  }
  __syncthreads();
}

// ---------------------------------------------------------------------------------------
// Warp-shuffle block scan: Threads / 32 warp scans, then one warp scans the warp totals
// ---------------------------------------------------------------------------------------
template <int Threads, class T, class Op>
struct WarpShuffleBlockScan {
  static_assert(Threads % kWarpSize == 0 && Threads / kWarpSize <= kWarpSize,
                "whole warps, and at most 32 of them (one warp scans the warp totals)");
  static constexpr int kWarps = Threads / kWarpSize;

  struct TempStorage {
    T warpInclusive[kWarps];  // after the scan: inclusive prefix of warp totals
  };

  // Returns the exclusive prefix of x over the block; *blockTotal gets the sum of all. The
  // lanes, warps and slots are scan_tree's (satdof/scan_tree.h), as the lesson traces them.
  __device__ __forceinline__ static T exclusiveScan(T x, T& blockTotal, TempStorage& tmp, Op op) {
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;  // scan_tree::laneOf and warpOf, written
    const int warp = static_cast<int>(threadIdx.x) / kWarpSize;  // out (tied to them in warp_scan.cuh)

    // ---- phase 1: every warp scans its 32 values in registers --------------------------
    const T inclusive = warpInclusiveScan(x, op);
    if (scan_tree::writesWarpTotal(lane)) tmp.warpInclusive[scan_tree::warpTotalSlot(warp)] = inclusive;
    __syncthreads();

    // ---- phase 2: warp 0 scans the warp totals ------------------------------------------
    if (warp == 0) {
      const T total = lane < kWarps ? tmp.warpInclusive[scan_tree::warpTotalSlot(lane)] : Op::template identity<T>();
      const T scanned = warpInclusiveScan(total, op);
      if (lane < kWarps) tmp.warpInclusive[scan_tree::warpTotalSlot(lane)] = scanned;
    }
    __syncthreads();

    // ---- phase 3: combine the warp's prefix with the lane's exclusive value ------------
    T laneExclusive = __shfl_up_sync(kFullMask, inclusive, 1);
    if (lane == 0) laneExclusive = Op::template identity<T>();
    blockTotal = tmp.warpInclusive[scan_tree::warpTotalSlot(kWarps - 1)];
    return warp == 0 ? laneExclusive : op(tmp.warpInclusive[scan_tree::warpsBeforeSlot(warp)], laneExclusive);
  }
};

}  // namespace satdof::detail

// detail/warp_shared_scan.cuh — the chapter's shared-memory scans at warp scale: one
// warp scans the 32 * N items its lanes hold (lane l owns items l*N .. l*N+N-1, in
// order), with __syncwarp() where block_scan.cuh has __syncthreads().
//
//   warpHillisSteeleInclusive  one item per (virtual) thread, double-buffered, log2(32N)
//                              steps of 32N additions (GPU Gems 3 39.2.1)
//   warpBlellochInclusive      up-sweep / clear / down-sweep over the 32N items with a
//                              padding policy: NoPadding or BankPadding (39.2.2-39.2.3)
//
// The SAT kernels that walk a tile with one warp (cuda/sat/) scan their rows with these
// when the user picks one of the shared-memory variants (detail/scan_policy/). Both start
// with a __syncwarp(), so the same words can serve scan after scan, and end with one, so
// the results are read back safely. `smem` is private to the warp.
#pragma once

#include "detail/block_scan.cuh"
#include "detail/warp_scan.cuh"

namespace satdof::detail {

// Words of shared memory each scan needs for 32 * N items.
template <int N>
inline constexpr int kWarpHillisSteeleWords = 2 * kWarpSize * N;
template <int N, class Pad>
inline constexpr int kWarpBlellochWords = Pad::size(kWarpSize * N);

// Lane l plays threads l, l + 32, ... (one item each); step `offset` adds the item that
// many places to the left. Returns the warp's total in every lane.
template <int N, class T, class Op>
__device__ __forceinline__ T warpHillisSteeleInclusive(T (&items)[N], T* buffers, Op op) {
  constexpr int n = kWarpSize * N;
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
  __syncwarp();
#pragma unroll
  for (int k = 0; k < N; ++k) buffers[lane * N + k] = items[k];
  int pout = 0;
#pragma unroll
  for (int offset = 1; offset < n; offset <<= 1) {
    __syncwarp();
    pout = 1 - pout;
    const int pin = 1 - pout;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const int e = lane + kWarpSize * j;
      T v = buffers[pin * n + e];
      if (e >= offset) v = op(buffers[pin * n + e - offset], v);
      buffers[pout * n + e] = v;
    }
  }
  __syncwarp();
#pragma unroll
  for (int k = 0; k < N; ++k) items[k] = buffers[pout * n + lane * N + k];
  return buffers[pout * n + n - 1];
}

// One level of the tree: its d nodes t (a lane takes t = lane, lane + 32, ...), each
// given the slots of its children, offset * (2t+1) - 1 and offset * (2t+2) - 1.
template <int MaxNodes, class Pad, class Fn>
__device__ __forceinline__ void forTreeNodes(int d, int offset, int lane, Fn fn) {
#pragma unroll
  for (int t0 = 0; t0 < MaxNodes; t0 += kWarpSize) {
    const int t = t0 + lane;
    if (t < d) fn(Pad::index(offset * (2 * t + 1) - 1), Pad::index(offset * (2 * t + 2) - 1));
  }
}

// The work-efficient tree over the warp's 32N items at Pad::index(i): levels with more
// nodes than lanes give each lane several. Replaces items by their inclusive prefixes
// and returns the warp's total in every lane.
template <int N, class Pad, class T, class Op>
__device__ __forceinline__ T warpBlellochInclusive(T (&items)[N], T* tree, Op op) {
  constexpr int n = kWarpSize * N;
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
  __syncwarp();
#pragma unroll
  for (int k = 0; k < N; ++k) tree[Pad::index(lane * N + k)] = items[k];

  // ---- up-sweep: node offset*(2t+2)-1 gathers its subtree ------------------------------
  int offset = 1;
#pragma unroll
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncwarp();
    forTreeNodes<n / 2, Pad>(d, offset, lane, [&](int ai, int bi) { tree[bi] = op(tree[ai], tree[bi]); });
    offset <<= 1;
  }

  // ---- the root is the total; cleared, it becomes the first exclusive prefix ----------
  __syncwarp();
  const T total = tree[Pad::index(n - 1)];
  __syncwarp();
  if (lane == 0) tree[Pad::index(n - 1)] = Op::template identity<T>();

  // ---- down-sweep: prefix to the left child, prefix + left to the right ---------------
#pragma unroll
  for (int d = 1; d < n; d <<= 1) {
    offset >>= 1;
    __syncwarp();
    forTreeNodes<n / 2, Pad>(d, offset, lane, [&](int ai, int bi) {
      const T left = tree[ai];
      tree[ai] = tree[bi];
      tree[bi] = op(tree[bi], left);
    });
  }
  __syncwarp();
#pragma unroll
  for (int k = 0; k < N; ++k) items[k] = op(tree[Pad::index(lane * N + k)], items[k]);
  return total;
}

}  // namespace satdof::detail

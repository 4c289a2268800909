// detail/warp_scan.cuh — warp-level scans and reductions built on register shuffles.
//
// A warp exchanges registers with __shfl_*_sync without touching shared memory or
// needing __syncthreads(), so log2(32) = 5 shuffle steps scan 32 values. The block
// scans in block_scan.cuh and the look-back in lookback.cuh use these.
// Every function must be called by all 32 lanes of the warp (full mask).
#pragma once

#include "detail/scan_op.cuh"
#include "satdof/scan_tree.h"

namespace satdof::detail {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;
static_assert(kWarpSize == scan_tree::kWarpLanes);
// A thread's lane and warp are scan_tree::laneOf and warpOf (t % 32, t / 32). The scans
// here and in block_scan.cuh write them out, warpInclusiveScan's lane as the mask t & 31:
// as calls, or as the modulo, they compile to other code (fatbins compared), so this ties
// the written-out forms to the header for every thread index.
static_assert([] {
  for (int t = 0; t < 1024; ++t)
    if (scan_tree::laneOf(t) != (t & (kWarpSize - 1)) || scan_tree::laneOf(t) != t % kWarpSize ||
        scan_tree::warpOf(t) != t / kWarpSize)
      return false;
  return true;
}());

// Kogge-Stone within a warp: after step d every lane holds the sum of the 2^d values
// ending at itself. Returns the inclusive scan of x over lanes 0..lane. It is Hillis-Steele
// over lanes: __shfl_up_sync reads lane scan_tree::shuffleUpSource(lane, offset), and the
// lanes that add are scan_tree::hillisSteeleAdds's (satdof/scan_tree.h, which the lesson's
// trace of warp-shuffle runs).
template <class T, class Op>
__device__ __forceinline__ T warpInclusiveScan(T x, Op op) {
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);  // scan_tree::laneOf (see above)
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset <<= 1) {
    const T y = __shfl_up_sync(kFullMask, x, offset);
    if (scan_tree::hillisSteeleAdds(lane, offset)) x = op(y, x);
  }
  return x;
}

// Butterfly reduction: every lane ends with the combination of all 32 values (lane l adds
// lane scan_tree::shuffleXorSource(l, mask)'s). Used only with commutative operators
// (addition).
template <class T, class Op>
__device__ __forceinline__ T warpReduce(T x, Op op) {
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1) x = op(x, __shfl_xor_sync(kFullMask, x, mask));
  return x;
}

}  // namespace satdof::detail

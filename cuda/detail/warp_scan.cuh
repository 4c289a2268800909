// detail/warp_scan.cuh — warp-level scans and reductions built on register shuffles.
//
// A warp exchanges registers with __shfl_*_sync without touching shared memory or
// needing __syncthreads(), so log2(32) = 5 shuffle steps scan 32 values. The block
// scans in block_scan.cuh and the look-back in lookback.cuh use these.
// Every function must be called by all 32 lanes of the warp (full mask).
#pragma once

#include "detail/scan_op.cuh"

namespace satdof::detail {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;

// Kogge-Stone within a warp: after step d every lane holds the sum of the 2^d values
// ending at itself. Returns the inclusive scan of x over lanes 0..lane.
template <class T, class Op>
__device__ __forceinline__ T warpInclusiveScan(T x, Op op) {
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset <<= 1) {
    const T y = __shfl_up_sync(kFullMask, x, offset);
    if (lane >= offset) x = op(y, x);
  }
  return x;
}

// Butterfly reduction: every lane ends with the combination of all 32 values. Used only
// with commutative operators (addition).
template <class T, class Op>
__device__ __forceinline__ T warpReduce(T x, Op op) {
#pragma unroll
  for (int mask = kWarpSize / 2; mask > 0; mask >>= 1) x = op(x, __shfl_xor_sync(kFullMask, x, mask));
  return x;
}

}  // namespace satdof::detail

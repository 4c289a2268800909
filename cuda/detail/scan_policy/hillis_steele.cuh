// detail/scan_policy/hillis_steele.cuh — the `hillis-steele` scan policy for the SAT
// kernels (see policy.cuh): the naive scan, one item per (virtual) thread.
//
// No work in registers first: every pixel of the row is an element of the scan, so a
// 64-pixel row takes log2(64) = 6 double-buffered steps of 64 additions each (n log n),
// with a warp barrier per step, as scan/hillis_steele.cu does per block.
#pragma once

#include <string_view>

#include "detail/scan_policy/policy.cuh"
#include "detail/warp_shared_scan.cuh"

namespace satdof::detail {

struct HillisSteelePolicy {
  static constexpr std::string_view kScan = "hillis-steele";
  static constexpr TileCrossing kAcrossTiles = TileCrossing::Hierarchy;
  template <int N>
  static constexpr int kWords = kWarpHillisSteeleWords<N>;

  template <int N>
  __device__ __forceinline__ static std::uint32_t inclusiveScan(std::uint32_t (&items)[N],
                                                                std::uint32_t* smem) {
    return warpHillisSteeleInclusive(items, smem, SumOp{});
  }
};

}  // namespace satdof::detail

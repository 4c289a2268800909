// detail/scan_policy/blelloch_8_per_thread.cuh — the `blelloch-8-per-thread` scan policy
// for the SAT kernels (see policy.cuh): work in registers first (39.2.5).
//
// Each lane reduces the pixels it holds (2 or 4 in the SAT tiles; the scan variant's 8
// are its block's shape, the idea is the same), the padded tree scans only the 32 lane
// totals (5 + 5 levels instead of 6 + 6 or 7 + 7), and each lane rescans its registers.
#pragma once

#include <string_view>

#include "detail/scan_policy/policy.cuh"
#include "detail/warp_shared_scan.cuh"

namespace satdof::detail {

struct Blelloch8PerThreadPolicy {
  static constexpr std::string_view kScan = "blelloch-8-per-thread";
  static constexpr TileCrossing kAcrossTiles = TileCrossing::Hierarchy;
  template <int N>
  static constexpr int kWords = kWarpBlellochWords<1, BankPadding>;

  template <int N>
  __device__ __forceinline__ static std::uint32_t inclusiveScan(std::uint32_t (&items)[N],
                                                                std::uint32_t* smem) {
    return registersThenLanes(items, [smem](std::uint32_t x, std::uint32_t& total) {
      std::uint32_t lane[1] = {x};
      total = warpBlellochInclusive<1, BankPadding>(lane, smem, SumOp{});
      return lane[0];
    });
  }
};

}  // namespace satdof::detail

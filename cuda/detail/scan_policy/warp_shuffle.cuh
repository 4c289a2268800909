// detail/scan_policy/warp_shuffle.cuh — the `warp-shuffle` scan policy for the SAT
// kernels (see policy.cuh): registers first, then the lane totals scanned with
// __shfl_up_sync (5 steps, no shared memory, no barrier).
//
// Inside one warp this is all the variant's block scan does before its warp totals meet
// in shared memory, so it is also what `decoupled-lookback` compiles to here: the two
// variants differ in how tiles pass sums on, which the SAT algorithm fixes.
#pragma once

#include <string_view>

#include "detail/scan_policy/policy.cuh"

namespace satdof::detail {

struct WarpShufflePolicy {
  static constexpr std::string_view kScan = "warp-shuffle";
  static constexpr TileCrossing kAcrossTiles = TileCrossing::Hierarchy;
  template <int N>
  static constexpr int kWords = 1;

  template <int N>
  __device__ __forceinline__ static std::uint32_t inclusiveScan(std::uint32_t (&items)[N],
                                                                std::uint32_t*) {
    return registersThenLanes(items, shuffleLaneScan);
  }
};

}  // namespace satdof::detail

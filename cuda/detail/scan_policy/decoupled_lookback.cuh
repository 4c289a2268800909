// detail/scan_policy/decoupled_lookback.cuh — the `decoupled-lookback` scan policy for
// the SAT kernels (see policy.cuh), the default variant's.
//
// The variant's tile scan is registers first (32 items a thread), then warp shuffles;
// inside a SAT tile that is the lane's pixels reduced in registers and the 32 lane totals
// scanned by __shfl_up_sync, as in `warp-shuffle`. Between tiles it is a look-back:
// reduce-then-scan's tiles read their predecessors' published sums instead of a carries
// pass (sat/reduce_then_scan_lookback.cuh); single-pass is a look-back anyway.
#pragma once

#include <string_view>

#include "detail/scan_policy/warp_shuffle.cuh"

namespace satdof::detail {

struct DecoupledLookbackPolicy : WarpShufflePolicy {
  static constexpr std::string_view kScan = "decoupled-lookback";
  static constexpr TileCrossing kAcrossTiles = TileCrossing::LookBack;
};

}  // namespace satdof::detail

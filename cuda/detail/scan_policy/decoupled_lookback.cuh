// detail/scan_policy/decoupled_lookback.cuh — the `decoupled-lookback` scan policy for
// the SAT kernels (see policy.cuh), the default variant's.
//
// The variant's tile scan is registers first (32 items a thread), then warp shuffles;
// inside a SAT tile that is the lane's pixels reduced in registers and the 32 lane totals
// scanned by __shfl_up_sync: the tuned code path of reduce-then-scan and single-pass,
// unchanged (docs/PERFORMANCE.md). Its look-back between tiles is single-pass's.
#pragma once

#include <string_view>

#include "detail/scan_policy/warp_shuffle.cuh"

namespace satdof::detail {

struct DecoupledLookbackPolicy : WarpShufflePolicy {
  static constexpr std::string_view kScan = "decoupled-lookback";
};

}  // namespace satdof::detail

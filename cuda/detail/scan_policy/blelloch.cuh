// detail/scan_policy/blelloch.cuh — the `blelloch` scan policy for the SAT kernels (see
// policy.cuh): the work-efficient tree over every pixel of the row, unpadded.
//
// A lane's two pixels are the chapter's two elements per thread; the up-sweep and the
// down-sweep take 2 log2(32N) levels with a warp barrier each, and the tree's strided
// indices share banks (the lesson `blelloch-conflict-free` fixes).
#pragma once

#include <string_view>

#include "detail/scan_policy/policy.cuh"
#include "detail/warp_shared_scan.cuh"

namespace satdof::detail {

// The tree with a padding policy; `blelloch-conflict-free` is the padded one.
template <class Pad>
struct BlellochTreePolicy {
  template <int N>
  static constexpr int kWords = kWarpBlellochWords<N, Pad>;

  template <int N>
  __device__ __forceinline__ static std::uint32_t inclusiveScan(std::uint32_t (&items)[N],
                                                                std::uint32_t* smem) {
    return warpBlellochInclusive<N, Pad>(items, smem, SumOp{});
  }
};

struct BlellochPolicy : BlellochTreePolicy<NoPadding> {
  static constexpr std::string_view kScan = "blelloch";
  static constexpr TileCrossing kAcrossTiles = TileCrossing::Hierarchy;
};

}  // namespace satdof::detail

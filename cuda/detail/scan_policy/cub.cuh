// detail/scan_policy/cub.cuh — the `cub` scan policy for the SAT kernels (see
// policy.cuh): registers first, then cub::WarpScan (CCCL) over the 32 lane totals, the
// warp layer CUB's BlockScan is built from (a SAT tile row belongs to one warp).
#pragma once

#include <cub/warp/warp_scan.cuh>

#include <string_view>

#include "detail/scan_policy/policy.cuh"

namespace satdof::detail {

struct CubPolicy {
  using WarpScan = cub::WarpScan<std::uint32_t>;
  static constexpr std::string_view kScan = "cub";
  // CUB's device-wide scan is single-pass with a decoupled look-back.
  static constexpr TileCrossing kAcrossTiles = TileCrossing::LookBack;
  template <int N>
  static constexpr int kWords =
      static_cast<int>((sizeof(typename WarpScan::TempStorage) + 3) / 4) > 0
          ? static_cast<int>((sizeof(typename WarpScan::TempStorage) + 3) / 4)
          : 1;

  template <int N>
  __device__ __forceinline__ static std::uint32_t inclusiveScan(std::uint32_t (&items)[N],
                                                                std::uint32_t* smem) {
    auto& storage = *reinterpret_cast<typename WarpScan::TempStorage*>(smem);
    return registersThenLanes(items, [&storage](std::uint32_t x, std::uint32_t& total) {
      std::uint32_t inclusive;
      WarpScan(storage).InclusiveSum(x, inclusive, total);
      return inclusive;
    });
  }
};

}  // namespace satdof::detail

// detail/scan_policy/blelloch_conflict_free.cuh — the `blelloch-conflict-free` scan
// policy for the SAT kernels (see policy.cuh): `blelloch`'s tree with every shared index
// i stored at i + (i >> 5) (BankPadding), so the tree's power-of-two strides spread over
// the 32 banks.
#pragma once

#include <string_view>

#include "detail/scan_policy/blelloch.cuh"

namespace satdof::detail {

struct BlellochConflictFreePolicy : BlellochTreePolicy<BankPadding> {
  static constexpr std::string_view kScan = "blelloch-conflict-free";
  static constexpr TileCrossing kAcrossTiles = TileCrossing::Hierarchy;
};

}  // namespace satdof::detail

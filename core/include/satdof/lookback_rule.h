// satdof/lookback_rule.h — the decoupled look-back's tile states and its window rule
// (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016), as
// host-and-device code: cuda/detail/lookback.cuh runs them in the single-pass scan and
// compaction kernels, and lesson/lookback_trace.h follows them step by step.
//
// A tile publishes its own total as an Aggregate as soon as it has it, then looks back:
// a warp reads the status of the 32 tiles before it (lane 0 the nearest), waits while any
// is NotReady, and adds the values up to and including the nearest Prefix; with none in
// the window it adds all 32 Aggregates and moves 32 tiles back. With its exclusive prefix
// found, it publishes Prefix = prefix + its total, which lets the tiles after it stop there.
#pragma once

#include <cstdint>

#include "satdof/host_device.h"

namespace satdof::lookback {

enum class TileFlag : std::uint32_t { NotReady = 0, Aggregate = 1, Prefix = 2 };

// The window: one predecessor a lane of a warp.
inline constexpr int kWindow = 32;

// The tile `lane` reads in the window whose nearest tile is `window`.
SATDOF_HOST_DEVICE constexpr long long windowPredecessor(long long window, int lane) { return window - lane; }

// The last lane whose value the window adds: that of the nearest Prefix (the lowest set bit
// of `prefixLanes`, one bit a lane), or the window's last lane when it holds none.
SATDOF_HOST_DEVICE inline int lastCombinedLane(unsigned prefixLanes) {
#if defined(__CUDA_ARCH__)
  return prefixLanes ? __ffs(prefixLanes) - 1 : kWindow - 1;
#else
  return prefixLanes ? __builtin_ctz(prefixLanes) : kWindow - 1;
#endif
}

}  // namespace satdof::lookback

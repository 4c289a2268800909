// satdof/scan_tree.h — the index arithmetic of the block scans, written once for the CUDA
// kernels (cuda/detail/block_scan.cuh, warp_scan.cuh, thread_tile.cuh, cuda/scan/blelloch*),
// the gl-compute backend's GLSL block scans (shaders/compute/block_scan_<name>.glsl) and the
// lesson's traces of them (lesson/scan_trace.cpp, register_scans.cpp), so that what a
// picture shows is what a kernel or shader does: which slot a thread reads and writes at each
// step, where a tile's elements go, where the padding puts them, which lane a shuffle reads
// and where the warp totals meet. The functions that the GLSL scans call too are in
// shaders/compute/scan_index.glsl (the common subset of C++ and GLSL; its header says how),
// included here inside the namespace; the C++-only parts (the padding policies, the default
// warp width, the shuffles' sources) and the checks follow. Plain C++ with
// __host__ __device__ under nvcc.
#pragma once

#include "satdof/host_device.h"

namespace satdof::scan_tree {

#define SATDOF_SCAN_FN SATDOF_HOST_DEVICE constexpr
#define SATDOF_SCAN_INDEX int
#define SATDOF_SCAN_CONST inline constexpr
#include "../../../shaders/compute/scan_index.glsl"
#undef SATDOF_SCAN_FN
#undef SATDOF_SCAN_INDEX
#undef SATDOF_SCAN_CONST

// ---- Shared-memory banks and the chapter's padding (GPU Gems 3, 39.2.3) -----------------
// The tree's strided indices (stride 2, 4, ... 32) land on the same bank; one pad word after
// every 32 words (conflictFreeOffset) spreads them. The chapter's macro is usually printed as
// `((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))`, where `+` binds before `>>` (a shift
// by more than 32 bits: no padding) and 16 banks are assumed; this is the plain,
// parenthesised form, checked below.
static_assert(conflictFreeOffset(31) == 0 && conflictFreeOffset(32) == 1,
              "padding must start after the first 32 words (a zero offset means no padding)");
static_assert(conflictFreeOffset(1023) == 31 && conflictFreeOffset(1024) == 32);

// Padding policies: index(i) is the shared-memory slot of logical element i, size(n) the
// slots n elements need.
struct NoPadding {
  SATDOF_HOST_DEVICE static constexpr int index(int i) { return i; }
  SATDOF_HOST_DEVICE static constexpr int size(int n) { return n; }
};
struct BankPadding {
  SATDOF_HOST_DEVICE static constexpr int index(int i) { return bankPaddedSlot(i); }
  SATDOF_HOST_DEVICE static constexpr int size(int n) { return bankPaddedSize(n); }
};
static_assert(BankPadding::index(32) == 33 && BankPadding::size(1024) == 1056);
// The GLSL trees' shared arrays (sized by hand, see scan_index.glsl): 512 + 512/32 entries
// for 512 leaves, 64 + 64/32 for blelloch-8-per-thread's 64 invocation totals.
static_assert(BankPadding::size(512) == 512 + (512 >> 5) && BankPadding::size(64) == 64 + (64 >> 5));

// ---- Hillis-Steele (39.2.1) ---------------------------------------------------------------
static_assert(hillisSteeleResultBuffer(512) == 1 && hillisSteeleResultBuffer(1024) == 0);
static_assert(hillisSteeleOtherBuffer(0, 512) == 512 && hillisSteeleOtherBuffer(512, 512) == 0);

// ---- Which element of an n-element tile thread t loads as its k-th (k = 0, 1) of two ------
// `blelloch` (CUDA) takes adjacent pairs; `blelloch-conflict-free` and the GLSL trees one
// from each half of the tile.
struct AdjacentPairs {
  SATDOF_HOST_DEVICE static constexpr int element(int thread, int k, int /*tileItems*/) {
    return adjacentPairsElement(thread, k);
  }
};
struct TileHalves {
  SATDOF_HOST_DEVICE static constexpr int element(int thread, int k, int tileItems) {
    return tileHalvesElement(thread, k, tileItems);
  }
};

// ---- Warps and shuffles -----------------------------------------------------------------
// A CUDA warp has 32 lanes (the lesson passes narrower warps to show several at a small
// size; GLSL's subgroups are as wide as the GL says). A warp's shuffle scan
// (cuda/detail/warp_scan.cuh) is Hillis-Steele over its lanes: at step `offset`,
// __shfl_up_sync hands lane l the register of lane shuffleUpSource(l, offset), and lane l
// adds it where hillisSteeleAdds(l, offset). Its butterfly reduction: __shfl_xor_sync with
// `mask` hands lane l the register of lane l ^ mask, and every lane adds it. (The hardware
// does the sources' arithmetic; these are CUDA's definitions of the two intrinsics, for the
// traces.)
inline constexpr int kWarpLanes = 32;
SATDOF_HOST_DEVICE constexpr int laneOf(int thread) { return laneOf(thread, kWarpLanes); }
SATDOF_HOST_DEVICE constexpr int warpOf(int thread) { return warpOf(thread, kWarpLanes); }
SATDOF_HOST_DEVICE constexpr bool writesWarpTotal(int lane) { return writesWarpTotal(lane, kWarpLanes); }
SATDOF_HOST_DEVICE constexpr int shuffleUpSource(int lane, int offset) { return lane >= offset ? lane - offset : lane; }
SATDOF_HOST_DEVICE constexpr int shuffleXorSource(int lane, int mask) { return lane ^ mask; }

static_assert(laneOf(37) == 5 && warpOf(37) == 1 && laneOf(37, 8) == 5 && warpOf(37, 8) == 4);
static_assert(threadOf(warpOf(37, 8), laneOf(37, 8), 8) == 37 && blockedFirst(3, 8) == 24);
static_assert(shuffleUpSource(5, 4) == 1 && shuffleUpSource(3, 4) == 3 && shuffleXorSource(5, 4) == 1);
static_assert(adjacentPairsElement(3, 1) == 7 && tileHalvesElement(3, 1, 512) == 259);

}  // namespace satdof::scan_tree

// satdof/scan_tree.h — the index arithmetic of the block scans, written once for the CUDA
// kernels (cuda/detail/block_scan.cuh, warp_scan.cuh, thread_tile.cuh, cuda/scan/blelloch*)
// and for the lesson's traces of them (lesson/scan_trace.cpp, register_scans.cpp), so that
// what a picture shows is what a kernel does: which slot a thread reads and writes at each
// step, where a tile's elements go, where the padding puts them, which lane a shuffle reads
// and where the warp totals meet. Plain C++ with __host__ __device__ under nvcc.
#pragma once

#include "satdof/host_device.h"

namespace satdof::scan_tree {

// ---- Shared-memory banks and the chapter's padding (GPU Gems 3, 39.2.3) -----------------
// 32 banks of 4 bytes: word w is in bank w % 32. The tree's strided indices (stride 2, 4,
// ... 32) land on the same bank; one pad word after every 32 words shifts index n to
// n + (n >> 5) and spreads them. The chapter's macro is usually printed as
// `((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))`, where `+` binds before `>>` (a shift
// by more than 32 bits: no padding) and 16 banks are assumed; this is the plain,
// parenthesised form, checked below.
inline constexpr int kLogNumBanks = 5;
inline constexpr int kNumBanks = 1 << kLogNumBanks;

SATDOF_HOST_DEVICE constexpr int conflictFreeOffset(int n) { return n >> kLogNumBanks; }
SATDOF_HOST_DEVICE constexpr int bankOf(int word) { return word & (kNumBanks - 1); }

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
  SATDOF_HOST_DEVICE static constexpr int index(int i) { return i + conflictFreeOffset(i); }
  SATDOF_HOST_DEVICE static constexpr int size(int n) { return n + conflictFreeOffset(n - 1) + 1; }
};
static_assert(BankPadding::index(32) == 33 && BankPadding::size(1024) == 1056);

// ---- Hillis-Steele (39.2.1): step `offset` (1, 2, 4, ...) -------------------------------
// Thread t adds the element `offset` places to its left when t >= offset; two buffers
// swap roles every step. The buffer that holds the result after the last step of n:
SATDOF_HOST_DEVICE constexpr int hillisSteeleResultBuffer(int n) {
  int buffer = 0;
  for (int offset = 1; offset < n; offset <<= 1) buffer = 1 - buffer;
  return buffer;
}
SATDOF_HOST_DEVICE constexpr bool hillisSteeleAdds(int thread, int offset) { return thread >= offset; }
SATDOF_HOST_DEVICE constexpr int hillisSteeleSource(int thread, int offset) { return thread - offset; }

// ---- Blelloch (39.2.2): the tree's nodes --------------------------------------------------
// At the level where nodes are `offset` apart, thread t < d (d = n / 2 / offset) joins the
// left child offset(2t+1)-1 to the right one offset(2t+2)-1: the up-sweep adds left into
// right; the down-sweep hands the right's prefix to the left and prefix + left to the right.
SATDOF_HOST_DEVICE constexpr int blellochLeft(int offset, int thread) { return offset * (2 * thread + 1) - 1; }
SATDOF_HOST_DEVICE constexpr int blellochRight(int offset, int thread) { return offset * (2 * thread + 2) - 1; }

// Which element of an n-element tile thread t loads as its k-th (k = 0, 1) of two:
// `blelloch` takes adjacent pairs (2t, 2t+1), as the chapter first writes it;
// `blelloch-conflict-free` one from each half (t, t + n/2), so that a warp's shared
// stores are unit-stride.
struct AdjacentPairs {
  SATDOF_HOST_DEVICE static constexpr int element(int thread, int k, int /*tileItems*/) { return 2 * thread + k; }
};
struct TileHalves {
  SATDOF_HOST_DEVICE static constexpr int element(int thread, int k, int tileItems) {
    return thread + k * (tileItems / 2);
  }
};

// ---- More work per thread (39.2.5): a blocked arrangement --------------------------------
// Thread t holds `items` consecutive elements, blockedFirst(t, items) + 0 .. items - 1, in
// registers (cuda/detail/thread_tile.cuh's loadBlocked and storeBlocked).
SATDOF_HOST_DEVICE constexpr int blockedFirst(int thread, int items) { return thread * items; }

// ---- Warps and shuffles -----------------------------------------------------------------
// Thread t is lane t % 32 of warp t / 32 (the lesson passes narrower warps to show several
// at a small size). A warp's shuffle scan (cuda/detail/warp_scan.cuh) is Hillis-Steele over
// its lanes: at step `offset`, __shfl_up_sync hands lane l the register of lane
// shuffleUpSource(l, offset), and lane l adds it where hillisSteeleAdds(l, offset). Its
// butterfly reduction: __shfl_xor_sync with `mask` hands lane l the register of lane
// l ^ mask, and every lane adds it. (The hardware does the sources' arithmetic; these are
// CUDA's definitions of the two intrinsics, for the traces.)
inline constexpr int kWarpLanes = 32;
SATDOF_HOST_DEVICE constexpr int laneOf(int thread, int lanes = kWarpLanes) { return thread % lanes; }
SATDOF_HOST_DEVICE constexpr int warpOf(int thread, int lanes = kWarpLanes) { return thread / lanes; }
SATDOF_HOST_DEVICE constexpr int shuffleUpSource(int lane, int offset) { return lane >= offset ? lane - offset : lane; }
SATDOF_HOST_DEVICE constexpr int shuffleXorSource(int lane, int mask) { return lane ^ mask; }

static_assert(laneOf(37) == 5 && warpOf(37) == 1 && laneOf(37, 8) == 5 && warpOf(37, 8) == 4);
static_assert(shuffleUpSource(5, 4) == 1 && shuffleUpSource(3, 4) == 3 && shuffleXorSource(5, 4) == 1);

// ---- The warp-shuffle block scan's warp totals (cuda/detail/block_scan.cuh) ---------------
// The last lane of warp w, holding the warp's inclusive total, writes it to slot w; lanes
// l < warps of warp 0 read slot l, scan the totals and write them back; a thread of warp
// w > 0 then reads slot w - 1, the total of the warps before its own. (blelloch-8-per-
// thread's reduction writes its warp totals to the same slots, from lane 0.)
SATDOF_HOST_DEVICE constexpr bool writesWarpTotal(int lane, int lanes = kWarpLanes) { return lane == lanes - 1; }
SATDOF_HOST_DEVICE constexpr int warpTotalSlot(int warp) { return warp; }
SATDOF_HOST_DEVICE constexpr int warpsBeforeSlot(int warp) { return warp - 1; }

}  // namespace satdof::scan_tree

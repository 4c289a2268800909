// detail/lookback.cuh — tile status words and the warp-wide look-back of the single-pass
// scan (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016).
//
// Every tile owns one 64-bit status word in scratch: the flag in the high half, the
// 32-bit value (bit-cast for float) in the low half. Packing both in one word makes
// each publication a single atomic store, so a reader that sees the flag also sees the
// matching value: relaxed device-scope atomics suffice, no fence orders data against
// flags. The words are zeroed (flag NotReady) by a memset before the kernel runs.
//
//   NotReady   nothing published yet
//   Aggregate  the value is this tile's own total
//   Prefix     the value is the inclusive prefix through this tile (everything before
//              it in its row, plus itself)
//
// The look-back walks predecessors 32 at a time, one per lane: wait until none of the
// window is NotReady, add the values up to (and including) the nearest Prefix, stop
// there; with no Prefix in the window, add all 32 Aggregates and move 32 tiles back (the
// states and the window's rule: satdof/lookback_rule.h, which the lesson follows too).
// A row's first tile publishes Prefix at once, and tiles before the row's first tile
// read as a virtual Prefix of the identity, so every walk ends inside its own row.
// Tile ids are handed out in launch order by an atomic counter, so every predecessor of
// a running tile is already running or done and publishes without waiting on anyone:
// the walk cannot deadlock.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "detail/scan_op.cuh"
#include "detail/warp_scan.cuh"
#include "satdof/lookback_rule.h"

namespace satdof::detail {

using TileStatusWord = unsigned long long;

using TileFlag = lookback::TileFlag;  // (satdof/lookback_rule.h, shared with the lesson)
static_assert(lookback::kWindow == kWarpSize);

// Bit casts between the 32-bit scan types and the status word's value half.
__device__ __forceinline__ std::uint32_t toBits(std::uint32_t v) { return v; }
__device__ __forceinline__ std::uint32_t toBits(float v) { return __float_as_uint(v); }
template <class T>
__device__ __forceinline__ T fromBits(std::uint32_t bits);
template <>
__device__ __forceinline__ std::uint32_t fromBits<std::uint32_t>(std::uint32_t bits) {
  return bits;
}
template <>
__device__ __forceinline__ float fromBits<float>(std::uint32_t bits) {
  return __uint_as_float(bits);
}

template <class T>
__device__ __forceinline__ TileStatusWord packStatus(TileFlag flag, T value) {
  return (static_cast<TileStatusWord>(flag) << 32) | toBits(value);
}
__device__ __forceinline__ TileFlag statusFlag(TileStatusWord word) {
  return static_cast<TileFlag>(static_cast<std::uint32_t>(word >> 32));
}
template <class T>
__device__ __forceinline__ T statusValue(TileStatusWord word) {
  return fromBits<T>(static_cast<std::uint32_t>(word));
}

template <class T>
__device__ __forceinline__ void publishStatus(TileStatusWord* status, TileFlag flag, T value) {
  cuda::atomic_ref<TileStatusWord, cuda::thread_scope_device> ref(*status);
  ref.store(packStatus(flag, value), cuda::memory_order_relaxed);
}

__device__ __forceinline__ TileStatusWord readStatus(TileStatusWord* status) {
  cuda::atomic_ref<TileStatusWord, cuda::thread_scope_device> ref(*status);
  return ref.load(cuda::memory_order_relaxed);
}

// Waiting in the look-back, in nanoseconds (__nanosleep may sleep anywhere in [0, 2x]):
//   firstPoll  after publishing its aggregate, before reading the window: the
//              predecessors started moments earlier and are still busy; reading at once
//              finds NotReady words, and the polls of hundreds of resident tiles compete
//              in L2 with the loads and stores that do the work
//   poll       between polls of a window that is not ready yet
// CUB's Hopper policy for 4-byte sums waits about 1.2 us and 0.65 us. Ours are measured
// by bench/scan_tuning.cu (see scan/variants.h).
struct LookbackDelays {
  unsigned firstPollNs = 0;
  unsigned pollNs = 0;
};

// The waits measured for the scans (scan/variants.h), for a grid of `tiles` tiles of
// `threadsPerTile` threads: the shorter first wait where the whole grid is resident at
// once (one wave, from the device's own SM count). Defined in scan/decoupled_lookback.cu.
LookbackDelays lookbackDelaysFor(std::size_t tiles, int threadsPerTile);

// Called by all 32 lanes of one warp. `tile` is the global tile id, `rowFirstTile` the id
// of the first tile of its row (< tile). Returns, in every lane, the combination of all
// tiles rowFirstTile .. tile-1 (the tile's exclusive prefix).
template <class T, class Op>
__device__ T lookbackExclusivePrefix(TileStatusWord* status, long long tile,
                                     long long rowFirstTile, LookbackDelays delays, Op op) {
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
  T exclusive = Op::template identity<T>();
  if (delays.firstPollNs > 0) __nanosleep(delays.firstPollNs);
  for (long long window = tile - 1;; window -= kWarpSize) {
    // ---- wait until no lane's predecessor is NotReady --------------------------------
    const long long pred = lookback::windowPredecessor(window, lane);
    const TileStatusWord rowStart = packStatus(TileFlag::Prefix, Op::template identity<T>());
    TileStatusWord word = pred >= rowFirstTile ? readStatus(status + pred) : rowStart;
    while (__any_sync(kFullMask, statusFlag(word) == TileFlag::NotReady)) {
      if (delays.pollNs > 0) __nanosleep(delays.pollNs);
      if (statusFlag(word) == TileFlag::NotReady) word = readStatus(status + pred);
    }

    // ---- combine up to the nearest Prefix (lane order = distance back) ---------------
    const unsigned prefixLanes = __ballot_sync(kFullMask, statusFlag(word) == TileFlag::Prefix);
    const int lastLane = lookback::lastCombinedLane(prefixLanes);
    const T value = lane <= lastLane ? statusValue<T>(word) : Op::template identity<T>();
    // The window precedes everything gathered so far, so it goes on the left.
    exclusive = op(warpReduce(value, op), exclusive);
    if (prefixLanes) return exclusive;
  }
}

}  // namespace satdof::detail

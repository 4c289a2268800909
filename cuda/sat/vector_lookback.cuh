// cuda/sat/vector_lookback.cuh — decoupled look-back over short per-lane vectors, the
// carry machinery of the SAT algorithms that pass sums between tiles (rows-columns,
// single-pass).
//
// Why not detail/lookback.cuh: the scan publishes one 32-bit value per tile, packed with
// its flag into one 64-bit word. A SAT tile carries a vector (a sum per column, or per
// row, for each of 4 channels), too wide for one atomic word, so here the values live in
// two arrays beside a separate flag word:
//
//   flags[slot]                          NotReady (0) / Aggregate (1) / Prefix (2)
//   aggregates[slot][lane][kN]  (Agg)    the slot's own sums, written before flag 1
//   prefixes[slot][lane][kN]    (Pre)    everything before it plus itself, before flag 2
//
// A chain is a sequence of slots at positions 0, 1, 2, ... (tiles down a column of tiles,
// or along a row of tiles). Each of the first kLanes lanes of a warp owns kN values of the
// vector. Publication: every lane stores its values, fences (__threadfence), the warp
// syncs, lane 0 stores the flag. A reader that sees the flag then reads the values from
// L2 (__ldcg): the writer's fence made them visible before the flag. The two arrays are
// separate so that a value, once flagged, is never overwritten while it may be read.
//
// The look-back (all 32 lanes): lane j polls position pos-1-j; once none of the 32 is
// NotReady, the values of the positions up to the nearest Prefix are added (nearest
// first); with no Prefix among them, 32 positions further back. Positions < 0 read as a
// Prefix of zero. Forward progress: tiles take their ids from an atomic counter in an
// order where every predecessor of a chain has a smaller id, so it is running or done and
// publishes without waiting on anyone later: the walk cannot deadlock.
#pragma once

#include <cuda/atomic>

#include <cstdint>

namespace satdof::detail {

inline constexpr std::uint32_t kSlotNotReady = 0;
inline constexpr std::uint32_t kSlotAggregate = 1;
inline constexpr std::uint32_t kSlotPrefix = 2;

// Waits in the look-back (ns): before the first poll, then between polls.
inline constexpr unsigned kVectorLookbackFirstPollNs = 200;
inline constexpr unsigned kVectorLookbackPollNs = 100;

__device__ __forceinline__ std::uint32_t loadSlotFlag(std::uint32_t* flag) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> ref(*flag);
  return ref.load(cuda::memory_order_relaxed);
}

__device__ __forceinline__ void storeSlotFlag(std::uint32_t* flag, std::uint32_t value) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> ref(*flag);
  ref.store(value, cuda::memory_order_relaxed);
}

template <int kLanes, int kN, class Agg, class Pre>
struct VectorChain {
  std::uint32_t* flags;
  Agg* aggregates;
  Pre* prefixes;

  static constexpr int kLaneCount = kLanes;

  __device__ Agg* aggOf(long long slot, int lane) const {
    return aggregates + (slot * kLanes + lane) * kN;
  }
  __device__ Pre* preOf(long long slot, int lane) const {
    return prefixes + (slot * kLanes + lane) * kN;
  }

  // Store this lane's values (lanes >= kLanes store nothing) and raise the slot's flag.
  __device__ void publishAggregate(long long slot, const Agg (&values)[kN]) const {
    publish(aggregates, slot, values, kSlotAggregate);
  }
  __device__ void publishPrefix(long long slot, const Pre (&values)[kN]) const {
    publish(prefixes, slot, values, kSlotPrefix);
  }

  template <class T>
  __device__ void publish(T* base, long long slot, const T (&values)[kN],
                          std::uint32_t flag) const {
    const int lane = static_cast<int>(threadIdx.x) & 31;
    if (lane < kLanes) {
      T* p = base + (slot * kLanes + lane) * kN;
#pragma unroll
      for (int j = 0; j < kN; ++j) p[j] = values[j];
      __threadfence();
    }
    __syncwarp();
    if (lane == 0) storeSlotFlag(flags + slot, flag);
  }

  // The combination of positions 0 .. pos-1 of the chain whose position p lives in slot
  // slotOf(p). Called by all 32 lanes; lanes >= kLanes return zeros.
  template <class SlotOf>
  __device__ void exclusivePrefix(int pos, SlotOf slotOf, Pre (&excl)[kN]) const {
    const int lane = static_cast<int>(threadIdx.x) & 31;
#pragma unroll
    for (int j = 0; j < kN; ++j) excl[j] = Pre(0);
    if (pos <= 0) return;
    __nanosleep(kVectorLookbackFirstPollNs);
    for (int window = pos - 1;; window -= 32) {
      // ---- wait until no position of the window is NotReady ---------------------------
      const int pred = window - lane;
      std::uint32_t flag = pred >= 0 ? loadSlotFlag(flags + slotOf(pred)) : kSlotPrefix;
      while (__any_sync(0xffffffffu, flag == kSlotNotReady)) {
        __nanosleep(kVectorLookbackPollNs);
        if (flag == kSlotNotReady) flag = loadSlotFlag(flags + slotOf(pred));
      }
      // ---- add the values up to the nearest Prefix, kGroup positions per round trip ----
      const unsigned prefixLanes = __ballot_sync(0xffffffffu, flag == kSlotPrefix);
      const int last = min(prefixLanes ? __ffs(prefixLanes) - 1 : 31, window);
      for (int j0 = 0; j0 <= last; j0 += kGroup) {
        Pre got[kGroup][kN];
#pragma unroll
        for (int u = 0; u < kGroup; ++u) {
          const int j = j0 + u;
          const std::uint32_t f = __shfl_sync(0xffffffffu, flag, j & 31);
#pragma unroll
          for (int k = 0; k < kN; ++k) got[u][k] = Pre(0);
          if (j <= last && lane < kLanes) {
            const long long slot = slotOf(window - j);
            if (f == kSlotPrefix) loadValues(preOf(slot, lane), got[u]);
            else loadValues(aggOf(slot, lane), got[u]);
          }
        }
#pragma unroll
        for (int u = 0; u < kGroup; ++u)
#pragma unroll
          for (int k = 0; k < kN; ++k) excl[k] += got[u][k];
      }
      if (prefixLanes) return;
    }
  }

 private:
  static constexpr int kGroup = 4;

  // kN values from L2 (never L1: another SM wrote them), widened to Pre.
  template <class T>
  __device__ static void loadValues(const T* p, Pre (&out)[kN]) {
#pragma unroll
    for (int k = 0; k < kN; ++k) out[k] = static_cast<Pre>(__ldcg(p + k));
  }
};

}  // namespace satdof::detail

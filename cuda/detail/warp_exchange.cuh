// detail/warp_exchange.cuh — coalesced tile loads/stores that hand each thread a blocked run.
//
// Scanning wants every thread to own consecutive elements (a blocked arrangement: lane l
// of a warp owns [l * Items, l * Items + Items) of the warp's segment), but global
// memory wants consecutive lanes on consecutive addresses (a striped arrangement).
// These helpers load striped (coalesced; 16-byte vectors when the segment is complete
// and aligned), transpose through a per-warp shared buffer, and the reverse for stores.
// Only the warp's own buffer is touched, so __syncwarp() suffices between the halves.
//
// Bank conflicts: the buffer pads one word after every 32 (slot(e) = e + e / 32).
//   blocked reads/writes   lane l, item i -> bank (l * Items + i + l * Items / 32) % 32,
//                          distinct over the 32 lanes for Items = 4, 8, 16, 32 (2-way for
//                          12, 20, 24: prefer powers of two);
//   striped scalar access  element i * 32 + l -> bank (l + i) % 32, distinct;
//   striped vector halves  element 4 * (k * 32 + l) + j -> bank (4 l + j + 4 k + l / 8) % 32,
//                          distinct (the four lanes' octets land on banks +0..+3).
#pragma once

#include "detail/scan_op.cuh"
#include "detail/thread_tile.cuh"
#include "detail/warp_scan.cuh"

namespace satdof::detail {

template <int Items>
struct WarpExchangeLayout {
  static constexpr int kSegment = kWarpSize * Items;           // elements per warp
  static constexpr int kSlots = kSegment + kSegment / kWarpSize;  // with padding
  __device__ __forceinline__ static int slot(int e) { return e + (e >> 5); }
};

// Loads the warp's segment [0, Items * 32) of `segment` (elements at or past `count` read
// as `identity`) and returns lane l's blocked run in `items`. `vector` (warp-uniform):
// the whole segment is in range and `segment` is 16-byte aligned.
template <int Items, class T>
__device__ __forceinline__ void loadWarpStriped(const T* segment, int count, bool vector,
                                                T* exchange, T (&items)[Items], T identity) {
  static_assert(Items % 4 == 0, "whole 16-byte vectors per lane");
  using Layout = WarpExchangeLayout<Items>;
  using V = typename Vec4<T>::Type;
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
  if (vector) {
    // All loads first (independent, in flight together), then the shared stores.
    V v[Items / 4];
    const V* src = reinterpret_cast<const V*>(segment);
#pragma unroll
    for (int k = 0; k < Items / 4; ++k) v[k] = src[k * kWarpSize + lane];
#pragma unroll
    for (int k = 0; k < Items / 4; ++k) {
      const int e = 4 * (k * kWarpSize + lane);
      exchange[Layout::slot(e + 0)] = v[k].x;
      exchange[Layout::slot(e + 1)] = v[k].y;
      exchange[Layout::slot(e + 2)] = v[k].z;
      exchange[Layout::slot(e + 3)] = v[k].w;
    }
  } else {
    T v[Items];
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const int e = i * kWarpSize + lane;
      v[i] = e < count ? segment[e] : identity;
    }
#pragma unroll
    for (int i = 0; i < Items; ++i) exchange[Layout::slot(i * kWarpSize + lane)] = v[i];
  }
  __syncwarp();
#pragma unroll
  for (int i = 0; i < Items; ++i) items[i] = exchange[Layout::slot(lane * Items + i)];
}

// The reverse: lane l's blocked run goes back to `segment` in striped order; only
// elements below `count` are written. The caller must make sure the warp is done reading
// `exchange` (a block barrier since the load, or __syncwarp()).
template <int Items, class T>
__device__ __forceinline__ void storeWarpStriped(T* segment, int count, bool vector, T* exchange,
                                                 const T (&items)[Items]) {
  using Layout = WarpExchangeLayout<Items>;
  using V = typename Vec4<T>::Type;
  const int lane = static_cast<int>(threadIdx.x) & (kWarpSize - 1);
#pragma unroll
  for (int i = 0; i < Items; ++i) exchange[Layout::slot(lane * Items + i)] = items[i];
  __syncwarp();
  if (vector) {
    V* dst = reinterpret_cast<V*>(segment);
#pragma unroll
    for (int k = 0; k < Items / 4; ++k) {
      const int e = 4 * (k * kWarpSize + lane);
      dst[k * kWarpSize + lane] = V{exchange[Layout::slot(e + 0)], exchange[Layout::slot(e + 1)],
                                    exchange[Layout::slot(e + 2)], exchange[Layout::slot(e + 3)]};
    }
  } else {
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const int e = i * kWarpSize + lane;
      if (e < count) segment[e] = exchange[Layout::slot(e)];
    }
  }
}

}  // namespace satdof::detail

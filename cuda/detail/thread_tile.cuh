// detail/thread_tile.cuh — the per-thread layer: a thread's run of items in registers.
//
// "More work per thread" (GPU Gems 3, 39.2.5): each thread owns Items consecutive
// elements (a blocked arrangement), loads them with 16-byte vector loads, reduces them
// sequentially, takes part in a block scan of the per-thread totals, then rescans its
// registers seeded with its exclusive prefix. Vector access needs 16-byte aligned,
// complete runs; anything else (a row that starts misaligned because of its pitch, the
// ragged last tile) goes through the scalar path, which pads with the identity.
#pragma once

#include <cstdint>

#include "detail/scan_op.cuh"
#include "satdof/scan_tree.h"

namespace satdof::detail {

// The 16-byte vector type holding four T.
template <class T>
struct Vec4;
template <>
struct Vec4<std::uint32_t> {
  using Type = uint4;
};
template <>
struct Vec4<float> {
  using Type = float4;
};

__device__ __forceinline__ bool isAligned16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

// ---------------------------------------------------------------------------------------
// Blocked load / store: thread `owner` holds elements [owner * Items, owner * Items + Items)
// (satdof/scan_tree.h's blockedFirst, which the lesson's traces of these scans use)
// ---------------------------------------------------------------------------------------
// `vector` must be uniform and true only when the whole run is in range and `base` is
// 16-byte aligned (Items is a multiple of 4, so every run then is too).
template <int Items, class T>
__device__ __forceinline__ void loadBlocked(const T* base, int count, int owner, bool vector,
                                            T (&items)[Items], T identity) {
  static_assert(Items % 4 == 0 && sizeof(T) == 4, "runs of whole 16-byte vectors");
  using V = typename Vec4<T>::Type;
  const int first = scan_tree::blockedFirst(owner, Items);
  if (vector) {
    const V* src = reinterpret_cast<const V*>(base + first);
#pragma unroll
    for (int k = 0; k < Items / 4; ++k) {
      const V v = src[k];
      items[4 * k + 0] = v.x;
      items[4 * k + 1] = v.y;
      items[4 * k + 2] = v.z;
      items[4 * k + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < Items; ++i) items[i] = first + i < count ? base[first + i] : identity;
  }
}

template <int Items, class T>
__device__ __forceinline__ void storeBlocked(T* base, int count, int owner, bool vector,
                                             const T (&items)[Items]) {
  using V = typename Vec4<T>::Type;
  const int first = scan_tree::blockedFirst(owner, Items);
  if (vector) {
    V* dst = reinterpret_cast<V*>(base + first);
#pragma unroll
    for (int k = 0; k < Items / 4; ++k)
      dst[k] = V{items[4 * k + 0], items[4 * k + 1], items[4 * k + 2], items[4 * k + 3]};
  } else {
#pragma unroll
    for (int i = 0; i < Items; ++i)
      if (first + i < count) base[first + i] = items[i];
  }
}

// ---------------------------------------------------------------------------------------
// Sequential work in registers
// ---------------------------------------------------------------------------------------
template <int Items, class T, class Op>
__device__ __forceinline__ T threadReduce(const T (&items)[Items], Op op) {
  T sum = items[0];
#pragma unroll
  for (int i = 1; i < Items; ++i) sum = op(sum, items[i]);
  return sum;
}

// Replaces items by their scan seeded with `prefix` (the combination of everything before
// the run): inclusive keeps each item, exclusive stops just before it.
template <int Items, class T, class Op>
__device__ __forceinline__ void threadScanSeeded(T (&items)[Items], T prefix, bool exclusive, Op op) {
  T running = prefix;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const T next = op(running, items[i]);
    items[i] = exclusive ? running : next;
    running = next;
  }
}

}  // namespace satdof::detail

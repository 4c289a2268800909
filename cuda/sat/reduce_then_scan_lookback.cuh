// cuda/sat/reduce_then_scan_lookback.cuh — how a tile of `reduce-then-scan`'s scan kernel
// gets its carries when the scan variant crosses blocks by look-back
// (TileCrossing::LookBack: `decoupled-lookback`, `cub`) instead of by the carries pass.
//
// A tile (bx, by) needs, for its 32 rows, each row's sum left of the tile, and for its 64
// columns, each column's sum above the tile plus the corner (everything above-left). With
// the hierarchy, a second kernel scans the reduce's tile sums for all tiles at once. Here
// the tiles pass them along themselves, as in a decoupled look-back (Merrill & Garland):
// each tile publishes its inclusive sums (its predecessors' and its own) as soon as it has
// them, before it walks its rows, and a tile looks back along its row of tiles and up its
// column of tiles, adding each predecessor's own sums (its aggregate) until it meets one
// that has published. The aggregates are the reduce kernel's output, so they all exist
// before the first tile looks: a tile whose predecessors have not published yet reads
// further back instead of waiting (the gl-compute backend's look-back, which cannot wait,
// works the same way; sat_tile_lookback.glsl).
//
//   rows:     positions bx-1, bx-2, ... of tile row by; lane r sums row y0+r:
//             rowInc (published) or rowTot (aggregate), tile-major, 512 bytes a tile
//   columns:  positions by-1, by-2, ... of tile column bx; lane l sums its two columns:
//             colSum (published, inclusive) or colPre (aggregate); and the corner:
//             cornerInc (published) or, for an aggregate, the band's tile totals left of
//             bx (colPre at their last columns), summed over the warp once at the end
//
// A tile first finds its nearest published predecessor (32 flags a round trip), then sums
// that one's published values and every aggregate after it with independent loads.
// Publication: the lanes store, fence, the warp syncs, lane 0 raises the flag with a
// release store; a reader loads the flags with acquire, then the values from L2.
//
// In two dimensions this costs more than the carries pass it replaces (1.45x at 4K on the
// H200): the tiles of a wave start together, few find a published neighbour, and each
// walks vectors of sums (512 B a predecessor along the row, 1 KiB up the column), which
// doubles the scan kernel's L2 traffic (docs/PERFORMANCE.md, "The SAT from each scan
// variant"). Hence the SAT's default variant is a hierarchy one (defaultSatScanVariant).
#pragma once

#include <cuda/atomic>

#include "sat/reduce_then_scan_passes.cuh"

namespace satdof::detail::rts {

__device__ __forceinline__ std::uint32_t acquireFlag(std::uint32_t* flag) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> ref(*flag);
  return ref.load(cuda::memory_order_acquire);
}

// A Carry4 from L2 (another SM wrote it during this kernel).
template <class Carry>
__device__ __forceinline__ Carry4<Carry> loadCarry4(const Carry4<Carry>* p) {
  if constexpr (sizeof(Carry) == 4) {
    const uint4 v = __ldcg(reinterpret_cast<const uint4*>(p));
    return {{v.x, v.y, v.z, v.w}};
  } else {
    const longlong2 lo = __ldcg(reinterpret_cast<const longlong2*>(p));
    const longlong2 hi = __ldcg(reinterpret_cast<const longlong2*>(p) + 1);
    return {{lo.x, lo.y, hi.x, hi.y}};
  }
}

// After every lane has stored its part of a publication: raise `flag` to kSlotPrefix.
__device__ __forceinline__ void raiseFlag(std::uint32_t* flag, int lane) {
  __threadfence();
  __syncwarp();
  if (lane == 0) {
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> ref(*flag);
    ref.store(kSlotPrefix, cuda::memory_order_release);
  }
}

// The nearest position before `pos` of a chain whose sums are published (-1: none, the
// chain's start counts as a published zero): lane j reads the flag of position
// window - j, 32 positions a round trip. Everything between it and `pos` is summed from
// the aggregates, which all exist: the walk never waits.
template <class FlagOf>
__device__ __forceinline__ int nearestPublished(int pos, int lane, FlagOf flagOf) {
  for (int window = pos - 1; window >= 0; window -= 32) {
    const int pred = window - lane;
    const bool published = pred >= 0 && acquireFlag(flagOf(pred)) == kSlotPrefix;
    const unsigned lanes = __ballot_sync(0xffffffffu, published);
    if (lanes) return window - (__ffs(lanes) - 1);
  }
  return -1;
}

// The loads of a walk are independent of each other: issued kInFlight at a time.
constexpr int kInFlight = 8;

// Lane r: row y0 + r's sum over the tiles left of bx; then publishes it with the tile's own.
template <SatFormat F>
__device__ __forceinline__ uint4 rowsLeftOf(const Arrays<F>& a, Geometry g, int bx, int by,
                                            int lane) {
  const std::size_t rowStart = std::size_t(by) * g.tilesX;  // tile (0, by)
  const auto at = [&](int t) { return (rowStart + t) * kRows + lane; };
  const int pub = nearestPublished(bx, lane, [&](int p) { return a.rowFlag + rowStart + p; });
  uint4 left = pub >= 0 ? __ldcg(a.rowInc + at(pub)) : make_uint4(0, 0, 0, 0);
#pragma unroll kInFlight
  for (int t = pub + 1; t < bx; ++t) {
    const uint4 v = __ldcg(a.rowTot + at(t));
    left.x += v.x, left.y += v.y, left.z += v.z, left.w += v.w;
  }
  const uint4 own = __ldcg(a.rowTot + at(bx));
  a.rowInc[at(bx)] = make_uint4(left.x + own.x, left.y + own.y, left.z + own.z, left.w + own.w);
  raiseFlag(a.rowFlag + rowStart + bx, lane);
  return left;
}

// Lane l: the sums above the tile of its columns x0 + k (SAT(x, y0 - 1) less the corner),
// and in every lane the corner (the sum of everything above and left of the tile); then
// publishes both with the tile's own. `left`: rowsLeftOf's result.
template <SatFormat F>
__device__ __forceinline__ void columnsAbove(const Arrays<F>& a, Geometry g, int width, int bx,
                                             int by, int lane, int x0, const uint4& left,
                                             typename FormatTraits<F>::Carry (&above)[kPx][4],
                                             typename FormatTraits<F>::Carry (&corner)[4]) {
  using Carry = typename FormatTraits<F>::Carry;
  using Agg = typename FormatTraits<F>::Agg;
  const auto add = [](Carry (&sum)[4], const uint4& p) {
    sum[0] += static_cast<Agg>(p.x), sum[1] += static_cast<Agg>(p.y),
    sum[2] += static_cast<Agg>(p.z), sum[3] += static_cast<Agg>(p.w);
  };
  const auto tileOf = [&](int band) { return static_cast<long long>(band) * g.tilesX + bx; };
  const int pub = nearestPublished(by, lane, [&](int p) { return a.colFlag + tileOf(p); });

  // The columns: the published sums through band pub, then the aggregates below it.
  Carry part[4] = {0, 0, 0, 0};  // the lane's share of the corner
  if (pub >= 0 && lane == 0) {
    const Carry4<Carry> v = loadCarry4(a.cornerInc + tileOf(pub));
#pragma unroll
    for (int c = 0; c < 4; ++c) part[c] = v.v[c];
  }
#pragma unroll
  for (int k = 0; k < kPx; ++k) {
    const bool inside = x0 + k < width;
    const Carry4<Carry> v = pub >= 0 && inside ? loadCarry4(a.colSum + std::size_t(pub) * width + x0 + k)
                                               : Carry4<Carry>{{0, 0, 0, 0}};
#pragma unroll
    for (int c = 0; c < 4; ++c) above[k][c] = v.v[c];
    if (!inside) continue;
#pragma unroll kInFlight
    for (int b = pub + 1; b < by; ++b) add(above[k], __ldcg(a.colPre + std::size_t(b) * width + x0 + k));
  }
  // The corner's aggregates: the totals of the tiles left of bx in bands pub+1 .. by-1
  // (colPre at their last columns), spread over the lanes.
  const int bands = by - 1 - pub, count = bands * bx;
#pragma unroll 4
  for (int i = lane; i < count; i += 32) {
    const int b = pub + 1 + i / bx, t = i % bx;
    add(part, __ldcg(a.colPre + std::size_t(b) * width + std::size_t(t) * kCols + kCols - 1));
  }
#pragma unroll
  for (int c = 0; c < 4; ++c) corner[c] = warpSum(part[c]);

  // Publish: the columns' sums through this band, and the corner of the tile below:
  // this one's plus the band's sum left of the tile (its rows' sums left of it).
  const std::size_t row = std::size_t(by) * width;
#pragma unroll
  for (int k = 0; k < kPx; ++k)
    if (x0 + k < width) {
      Carry inc[4] = {above[k][0], above[k][1], above[k][2], above[k][3]};
      add(inc, __ldcg(a.colPre + row + x0 + k));
      a.colSum[row + x0 + k] = Carry4<Carry>{{inc[0], inc[1], inc[2], inc[3]}};
    }
  Carry band[4] = {0, 0, 0, 0};
  add(band, left);  // lane r's row: its sum left of the tile
#pragma unroll
  for (int c = 0; c < 4; ++c) band[c] = warpSum(band[c]);
  if (lane == 0) {
    Carry4<Carry> inc;
#pragma unroll
    for (int c = 0; c < 4; ++c) inc.v[c] = corner[c] + band[c];
    a.cornerInc[tileOf(by)] = inc;
  }
  raiseFlag(a.colFlag + tileOf(by), lane);
}

}  // namespace satdof::detail::rts

// detail/scan_policy/policy.cuh — what a scan policy is: the scan variant a user picks
// (satdof/scan.h), in the form the SAT kernels (cuda/sat/) are templated on.
//
// The SAT algorithms that build tiles in registers (reduce-then-scan, single-pass) give a
// tile row to one warp: lane l holds N adjacent pixels of it. Every scan they make inside
// a tile (a row's prefixes, the column totals along a tile, the row totals down it) and
// over the tile sums (reduce-then-scan's carries) is a warp scan of 32 * N items, and a
// policy supplies it, built from the variant's own building blocks:
//
//   struct Policy {
//     static constexpr std::string_view kScan;   // the ScanVariant it stands for
//     static constexpr TileCrossing kAcrossTiles;    // the variant's multi-block scheme
//     template <int N> static constexpr int kWords;  // shared words a warp needs (>= 1)
//     // All 32 lanes. Replaces lane l's items (items l*N .. l*N+N-1 of the warp's row) by
//     // their inclusive prefixes over the row; returns the row's total in every lane.
//     // `smem`: the warp's kWords<N> words (ignored by the register-only policies).
//     template <int N> __device__ static std::uint32_t inclusiveScan(
//         std::uint32_t (&items)[N], std::uint32_t* smem);
//   };
//
// The sums are wrapping uint32 (the SAT's integer arithmetic, see sat/sat_formats.cuh):
// addition modulo 2^32 is associative and commutative, so every policy gives the same
// bits, and the tables stay byte-identical whichever variant builds them.
//
// One policy per variant, one file each (this folder). A policy also names how its
// variant carries sums from block to block (kAcrossTiles): the chapter's hierarchy (scan
// the blocks, scan their sums, add them back) or a decoupled look-back (each block reads
// its predecessors' published sums). reduce-then-scan crosses its tiles that way
// (sat/reduce_then_scan.cu); single-pass is the look-back by definition (one pass has no
// second pass to carry sums in), so there the policy gives only the scans inside a tile.
#pragma once

#include <cstdint>

#include "detail/scan_op.cuh"
#include "detail/thread_tile.cuh"
#include "detail/warp_scan.cuh"

namespace satdof::detail {

// How sums pass between blocks (a SAT's tiles) in a scan variant.
enum class TileCrossing {
  Hierarchy,  // reduce, scan the block sums in a pass of their own, rescan seeded
  LookBack,   // each block sums its predecessors' published sums (Merrill & Garland)
};

// "More work per thread" (39.2.5) at warp scale: each lane reduces its N items in
// registers, `laneScan` scans the 32 lane totals (inclusive, returning the warp total in
// `total`), and each lane rescans its items from its exclusive prefix.
template <int N, class LaneScan>
__device__ __forceinline__ std::uint32_t registersThenLanes(std::uint32_t (&items)[N],
                                                            LaneScan laneScan) {
  const SumOp op{};
  const std::uint32_t sum = threadReduce(items, op);
  std::uint32_t total;
  const std::uint32_t inclusive = laneScan(sum, total);
  threadScanSeeded(items, inclusive - sum, /*exclusive=*/false, op);
  return total;
}

// The warp's shuffle scan of one value per lane (Kogge-Stone over registers, 5 steps).
__device__ __forceinline__ std::uint32_t shuffleLaneScan(std::uint32_t x, std::uint32_t& total) {
  const std::uint32_t inclusive = warpInclusiveScan(x, SumOp{});
  total = __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  return inclusive;
}

}  // namespace satdof::detail

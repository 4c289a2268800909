// cuda/sat/reduce_then_scan.cu — the SAT algorithm `reduce-then-scan`: the image is read
// twice and the table written once, with no tile ever waiting for another.
//
// Why next to `single-pass`: a look-back makes tiles wait on each other, and a waiting
// tile holds its registers while moving no bytes. Here every kernel is a plain stream over
// independent tiles (the multi-block scan of the chapter, 39.2.4, done in two dimensions).
// A tile is 64 columns x 32 rows and belongs to one warp, which walks down its rows; lane
// l owns pixels 2l and 2l+1 of every row (one 8-byte load).
//
//   1. reduce    per tile: each row's total (rowTot), and the inclusive prefix along the
//                tile of its column totals (colPre; at the tile's last column, the tile's
//                total)                                                read 4 B/pixel
//   2. carries   one kernel, two kinds of blocks: a warp per image row scans rowTot along
//                the tiles (rowTot becomes the row's sum left of each tile); a thread per
//                column sums colPre down the bands of tiles (colSum[by][x]: the sum over
//                the bands above, exclusive)
//   3. scan      per tile: the entries, from the pixels (read again) and the carries:
//                  SAT(x, y) = corner + colSum[by][x] + sum of rows y0..y of (row sum
//                  left of the tile + the row's prefix inside the tile)
//                where corner = sum over tiles left of bx of colSum[by][their last
//                column] (a warp reduction over at most width/64 values); the table rows
//                are staged in shared memory and stored 512 contiguous bytes per warp
//                instruction                             read 4 B/pixel, write 16 B/pixel
//                (uint21x3: 8 B/pixel, stored straight from registers, see kStaged)
//
// How the sums cross tiles follows the scan variant (its policy's kAcrossTiles): the
// variants whose blocks pass sums through a hierarchy run the three steps above; those
// that pass them by look-back (`decoupled-lookback`, `cub`) drop step 2, and each tile of
// step 3 looks back along its row and up its column of tiles for its carries and
// publishes its own before it walks its rows (sat/reduce_then_scan_lookback.cuh). The
// reduce has written every tile's aggregate by then, so a look-back never waits: it reads
// further back instead.
//
// Steps 2 and 3 are launched as programmatic dependents (sm_90): their blocks start while
// the previous kernel drains, step 3 loads pixels (its first batch of rows, or its whole
// tile where that costs no extra wave of blocks: preloadPays), and both wait
// (griddepcontrol.wait) before reading what the previous kernel wrote. With the whole
// tile loaded early, the image's second read overlaps steps 1-2 instead of the walk.
//
// Arithmetic: a row's sums inside a tile are at most 64 x 255 < 2^16, so the row scans
// run on two channels per 32-bit word (R|B and G|A in 16-bit halves). Everything else is
// wrapping uint32 (exact for uint32) or, for the float formats, exact int32 inside a tile
// and int64 between tiles, rounded once at the store. float32-offset builds the SAT of
// the pixels and subtracts m * (x+1) * (y+1) exactly before rounding: the same integer
// as the sum of (pixel - m). Carry arrays are about 1-2 B/pixel, mostly in L2.
//
// Every scan above (the column prefixes along a tile in step 1, the row sums along the
// tiles in step 2, the row-sum prefixes and the in-tile row prefixes in step 3) is a warp
// scan of the chosen variant's policy (detail/scan_policy/); sat/by_scan/ holds one
// instantiation per variant, and this file picks it.
#include "sat/algorithms.h"
#include "sat/reduce_then_scan_passes.cuh"

namespace satdof::detail {

std::size_t reduceThenScanScratchBytes(const SatArgs& args) {
  if (args.width <= 0 || args.height <= 0) return 0;
  return rts::Layout(args.width, args.height, args.format).total;
}

cudaError_t reduceThenScanLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                                 cudaStream_t stream) {
  const SatKernelsOfScan* kernels = satKernelsOf(scanOf(args));
  if (kernels == nullptr) return cudaErrorInvalidValue;
  return kernels->reduceThenScan(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

// cuda/sat/single_pass.cu — the SAT algorithm `single-pass`: one read of the RGBA8 image,
// one write of the table, tiles passing row and column sums to later tiles through a
// two-stage decoupled look-back (in the spirit of Emoto et al. 2017; the carries are
// vectors, see vector_lookback.cuh).
//
// A tile is 32 rows x 128 columns, one block of 4 warps; warp w owns rows 8w .. 8w+7,
// each lane 4 adjacent pixels of each (one 16-byte read per row). Tile ids come from an
// atomic counter in row-major order, so the tiles left of and above a tile always have
// smaller ids (forward progress; see vector_lookback.cuh).
//
//   1. load        8 rows x 4 pixels per lane, kept packed in registers
//   2. row scan    lane sums, warp scan: each pixel's sum along its row inside the tile
//   3. row carry   each warp publishes its 8 row totals and looks back along the row of
//                  tiles: + sum of the row over all tiles to the left = the full-row prefix
//   4. columns     each warp sums its 8 rows of full-row prefixes per column (registers),
//                  the 4 warps meet in shared memory: the tile's column aggregate
//   5. col carry   warp i publishes the aggregate of columns x0 + 4l + i (every lane l)
//                  and looks back up the column of tiles for them, so four look-backs
//                  run side by side: + the SAT of the row above the tile, per column
//   6. store       entry = column carry + the tile's column sum through this row, in the
//                  format (uint32 wrapping, or the exact sum rounded once to float),
//                  through shared memory: each store instruction writes 512 contiguous B
//
// Steps 1, 2, 4 and 6 are LaneTile's (tile_rows.cuh).
//
// Bytes per pixel: 4 read + 16 written, plus the carries: per tile 32 rows x 2 x 16 B
// (row aggregate and prefix) and 128 columns x (16 + 16 or 32) B (column aggregate and
// prefix), about 1.3-1.8 B per pixel, written and read mostly in L2.
//
// The row scans of step 2 are warp scans of the chosen variant's policy
// (detail/scan_policy/); sat/by_scan/ holds one instantiation per variant, and this file
// picks it. The look-backs of steps 3 and 5 are the algorithm's own.
#include "sat/algorithms.h"
#include "sat/single_pass.cuh"

namespace satdof::detail {

std::size_t singlePassScratchBytes(const SatArgs& args) {
  if (args.width <= 0 || args.height <= 0) return 0;
  const sp::Geometry g = sp::Geometry::of(args.width, args.height);
  switch (args.format) {
    case SatFormat::Uint32:
      return sp::ScratchLayout<SatFormat::Uint32>(g).total;
    case SatFormat::Float32:
      return sp::ScratchLayout<SatFormat::Float32>(g).total;
    case SatFormat::Float32Offset:
      return sp::ScratchLayout<SatFormat::Float32Offset>(g).total;
    case SatFormat::Uint21x3:
      return sp::ScratchLayout<SatFormat::Uint21x3>(g).total;
  }
  return 0;
}

cudaError_t singlePassLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                             cudaStream_t stream) {
  const SatKernelsOfScan* kernels = satKernelsOf(scanOf(args));
  if (kernels == nullptr) return cudaErrorInvalidValue;
  return kernels->singlePass(args, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

// satdof/conv_tiles.h — the convolution kernels' blocks and tiles, and the index arithmetic
// that decides where each tap is read from, as host-and-device code: the kernels in
// cuda/conv/ are built from these, and the lesson (lesson/conv_trace.h) runs the same
// functions to show which memory serves each load. Sections: the border rule | the book's
// kernels (basic, constant-memory, tiled-halo, tiled-cached-halo) | the strip engine (the
// tiled ones' r <= 2 path, and separable's) | separable | sat-box | the gl-compute
// backend's GLSL convolutions (shaders/compute/conv_index.glsl, shared with the shaders).
// The reasoning behind each shape is in cuda/conv/variants.h and the kernels' files.
#pragma once

#include "satdof/host_device.h"

namespace satdof::conv_tiles {

// ---- the border rule ------------------------------------------------------------------
// A read at x (or y) outside the image is a ghost cell under Border::Zero (0: nothing is
// loaded) and the nearest edge pixel under Border::Clamp; each axis on its own.
SATDOF_HOST_DEVICE constexpr bool insideAxis(int v, int size) { return unsigned(v) < unsigned(size); }
SATDOF_HOST_DEVICE constexpr int clampToEdge(int v, int size) {
#if defined(__CUDA_ARCH__)
  return min(max(v, 0), size - 1);  // the kernels' form (as conditionals nvcc compiles them differently)
#else
  const int low = v > 0 ? v : 0;
  return low < size - 1 ? low : size - 1;
#endif
}

// ---- the book's kernels ---------------------------------------------------------------

// The book's first two kernels: one thread per output pixel, blocks of 32 x 8.
inline constexpr int kPixelBlockX = 32;
inline constexpr int kPixelBlockY = 8;

// From this radius up the tiled kernels run their tiles; below, the strip engine
// (cuda/conv/strip_engine.cuh) takes radius 1 and 2, as it does for separable.
inline constexpr int kTiledMinRadius = 3;

// tiled-halo: 32 x 8 threads, each computing 8 rows x 2 columns of outputs, a 64 x 64
// output tile; its input tile, halo included, is 64 + 2r on a side, loaded by the block's
// threads row by row (thread (x, y) loads the cells of columns x, x + 32, ... in rows
// y, y + 8, ...), then read from shared memory only.
inline constexpr int kTiledThreadsX = 32;
inline constexpr int kTiledThreadsY = 8;
inline constexpr int kTiledRowsPerThread = 8;
inline constexpr int kTiledColsPerThread = 2;
// Up to this radius the tiled kernels' taps are unrolled, the weights constant-bank
// operands (the kernel's parameters); above it the weights are copied into shared memory.
inline constexpr int kTiledUnrollMaxRadius = 3;
inline constexpr int kTiledOutW = kTiledThreadsX * kTiledColsPerThread;  // 64
inline constexpr int kTiledOutH = kTiledThreadsY * kTiledRowsPerThread;  // 64
SATDOF_HOST_DEVICE constexpr int tiledInputSide(int outputSide, int radius) { return outputSide + 2 * radius; }

// tiled-cached-halo: 32 x 8 threads, each computing 8 rows of one column, a 32 x 64 output
// tile, and shared memory holds that tile alone: each thread loads its 8 cells, then reads
// a tap from shared memory when the tile holds it and from global memory (through the L1
// and L2 caches, where the neighbouring blocks' loads have likely put it) when it does not.
inline constexpr int kCachedRowsPerThread = 8;
inline constexpr int kCachedOutW = 32;
inline constexpr int kCachedOutH = kTiledThreadsY * kCachedRowsPerThread;  // 64
// Whether the cached kernel's tile holds the cell `row`, `column` (relative to the tile's
// top-left output): there it reads shared memory, elsewhere global memory.
// (The kernel spells the same test out, with these constants.)
SATDOF_HOST_DEVICE constexpr bool cachedTileHolds(int row, int column) {
  return row >= 0 && row < kCachedOutH && column >= 0 && column < kCachedOutW;
}

// ---- the strip engine: r = 1, 2 of tiled-halo, tiled-cached-halo and separable ----------
// A warp owns a strip 128 columns wide, 4 pixels a lane, and stripRows(r) output rows
// tall, and walks down it an input row at a time; a block is 4 warps on strips stacked
// vertically. Input row t of the warp (image row y0 - r + t) goes to ring slot
// t % kStripStages of its shared-memory ring of row tiles.
inline constexpr int kStripLanes = 32;
inline constexpr int kStripPixelsPerLane = 4;
inline constexpr int kStripWidth = kStripLanes * kStripPixelsPerLane;  // 128
inline constexpr int kStripWarpsPerBlock = 4;
inline constexpr int kStripStages = 6;
SATDOF_HOST_DEVICE constexpr int stripRows(int r) { return r == 1 ? 26 : 44; }
// The first column of `lane`'s 4 pixels, and the first output row of `warp`'s strip (in
// unsigned arithmetic, as blockIdx is: the kernel's code is the one it was measured with).
SATDOF_HOST_DEVICE constexpr int stripLaneColumn(unsigned blockX, int lane) {
  return int((blockX * kStripLanes + lane) * kStripPixelsPerLane);
}
SATDOF_HOST_DEVICE constexpr int stripFirstRow(unsigned blockY, int warp, int r) {
  return int((blockY * kStripWarpsPerBlock + warp) * stripRows(r));
}
// Output row o of the strip keeps its accumulators in register slot o % n (n = 2r + 1)
// and takes input row o + i through filter row i: input row t = p n + k adds to slot
// stripSlot(k, i, n) through filter row i, and completes the output in stripDoneSlot(k, n).
SATDOF_HOST_DEVICE constexpr int stripSlot(int k, int i, int n) { return (k - i + n) % n; }
SATDOF_HOST_DEVICE constexpr int stripDoneSlot(int k, int n) { return (k + 1) % n; }
// tiled-halo's row tile: kStripRowGroups groups of 4 words, group g holding the columns
// from stripLaneColumn(blockX, 0) - 4 + 4g. Lane l copies group stripOwnGroup(l); lane 0
// also group 0 and the last lane group kStripRowGroups - 1 (the 4 columns past each end).
// Word q of a lane's window (column x - r + q) is word stripTileWord(q, r) counted from
// the start of group l: the lane reads groups l, l + 1 and l + 2.
inline constexpr int kStripRowGroups = kStripLanes + 2;
SATDOF_HOST_DEVICE constexpr int stripOwnGroup(int lane) { return lane + 1; }
SATDOF_HOST_DEVICE constexpr int stripTileWord(int q, int r) { return q + kStripPixelsPerLane - r; }
// tiled-cached-halo's and separable's: the lane's own 4 pixels through the ring, its halo
// words k = 0 .. r - 1 from global memory, a row ahead: columns x - r + k and x + 4 + k.
SATDOF_HOST_DEVICE constexpr int stripHaloLeft(int x, int r, int k) { return x - r + k; }
SATDOF_HOST_DEVICE constexpr int stripHaloRight(int x, int k) { return x + kStripPixelsPerLane + k; }

// ---- separable (r >= 3) -----------------------------------------------------------------
// Warp g of the grid walks down strip g % stripsX (32 columns) of segment g / stripsX
// (segRows output rows, whole chunks, chosen at launch); a block holds 4 warps. Step c:
// lane l computes intermediate row 16c + l % 16 (image row y0 - r + 16c + l % 16),
// columns l / 16 * 16 .. + 15 of the strip, from 4 separableWindowVecs(r) input words
// loaded from image column x0 - separableApron(r) + l / 16 * 16 on (loaded word 4p + e is
// window pixel 4p + e - separableSkip(r), used where that is 0 .. separableWindow(r) - 1),
// into ring slot c % separableRingChunks(r). From step ringChunks - 1 on it also runs the
// column pass of output rows 16b .. 16b + 15 (b = c - ringChunks + 1): 16 + 2r
// intermediate rows of its column, row 16b + rr from slot (b + rr / 16) % ringChunks.
inline constexpr int kSeparableStripWidth = 32;
inline constexpr int kSeparableChunkRows = 16;
inline constexpr int kSeparableWarpsPerBlock = 4;
SATDOF_HOST_DEVICE constexpr int separableWarpColumn(int g, int stripsX) { return g % stripsX * kSeparableStripWidth; }
SATDOF_HOST_DEVICE constexpr int separableWarpRow(int g, int stripsX, int segRows) { return g / stripsX * segRows; }
SATDOF_HOST_DEVICE constexpr int separableTaskRow(int lane) { return lane % kSeparableChunkRows; }
SATDOF_HOST_DEVICE constexpr int separableTaskColumn(int lane) { return lane / kSeparableChunkRows * kSeparableChunkRows; }
SATDOF_HOST_DEVICE constexpr int separableApron(int r) { return (r + 3) / 4 * 4; }
SATDOF_HOST_DEVICE constexpr int separableSkip(int r) { return separableApron(r) - r; }
SATDOF_HOST_DEVICE constexpr int separableWindow(int r) { return kSeparableChunkRows + 2 * r; }
SATDOF_HOST_DEVICE constexpr int separableWindowVecs(int r) { return (separableSkip(r) + separableWindow(r) + 3) / 4; }
SATDOF_HOST_DEVICE constexpr int separableRingChunks(int r) {
  return (kSeparableChunkRows + 2 * r + kSeparableChunkRows - 1) / kSeparableChunkRows;
}
// Steps a warp runs for `outRows` output rows: a chunk each, the ring's first ones too.
SATDOF_HOST_DEVICE constexpr int separableSteps(int outRows, int r) {
  return (outRows + kSeparableChunkRows - 1) / kSeparableChunkRows + separableRingChunks(r) - 1;
}
SATDOF_HOST_DEVICE constexpr int separableRingSlot(int chunk, int r) { return chunk % separableRingChunks(r); }

// ---- sat-box ------------------------------------------------------------------------------
// A block of 128 threads owns a strip 128 columns wide and kSatChunkRows output rows tall
// and walks down it kSatStepRows input rows a step (input row t: image row
// satInputRow(y0, r, t)). A row's span is kSatSpan words from column x0 - r, 5 a lane
// (lane l: positions 5l .. 5l + 4); positions from 128 + 2r on are not loaded. P is the
// prefix sum along the span (P(-1) = 0), and the row window of column c (image column
// x0 + c) is h(c) = P(satRightCorner(c, r)) - P(satLeftCorner(c)). The column pass keeps
// a running sum per column: adding input row t's h (the window's bottom corners)
// completes the output of image row satOutputRow(y0, r, t), and subtracts row
// satLeavingRow(t, r)'s (the top corners; none while that is below 0).
inline constexpr int kSatStripWidth = 128;
inline constexpr int kSatChunkRows = 128;
inline constexpr int kSatStepRows = 16;
inline constexpr int kSatLaneWords = 5;
inline constexpr int kSatSpan = 32 * kSatLaneWords;  // 160
SATDOF_HOST_DEVICE constexpr int satSpanColumn(int x0, int r, int pos) { return x0 - r + pos; }
SATDOF_HOST_DEVICE constexpr bool satSpanLoads(int pos, int r) { return pos < kSatStripWidth + 2 * r; }
SATDOF_HOST_DEVICE constexpr int satRightCorner(int c, int r) { return c + 2 * r; }
SATDOF_HOST_DEVICE constexpr int satLeftCorner(int c) { return c - 1; }
SATDOF_HOST_DEVICE constexpr int satInputRow(int y0, int r, int t) { return y0 - r + t; }
SATDOF_HOST_DEVICE constexpr int satOutputRow(int y0, int r, int t) { return y0 - 2 * r + t; }
SATDOF_HOST_DEVICE constexpr int satLeavingRow(int t, int r) { return t - (2 * r + 1); }
// The row-window ring: the step's rows and the 2r + 1 before them, whole steps.
SATDOF_HOST_DEVICE constexpr int satRingRows(int r) {
  return (2 * r + 1 + 2 * kSatStepRows - 1) / kSatStepRows * kSatStepRows;
}
// The mean of n^2 pixels, (2 sum + n^2) / (2 n^2), as the multiply-high of
// (sum + satHalf(r)) by satMagic(r); the column sums start at satHalf(r).
SATDOF_HOST_DEVICE constexpr unsigned satArea(int r) { return unsigned((2 * r + 1) * (2 * r + 1)); }
SATDOF_HOST_DEVICE constexpr unsigned satHalf(int r) { return (satArea(r) - 1) / 2; }
SATDOF_HOST_DEVICE constexpr unsigned satMagic(int r) {
  return unsigned(((1ull << 32) + satArea(r) - 1) / satArea(r));
}

// ---- the gl-compute backend's GLSL convolutions ------------------------------------------
// Their index arithmetic is shaders/compute/conv_index.glsl (the common subset of C++ and
// GLSL; its header says how), which the shaders conv_*.comp include and which is included
// here inside namespace glsl: their work group, border rule, tiles in shared memory and
// sat-box's corners and ranges, for the lesson's traces of them (lesson/conv_trace_glsl.cpp).
namespace glsl {
#define SATDOF_CONV_FN SATDOF_HOST_DEVICE constexpr
#define SATDOF_CONV_CONST inline constexpr
#include "../../../shaders/compute/conv_index.glsl"
#undef SATDOF_CONV_FN
#undef SATDOF_CONV_CONST

static_assert(sourceIndex(-1, 48, kBorderZero) == -1 && sourceIndex(-1, 48, kBorderClamp) == 0);
static_assert(sourceIndex(50, 48, kBorderClamp) == 47 && sourceIndex(47, 48, kBorderZero) == 47);
static_assert(inputTileSide(3) == 22 && cellRow(45, 22) == 2 && cellColumn(45, 22) == 1);
static_assert(tileWord(1, 2, 3, 4, 22) == 5 * 22 + 5 && haloFirst(1, 3) == 13);
static_assert(satIndex(-1, 2, 48) == 96 && satBeforeTable(-1, 2) && !satBeforeTable(0, 0));
static_assert(satCornerX(1, 5, 9) == 4 && satCornerY(1, 5, 9) == 9 && satCornerY(2, 5, 9) == 4 && !satCornerAdds(2));
static_assert(satRangeLow(0, 1, 3, 48) == 0 && satRangeHigh(0, 46, 3, 48) == 47 && satRangeHigh(2, 46, 3, 48) == 47);
static_assert(satRangeWeight(1, 1, 3, 48, kBorderClamp) == 2 && satRangeWeight(1, 1, 3, 48, kBorderZero) == 0);
static_assert(satRangeWeight(2, 46, 3, 48, kBorderClamp) == 2 && satRangeWeight(2, 40, 3, 48, kBorderClamp) == 0);
}  // namespace glsl

}  // namespace satdof::conv_tiles

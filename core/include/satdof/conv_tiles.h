// satdof/conv_tiles.h — the convolution kernels' blocks and tiles, and the index arithmetic
// that decides where each tap is read from, as host-and-device code: the kernels in
// cuda/conv/ (basic, constant-memory, tiled-halo, tiled-cached-halo) are built from these,
// and the lesson (lesson/conv_trace.h) runs the same functions to show which memory serves
// each load. The reasoning behind each shape is in cuda/conv/variants.h.
#pragma once

#include "satdof/host_device.h"

namespace satdof::conv_tiles {

// The book's first two kernels: one thread per output pixel, blocks of 32 x 8.
inline constexpr int kPixelBlockX = 32;
inline constexpr int kPixelBlockY = 8;

// From this radius up the tiled kernels run their tiles; below, a streaming path
// (cuda/conv/strip_engine.cuh) takes radius 1 and 2.
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

}  // namespace satdof::conv_tiles

// cuda/sat/tile_rows.cuh — the 32 x 128 pixel tile that `single-pass` computes in, and
// the steps it takes inside it.
//
// A tile is one block of 4 warps; warp w owns rows 8w .. 8w+7 of the tile, each lane 4
// adjacent pixels of each row, read as one 16-byte vector and kept packed (a uint4 of 4
// RGBA8 pixels). All sums inside a tile are wrapping uint32 (for the float formats they
// are exact int32 values, see kMaxFloatWidth).
//
//   LaneTile::load        the lane's 8 x 4 pixels, zeros outside the image
//   LaneTile::rowScan     rowBase[r]: the sum of row r left of the lane inside the tile,
//                         and the tile's row totals (lane r holds row r's): warp scans
//                         of the chosen variant's policy
//   LaneTile::columnSums  adds each pixel's full-row prefix (rowBase + pixels so far) of
//                         the warp's 8 rows to per-column sums
//   LaneTile::store       entry = column carry + running column sum, in the format,
//                         staged in shared memory so the stores are coalesced
#pragma once

#include <cstdint>

#include "sat/sat_formats.cuh"

namespace satdof::detail {

inline constexpr int kTileWarps = 4;
inline constexpr int kTileThreads = kTileWarps * 32;
inline constexpr int kRowsPerWarp = 8;
inline constexpr int kTileRows = kTileWarps * kRowsPerWarp;  // 32
inline constexpr int kPxPerLane = 4;
inline constexpr int kTileCols = 32 * kPxPerLane;  // 128
static_assert(kTileRows * 255ll * kMaxFloatWidth < (1ll << 31), "tile sums must fit int32");

struct TileGeometry {
  int tilesX = 0, tilesY = 0;
  long long tiles() const { return static_cast<long long>(tilesX) * tilesY; }
  static TileGeometry of(int width, int height) {
    return {(width + kTileCols - 1) / kTileCols, (height + kTileRows - 1) / kTileRows};
  }
};

struct LaneTile {
  int lane, warp, x0, y0, width, height;
  std::uint32_t m[4] = {0, 0, 0, 0};  // float32-offset: subtracted from every pixel inside
  bool insideX[kPxPerLane];
  uint4 raw[kRowsPerWarp];

  __device__ LaneTile(int bx, int by, int w, int h) : width(w), height(h) {
    lane = static_cast<int>(threadIdx.x) % 32;
    warp = static_cast<int>(threadIdx.x) / 32;
    x0 = bx * kTileCols + lane * kPxPerLane;
    y0 = by * kTileRows + warp * kRowsPerWarp;
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i) insideX[i] = x0 + i < width;
  }

  template <class Source>
  __device__ void load(const Source& src) {
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) raw[r] = src.read4(x0, y0 + r, width, height);
  }

  // Channel c of pixel i of row r, minus the offset where the pixel exists.
  __device__ std::uint32_t value(int r, int i, int c) const {
    const uint4& p = raw[r];
    const std::uint32_t px = i == 0 ? p.x : i == 1 ? p.y : i == 2 ? p.z : p.w;
    const bool inside = insideX[i] && y0 + r < height;
    return ((px >> (8 * c)) & 0xffu) - (inside ? m[c] : 0u);
  }

  // One warp scan of the policy (detail/scan_policy/) per row and channel, over the
  // row's 128 pixels; `smem`: the warp's Policy::kWords<kPxPerLane> words.
  template <class Policy>
  __device__ void rowScan(std::uint32_t (&rowBase)[kRowsPerWarp][4],
                          std::uint32_t (&myRowTotal)[4], std::uint32_t* smem) const {
#pragma unroll
    for (int c = 0; c < 4; ++c) myRowTotal[c] = 0;
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        std::uint32_t items[kPxPerLane];
#pragma unroll
        for (int i = 0; i < kPxPerLane; ++i) items[i] = value(r, i, c);
        const std::uint32_t total = Policy::inclusiveScan(items, smem);
        rowBase[r][c] = items[0] - value(r, 0, c);
        if (lane == r) myRowTotal[c] = total;
      }
    }
  }

  // Adds the row carries held by lanes 0..7 (lane r: row r) to rowBase.
  __device__ void addRowCarries(std::uint32_t (&rowBase)[kRowsPerWarp][4],
                                const std::uint32_t (&carry)[4]) const {
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
      for (int c = 0; c < 4; ++c) rowBase[r][c] += __shfl_sync(0xffffffffu, carry[c], r);
  }

  // Adds row r's full-row prefixes (rowBase[r] + the lane's pixels so far) to col.
  __device__ void addRowPrefixes(int r, const std::uint32_t (&base)[4],
                                 std::uint32_t (&col)[kPxPerLane][4]) const {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      std::uint32_t run = base[c];
#pragma unroll
      for (int i = 0; i < kPxPerLane; ++i) {
        run += value(r, i, c);
        col[i][c] += run;
      }
    }
  }

  __device__ void columnSums(const std::uint32_t (&rowBase)[kRowsPerWarp][4],
                             std::uint32_t (&col)[kPxPerLane][4]) const {
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) addRowPrefixes(r, rowBase[r], col);
  }

  // above: the column sums of the tile's rows above this warp's; carry: SAT(x, tile top - 1).
  // Each row of entries goes through the warp's `stage` (kTileCols entries of shared
  // memory) so that every store instruction writes 512 contiguous bytes: lane l holds
  // entries 4l .. 4l+3, and stores entries l, 32+l, 64+l, 96+l.
  // An 8-byte Entry (uint21x3) goes through the same stage, as the first half of it: each
  // store instruction then writes 256 contiguous bytes.
  template <class Traits>
  __device__ void store(typename Traits::Entry* table, const std::uint32_t (&rowBase)[kRowsPerWarp][4],
                        const typename Traits::Carry (&carry)[kPxPerLane][4],
                        std::uint32_t (&above)[kPxPerLane][4], uint4* stage16) const {
    using Entry = typename Traits::Entry;
    Entry* stage = reinterpret_cast<Entry*>(stage16);
    const int tileX = x0 - lane * kPxPerLane;
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
      const int y = y0 + r;
      addRowPrefixes(r, rowBase[r], above);
#pragma unroll
      for (int i = 0; i < kPxPerLane; ++i)
        stage[stagedIndex(kPxPerLane * lane + i)] = Traits::entry(carry[i], above[i]);
      __syncwarp();
      if (y < height) {
        Entry* row = table + static_cast<std::size_t>(y) * width + tileX;
#pragma unroll
        for (int j = 0; j < kPxPerLane; ++j) {
          const int p = 32 * j + lane;
          if (tileX + p < width) __stcs(row + p, stage[stagedIndex(p)]);
        }
      }
      __syncwarp();
    }
  }

  // Where entry p of a staged row lives: the four entries of a lane are rotated by
  // (lane / 2) % 4, so that the 8 lanes of each 16-byte store phase cover all 32 banks,
  // and the read-back (8 consecutive entries per phase) is conflict-free as well.
  __device__ static int stagedIndex(int p) {
    const int quad = p >> 2;
    return 4 * quad + (((p & 3) + (quad >> 1)) & 3);
  }
};

// The warps of a tile meet in shared memory to add up their column sums: share(), a
// __syncthreads(), then above() (the warps above this one) or total() (all four).
struct TileColumns {
  uint4 sums[kTileWarps][kPxPerLane][32];  // [warp][pixel][lane]: conflict-free

  __device__ void share(const LaneTile& t, const std::uint32_t (&col)[kPxPerLane][4]) {
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i)
      sums[t.warp][i][t.lane] = make_uint4(col[i][0], col[i][1], col[i][2], col[i][3]);
  }
  __device__ void add(int w, int lane, std::uint32_t (&acc)[kPxPerLane][4]) const {
#pragma unroll
    for (int i = 0; i < kPxPerLane; ++i) {
      const uint4 v = sums[w][i][lane];
      acc[i][0] += v.x, acc[i][1] += v.y, acc[i][2] += v.z, acc[i][3] += v.w;
    }
  }
  __device__ void above(const LaneTile& t, std::uint32_t (&acc)[kPxPerLane][4]) const {
#pragma unroll
    for (int w = 0; w < kTileWarps - 1; ++w)
      if (w < t.warp) add(w, t.lane, acc);
  }
  __device__ void total(int lane, std::uint32_t (&acc)[kPxPerLane][4]) const {
#pragma unroll
    for (int w = 0; w < kTileWarps; ++w) add(w, lane, acc);
  }
};

}  // namespace satdof::detail

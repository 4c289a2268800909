// detail/hierarchy.cuh — the multi-block scan of GPU Gems 3, 39.2.4, for any tile scan.
//
// A row longer than one tile is scanned in three steps:
//   1. scanTilesKernel: every block scans one tile and writes the tile's total to a
//      block-sums array (rows x tilesPerRow, in caller scratch);
//   2. the block sums are scanned exclusively, in place, by the same hierarchy (so a
//      sums array longer than one tile recurses: level after level until one tile fits);
//   3. uniformAddKernel adds each tile's scanned sum to every element of the tile.
// Batches: grid.x indexes tiles within a row, grid.y rows; rows beyond gridDim.y's limit
// are covered by a loop over row strides of gridDim.y.
//
// A Tile (one per variant, in cuda/scan/) provides:
//   using Value = T; using Op = ...;
//   static constexpr int kThreads, kTileItems;
//   struct TempStorage;                      // its __shared__ state
//   static __device__ T scanTile(const T* in, T* out, int count, bool exclusive,
//                                TempStorage& tmp);
// scanTile scans in[0, count) into out[0, count), 1 <= count <= kTileItems, reads all of
// its input before it writes any output (in == out is allowed), and returns the
// combination of the count inputs in thread 0.
//
// Scan-then-add moves every element four times (read, write; read, write again in the
// uniform add): twice a copy's bytes, so it can never pass 50 % of the copy bandwidth.
// Reduce-then-scan (the three-pass form Merrill & Garland compare against) reorders the
// same three steps so that the add happens in registers:
//   1. reduceTilesKernel: every block only reduces its tile (read n, write the sums);
//   2. the sums are scanned exclusively, in place, by the same strategy;
//   3. scanTilesSeededKernel: every block scans its tile again, seeded with its scanned
//      sum (read n, write n): the uniform add costs nothing.
// 3n words instead of 4n: up to 2/3 of the copy bandwidth. A Tile used this way also
// provides
//   static __device__ T reduceTile(const T* in, int count, TempStorage& tmp);  // thread 0
//   static __device__ void scanTileSeeded(const T* in, T* out, int count, bool exclusive,
//                                         T seed, TempStorage& tmp);
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>

#include "detail/scan_args.cuh"
#include "detail/scan_op.cuh"
#include "satdof/cuda_check.h"

namespace satdof::detail {

// Threads of the uniform-add kernel: a pure streaming kernel, any multiple of 32 works.
inline constexpr int kUniformAddThreads = 256;

// ---------------------------------------------------------------------------------------
// Kernel 1: scan every tile of every row, record tile totals
// ---------------------------------------------------------------------------------------
template <class Tile>
__global__ void __launch_bounds__(Tile::kThreads)
    scanTilesKernel(const typename Tile::Value* in, typename Tile::Value* out,
                    std::size_t length, std::size_t pitch, std::size_t rows,
                    typename Tile::Value* tileSums, std::size_t tilesPerRow, bool exclusive) {
  __shared__ typename Tile::TempStorage tmp;
  const std::size_t tile = blockIdx.x;
  const std::size_t start = tile * Tile::kTileItems;
  const int count = static_cast<int>(std::min<std::size_t>(length - start, Tile::kTileItems));
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const std::size_t offset = row * pitch + start;
    const auto total = Tile::scanTile(in + offset, out + offset, count, exclusive, tmp);
    if (tileSums != nullptr && threadIdx.x == 0) tileSums[row * tilesPerRow + tile] = total;
    __syncthreads();  // the next row reuses tmp
  }
}

// ---------------------------------------------------------------------------------------
// Kernel 3: add the scanned tile sums back (tile 0's exclusive prefix is the identity,
// so blockIdx.x covers tiles 1..tilesPerRow-1)
// ---------------------------------------------------------------------------------------
template <class T, class Op>
__global__ void __launch_bounds__(kUniformAddThreads)
    uniformAddKernel(T* out, std::size_t length, std::size_t pitch, std::size_t rows,
                     const T* scannedSums, std::size_t tilesPerRow, int tileItems) {
  const std::size_t tile = std::size_t{blockIdx.x} + 1;
  const std::size_t start = tile * static_cast<std::size_t>(tileItems);
  const int count = static_cast<int>(std::min<std::size_t>(length - start, tileItems));
  const Op op{};
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const T increment = scannedSums[row * tilesPerRow + tile];
    T* dst = out + row * pitch + start;
    for (int i = static_cast<int>(threadIdx.x); i < count; i += kUniformAddThreads)
      dst[i] = op(increment, dst[i]);
  }
}

// ---------------------------------------------------------------------------------------
// Reduce-then-scan kernels: reduce every tile; scan every tile from its scanned sum
// ---------------------------------------------------------------------------------------
template <class Tile>
__global__ void __launch_bounds__(Tile::kThreads)
    reduceTilesKernel(const typename Tile::Value* in, std::size_t length, std::size_t pitch,
                      std::size_t rows, typename Tile::Value* tileSums, std::size_t tilesPerRow) {
  __shared__ typename Tile::TempStorage tmp;
  const std::size_t tile = blockIdx.x;
  const std::size_t start = tile * Tile::kTileItems;
  const int count = static_cast<int>(std::min<std::size_t>(length - start, Tile::kTileItems));
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const auto total = Tile::reduceTile(in + row * pitch + start, count, tmp);
    if (threadIdx.x == 0) tileSums[row * tilesPerRow + tile] = total;
    __syncthreads();  // the next row reuses tmp
  }
}

// scannedSums == nullptr: one tile per row, every seed is the identity.
template <class Tile>
__global__ void __launch_bounds__(Tile::kThreads)
    scanTilesSeededKernel(const typename Tile::Value* in, typename Tile::Value* out,
                          std::size_t length, std::size_t pitch, std::size_t rows,
                          const typename Tile::Value* scannedSums, std::size_t tilesPerRow,
                          bool exclusive) {
  using T = typename Tile::Value;
  __shared__ typename Tile::TempStorage tmp;
  const std::size_t tile = blockIdx.x;
  const std::size_t start = tile * Tile::kTileItems;
  const int count = static_cast<int>(std::min<std::size_t>(length - start, Tile::kTileItems));
  for (std::size_t row = blockIdx.y; row < rows; row += gridDim.y) {
    const T seed = scannedSums != nullptr ? scannedSums[row * tilesPerRow + tile]
                                          : Tile::Op::template identity<T>();
    const std::size_t offset = row * pitch + start;
    Tile::scanTileSeeded(in + offset, out + offset, count, exclusive, seed, tmp);
    __syncthreads();  // the next row reuses tmp
  }
}

// ---------------------------------------------------------------------------------------
// Host side: scratch sizing and the recursive drivers
// ---------------------------------------------------------------------------------------

// Scratch for every level's block sums: level k holds rows x ceil(length / tile^k).
inline std::size_t hierarchyScratchBytes(std::size_t length, std::size_t rows,
                                         std::size_t elementBytes, std::size_t tileItems) {
  if (length == 0 || rows == 0) return 0;
  std::size_t bytes = 0;
  while (length > tileItems) {
    length = ceilDiv(length, tileItems);
    bytes += alignUp(rows * length * elementBytes);
  }
  return bytes;
}

// One level of either order: its grid (tiles x rows, rows beyond kMaxGridY looped over)
// and, with more than one tile per row, the tile sums carved from the front of scratch.
template <class T>
struct HierarchyLevel {
  std::size_t tiles = 0;
  dim3 grid;
  T* sums = nullptr;  // rows x tiles, nullptr for single-tile rows
  std::size_t sumsBytes = 0;
};

template <class T>
cudaError_t planLevel(std::size_t length, std::size_t rows, int tileItems, std::byte* scratch,
                      std::size_t scratchBytes, HierarchyLevel<T>& level) {
  level.tiles = ceilDiv(length, static_cast<std::size_t>(tileItems));
  if (level.tiles > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  level.grid = dim3(static_cast<unsigned>(level.tiles),
                    static_cast<unsigned>(std::min<std::size_t>(rows, kMaxGridY)));
  if (level.tiles > 1) {
    level.sumsBytes = alignUp(rows * level.tiles * sizeof(T));
    if (scratch == nullptr || level.sumsBytes > scratchBytes) return cudaErrorInvalidValue;
    level.sums = reinterpret_cast<T*>(scratch);
  }
  return cudaSuccess;
}

enum class HierarchyOrder { ScanThenAdd, ReduceThenScan };

// Scans `rows` rows of `length` elements (row r at r * pitch) from in to out, in either
// order. Level sums are carved from the front of `scratch`; deeper levels (the sums,
// scanned exclusively in place as rows of `tiles` elements) take what follows.
template <class Tile, HierarchyOrder Order>
cudaError_t scanHierarchy(const typename Tile::Value* in, typename Tile::Value* out,
                          std::size_t length, std::size_t rows, std::size_t pitch,
                          bool exclusive, std::byte* scratch, std::size_t scratchBytes,
                          cudaStream_t stream) {
  using T = typename Tile::Value;
  HierarchyLevel<T> l;
  SATDOF_TRY(planLevel(length, rows, Tile::kTileItems, scratch, scratchBytes, l));
  const auto scanSums = [&] {
    return scanHierarchy<Tile, Order>(l.sums, l.sums, l.tiles, rows, l.tiles, /*exclusive=*/true,
                                      scratch + l.sumsBytes, scratchBytes - l.sumsBytes, stream);
  };

  if constexpr (Order == HierarchyOrder::ScanThenAdd) {
    scanTilesKernel<Tile><<<l.grid, Tile::kThreads, 0, stream>>>(in, out, length, pitch, rows,
                                                                  l.sums, l.tiles, exclusive);
    SATDOF_TRY_LAUNCH();
    if (l.tiles == 1) return cudaSuccess;
    SATDOF_TRY(scanSums());
    const dim3 addGrid(static_cast<unsigned>(l.tiles - 1), l.grid.y);
    uniformAddKernel<T, typename Tile::Op><<<addGrid, kUniformAddThreads, 0, stream>>>(
        out, length, pitch, rows, l.sums, l.tiles, Tile::kTileItems);
    SATDOF_TRY_LAUNCH();
  } else {
    if (l.tiles > 1) {
      reduceTilesKernel<Tile><<<l.grid, Tile::kThreads, 0, stream>>>(in, length, pitch, rows,
                                                                     l.sums, l.tiles);
      SATDOF_TRY_LAUNCH();
      SATDOF_TRY(scanSums());
    }
    scanTilesSeededKernel<Tile><<<l.grid, Tile::kThreads, 0, stream>>>(
        in, out, length, pitch, rows, l.sums, l.tiles, exclusive);
    SATDOF_TRY_LAUNCH();
  }
  return cudaSuccess;
}

// ScanVariant::scratchBytes for a hierarchy variant whose tile holds TileItems elements.
template <int TileItems>
std::size_t hierarchyVariantScratchBytes(const ScanArgs& args) {
  return hierarchyScratchBytes(args.length, args.rows, sizeOf(args.type), TileItems);
}

// ScanVariant::launch for a hierarchy variant: TileOf<T> is the variant's tile for T.
template <template <class> class TileOf, HierarchyOrder Order = HierarchyOrder::ScanThenAdd>
cudaError_t launchHierarchy(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  static_assert(TileOf<std::uint32_t>::kTileItems == TileOf<float>::kTileItems);
  const std::size_t required = hierarchyVariantScratchBytes<TileOf<float>::kTileItems>(args);
  SATDOF_TRY(validateScanArgs(args, scratch, scratchBytes, required));
  if (isEmptyScan(args)) return cudaSuccess;
  return dispatchScanType(args.type, [&](auto tag) {
    using T = decltype(tag);
    const auto* in = static_cast<const T*>(args.in);
    auto* out = static_cast<T*>(args.out);
    const bool exclusive = args.op == ScanOp::Exclusive;
    auto* bytes = static_cast<std::byte*>(scratch);
    return scanHierarchy<TileOf<T>, Order>(in, out, args.length, args.rows, args.rowPitch(),
                                           exclusive, bytes, scratchBytes, stream);
  });
}

}  // namespace satdof::detail

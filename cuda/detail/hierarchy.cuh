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
// Host side: scratch sizing and the recursive driver
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

// Scans `rows` rows of `length` elements (row r at r * pitch) from in to out. Level
// sums are carved from the front of `scratch`; deeper levels take what follows.
template <class Tile>
cudaError_t scanHierarchy(const typename Tile::Value* in, typename Tile::Value* out,
                          std::size_t length, std::size_t rows, std::size_t pitch,
                          bool exclusive, std::byte* scratch, std::size_t scratchBytes,
                          cudaStream_t stream) {
  using T = typename Tile::Value;
  const std::size_t tiles = ceilDiv(length, Tile::kTileItems);
  if (tiles > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  const dim3 grid(static_cast<unsigned>(tiles),
                  static_cast<unsigned>(std::min<std::size_t>(rows, kMaxGridY)));

  T* sums = nullptr;
  std::size_t sumsBytes = 0;
  if (tiles > 1) {
    sumsBytes = alignUp(rows * tiles * sizeof(T));
    if (scratch == nullptr || sumsBytes > scratchBytes) return cudaErrorInvalidValue;
    sums = reinterpret_cast<T*>(scratch);
  }

  scanTilesKernel<Tile><<<grid, Tile::kThreads, 0, stream>>>(in, out, length, pitch, rows, sums,
                                                              tiles, exclusive);
  SATDOF_TRY_LAUNCH();
  if (tiles == 1) return cudaSuccess;

  // The sums become rows of `tiles` elements, scanned exclusively in place.
  SATDOF_TRY(scanHierarchy<Tile>(sums, sums, tiles, rows, tiles, /*exclusive=*/true,
                                 scratch + sumsBytes, scratchBytes - sumsBytes, stream));

  const dim3 addGrid(static_cast<unsigned>(tiles - 1), grid.y);
  uniformAddKernel<T, typename Tile::Op><<<addGrid, kUniformAddThreads, 0, stream>>>(
      out, length, pitch, rows, sums, tiles, Tile::kTileItems);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

// ScanVariant::scratchBytes for a hierarchy variant whose tile holds TileItems elements.
template <int TileItems>
std::size_t hierarchyVariantScratchBytes(const ScanArgs& args) {
  return hierarchyScratchBytes(args.length, args.rows, sizeOf(args.type), TileItems);
}

// ScanVariant::launch for a hierarchy variant: TileOf<T> is the variant's tile for T.
template <template <class> class TileOf>
cudaError_t launchHierarchy(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  static_assert(TileOf<std::uint32_t>::kTileItems == TileOf<float>::kTileItems);
  const std::size_t required = hierarchyVariantScratchBytes<TileOf<float>::kTileItems>(args);
  SATDOF_TRY(validateScanArgs(args, scratch, scratchBytes, required));
  if (isEmptyScan(args)) return cudaSuccess;
  return dispatchScanType(args.type, [&](auto tag) {
    using T = decltype(tag);
    return scanHierarchy<TileOf<T>>(static_cast<const T*>(args.in), static_cast<T*>(args.out),
                                    args.length, args.rows, args.rowPitch(),
                                    args.op == ScanOp::Exclusive,
                                    static_cast<std::byte*>(scratch), scratchBytes, stream);
  });
}

}  // namespace satdof::detail

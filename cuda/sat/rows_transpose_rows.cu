// cuda/sat/rows_transpose_rows.cu — the SAT algorithm `rows-transpose-rows`: the chapter's
// method (GPU Gems 3, 39.3.2), kept faithfully because it is the lesson.
//
//   source RGBA8 --unpack--> 4 planes [c][y][x] --scan rows--> --transpose--> [c][x][y]
//     --scan rows--> --pack (transpose + interleave)--> uint4 SAT [y][x] (uint21x3: uint2)
//
// The two scan passes go through the chosen variant's batched entry point (4*height rows
// of width, then 4*width rows of height), so every registered scan variant can drive it.
// Column scans are done as row scans of the transpose because row scans read memory
// contiguously; the transposes go through padded 32x32 shared-memory tiles so that both
// their reads and their writes are coalesced.
#include <cstdint>

#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"

namespace satdof::detail {
namespace {

constexpr int kTile = 32;      // transpose tile edge
constexpr int kTileRows = 8;   // rows of the tile each thread block row walks

// ---------------------------------------------------------------------------------------
// Phase 1: unpack RGBA8 into four uint32 planes (plane c at planes + c * width * height).
// ---------------------------------------------------------------------------------------
template <class Source>
__global__ void unpackKernel(Source src, int width, int height, std::uint32_t* planes) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const uchar4 p = src.read(x, y);
  const std::size_t plane = std::size_t(width) * height;
  const std::size_t i = std::size_t(y) * width + x;
  planes[i] = p.x;
  planes[plane + i] = p.y;
  planes[2 * plane + i] = p.z;
  planes[3 * plane + i] = p.w;
}

// ---------------------------------------------------------------------------------------
// Phase 3: transpose each plane, [c][rows][cols] -> [c][cols][rows].
// ---------------------------------------------------------------------------------------
__global__ void transposeKernel(const std::uint32_t* in, std::uint32_t* out, int rows, int cols) {
  __shared__ std::uint32_t tile[kTile][kTile + 1];  // +1: column reads hit 32 banks
  const std::size_t plane = std::size_t(rows) * cols;
  in += blockIdx.z * plane;
  out += blockIdx.z * plane;
  const int c0 = blockIdx.x * kTile, r0 = blockIdx.y * kTile;
  for (int dy = threadIdx.y; dy < kTile; dy += kTileRows) {
    const int r = r0 + dy, c = c0 + threadIdx.x;
    if (r < rows && c < cols) tile[dy][threadIdx.x] = in[std::size_t(r) * cols + c];
  }
  __syncthreads();
  for (int dx = threadIdx.y; dx < kTile; dx += kTileRows) {
    const int c = c0 + dx, r = r0 + threadIdx.x;
    if (r < rows && c < cols) out[std::size_t(c) * rows + r] = tile[threadIdx.x][dx];
  }
}

// ---------------------------------------------------------------------------------------
// Phase 5: planes [c][x][y] -> interleaved entries [y][x] (transpose and interleave):
// uint4 for uint32, the packed uint2 for uint21x3 (the same wrapping sums).
// ---------------------------------------------------------------------------------------
template <SatFormat F>
__global__ void packKernel(const std::uint32_t* planes, int width, int height,
                           typename FormatTraits<F>::Entry* out) {
  __shared__ std::uint32_t tile[4][kTile][kTile + 1];
  const std::size_t plane = std::size_t(width) * height;
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  // Read along y (contiguous in the transposed planes).
  for (int dx = threadIdx.y; dx < kTile; dx += kTileRows) {
    const int x = x0 + dx, y = y0 + threadIdx.x;
    if (x < width && y < height) {
      const std::size_t i = std::size_t(x) * height + y;
      for (int c = 0; c < 4; ++c) tile[c][dx][threadIdx.x] = planes[c * plane + i];
    }
  }
  __syncthreads();
  // Write along x (contiguous in the output).
  for (int dy = threadIdx.y; dy < kTile; dy += kTileRows) {
    const int x = x0 + threadIdx.x, y = y0 + dy;
    if (x < width && y < height) {
      constexpr std::uint32_t kNoCarry[4] = {0, 0, 0, 0};
      const std::uint32_t sums[4] = {tile[0][threadIdx.x][dy], tile[1][threadIdx.x][dy],
                                     tile[2][threadIdx.x][dy], tile[3][threadIdx.x][dy]};
      out[std::size_t(y) * width + x] = FormatTraits<F>::entry(kNoCarry, sums);
    }
  }
}

// Scratch layout: [plane set A][plane set B][scan scratch], each 256-byte aligned.
struct SatScratch {
  std::uint32_t* a;
  std::uint32_t* b;
  void* scan;
  std::size_t scanBytes;
};

ScanArgs rowScan(std::uint32_t* planes, std::size_t length, std::size_t rows) {
  ScanArgs args;
  args.in = planes;
  args.out = planes;
  args.length = length;
  args.rows = rows;
  args.type = ScanType::U32;
  args.op = ScanOp::Inclusive;
  return args;
}

std::size_t planesBytes(SatShape s) { return alignUp(std::size_t(s.width) * s.height * 4 * 4); }

std::size_t scanScratchBytes(SatShape s, const ScanVariant& scan) {
  const std::size_t rows = scan.scratchBytes(rowScan(nullptr, s.width, 4 * std::size_t(s.height)));
  const std::size_t cols = scan.scratchBytes(rowScan(nullptr, s.height, 4 * std::size_t(s.width)));
  return alignUp(rows > cols ? rows : cols);
}

std::size_t planesAndScanBytes(SatShape s, const ScanVariant& scan) {
  return 2 * planesBytes(s) + scanScratchBytes(s, scan);
}

template <class Source>
cudaError_t computeSat(Source src, SatShape s, SatFormat format, void* out, const ScanVariant& scan,
                       void* scratch, std::size_t scratchBytes, cudaStream_t stream) {
  if (scratchBytes < planesAndScanBytes(s, scan) || !out || !scratch) return cudaErrorInvalidValue;

  auto* bytes = static_cast<unsigned char*>(scratch);
  const SatScratch ws{reinterpret_cast<std::uint32_t*>(bytes),
                      reinterpret_cast<std::uint32_t*>(bytes + planesBytes(s)),
                      bytes + 2 * planesBytes(s), scanScratchBytes(s, scan)};
  const std::size_t w = s.width, h = s.height;

  const dim3 block(kTile, kTileRows);
  const dim3 tiles((s.width + kTile - 1) / kTile, (s.height + kTile - 1) / kTile);
  unpackKernel<<<dim3(tiles.x, (s.height + kTileRows - 1) / kTileRows), block, 0, stream>>>(
      src, s.width, s.height, ws.a);
  SATDOF_TRY_LAUNCH();

  SATDOF_TRY(scan.launch(rowScan(ws.a, w, 4 * h), ws.scan, ws.scanBytes, stream));

  transposeKernel<<<dim3(tiles.x, tiles.y, 4), block, 0, stream>>>(ws.a, ws.b, s.height, s.width);
  SATDOF_TRY_LAUNCH();

  SATDOF_TRY(scan.launch(rowScan(ws.b, h, 4 * w), ws.scan, ws.scanBytes, stream));

  if (format == SatFormat::Uint21x3)
    packKernel<SatFormat::Uint21x3><<<tiles, block, 0, stream>>>(ws.b, s.width, s.height, static_cast<uint2*>(out));
  else
    packKernel<SatFormat::Uint32><<<tiles, block, 0, stream>>>(ws.b, s.width, s.height, static_cast<uint4*>(out));
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace

std::size_t rowsTransposeRowsScratchBytes(const SatArgs& args) {
  const SatShape shape{args.width, args.height};
  if (shape.width <= 0 || shape.height <= 0) return 0;
  return planesAndScanBytes(shape, scanOf(args));
}

cudaError_t rowsTransposeRowsLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                                    cudaStream_t stream) {
  if (args.width < 0 || args.height < 0) return cudaErrorInvalidValue;
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  if (args.format != SatFormat::Uint32 && args.format != SatFormat::Uint21x3) return cudaErrorInvalidValue;
  const SatShape shape{args.width, args.height};
  const ScanVariant& scan = scanOf(args);
  if (args.source.isSurface())
    return computeSat(SurfaceSource{args.source.surface}, shape, args.format, args.table, scan, scratch,
                      scratchBytes, stream);
  if (!args.source.rgba) return cudaErrorInvalidValue;
  return computeSat(LinearSource{args.source.rgba, args.source.pitchBytes}, shape, args.format, args.table,
                    scan, scratch, scratchBytes, stream);
}

}  // namespace satdof::detail

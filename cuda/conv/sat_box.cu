// conv/sat_box.cu — a box filter of any radius from an integer summed-area table:
// four SAT reads per pixel (a few more near a clamped edge), whatever the size.
//
// The SAT (uint32 per channel, wrapping; exact for any window sum below 2^32) is built
// in 32x32 tiles so that every kernel is fully parallel and the image is read twice
// and the SAT written once (24 bytes per pixel) before the box pass reads it:
//   1  tile sums      per tile: the sum of each of its rows and of each of its columns;
//   2  carry scans    exclusive scans across tiles: rowCarry[y][t] = sum of row y left of
//                     tile column t, colCarry[t][x] = sum of column x above tile row t;
//   3  top-row scan   inclusive scan of colCarry along x: colCarry[t][x] becomes
//                     S(x, y0 - 1), the SAT row just above tile row t;
//   4  SAT tiles      per tile: row prefixes + rowCarry give full-row prefixes, column
//                     prefixes of those + the row above give S; written once;
//   5  box pass       out = (2 * sum + n^2) / (2 n^2) per channel (ConvMath::BoxSum).
// Zero border: the window clipped to the image, divided by the full n^2. Clamp border:
// exact too. A clamped window counts edge pixels several times, so the sum is the
// clipped window plus multiplicities times edge strips and corners, all from the SAT.
#include "conv/conv_device.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;
constexpr int kTile = kSatTile;                    // 32x32 pixels per SAT tile
constexpr int kRowsPerThread = kTile / kThreadsY;  // 4
constexpr int kScanThreads = 256;
constexpr unsigned kFullMask = 0xffffffffu;
static_assert(kTile == 32, "a SAT tile row is one warp");

struct SatBuffers {
  uint4* sat;       // [height][width]
  uint4* rowCarry;  // [height][tilesX]
  uint4* colCarry;  // [tilesY][width]
  int width, height, tilesX, tilesY;
};

// =====================================================================================
// uint4 arithmetic (wrapping) and warp primitives
// =====================================================================================

__device__ __forceinline__ uint4 add(uint4 a, uint4 b) {
  return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ __forceinline__ uint4 sub(uint4 a, uint4 b) {
  return make_uint4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}
__device__ __forceinline__ uint4 scale(unsigned k, uint4 a) {
  return make_uint4(k * a.x, k * a.y, k * a.z, k * a.w);
}
__device__ __forceinline__ uint4 zero4() { return make_uint4(0u, 0u, 0u, 0u); }
__device__ __forceinline__ uint4 widen(uchar4 p) { return make_uint4(p.x, p.y, p.z, p.w); }

__device__ __forceinline__ uint4 shflUp(uint4 v, int d) {
  return make_uint4(__shfl_up_sync(kFullMask, v.x, d), __shfl_up_sync(kFullMask, v.y, d),
                    __shfl_up_sync(kFullMask, v.z, d), __shfl_up_sync(kFullMask, v.w, d));
}
__device__ __forceinline__ uint4 shflXor(uint4 v, int m) {
  return make_uint4(__shfl_xor_sync(kFullMask, v.x, m), __shfl_xor_sync(kFullMask, v.y, m),
                    __shfl_xor_sync(kFullMask, v.z, m), __shfl_xor_sync(kFullMask, v.w, m));
}
__device__ __forceinline__ uint4 shflIdx(uint4 v, int src) {
  return make_uint4(__shfl_sync(kFullMask, v.x, src), __shfl_sync(kFullMask, v.y, src),
                    __shfl_sync(kFullMask, v.z, src), __shfl_sync(kFullMask, v.w, src));
}

// Inclusive scan over the 32 lanes (all lanes must call it).
__device__ __forceinline__ uint4 warpInclusiveScan(uint4 v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const uint4 t = shflUp(v, d);
    if (lane >= d) v = add(v, t);
  }
  return v;
}

// Sum over the 32 lanes, in every lane.
__device__ __forceinline__ uint4 warpSum(uint4 v) {
#pragma unroll
  for (int m = 16; m > 0; m /= 2) v = add(v, shflXor(v, m));
  return v;
}

// =====================================================================================
// kernel 1: per-tile row and column sums
// =====================================================================================

__global__ void __launch_bounds__(kThreadsX * kThreadsY) tileSumsKernel(ImageIo io, SatBuffers b) {
  __shared__ uint4 partial[kThreadsY][kTile];
  const int lane = threadIdx.x;
  const int x = blockIdx.x * kTile + lane;
  uint4 colSum = zero4();
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const int y = blockIdx.y * kTile + threadIdx.y + kThreadsY * k;  // one row per warp
    const uint4 v = x < b.width && y < b.height ? widen(inRow(io, y)[x]) : zero4();
    const uint4 rowSum = warpSum(v);
    if (lane == 0 && y < b.height) b.rowCarry[std::size_t(y) * b.tilesX + blockIdx.x] = rowSum;
    colSum = add(colSum, v);
  }
  partial[threadIdx.y][lane] = colSum;
  __syncthreads();
  if (threadIdx.y == 0 && x < b.width) {
    uint4 s = partial[0][lane];
#pragma unroll
    for (int r = 1; r < kThreadsY; ++r) s = add(s, partial[r][lane]);
    b.colCarry[std::size_t(blockIdx.y) * b.width + x] = s;
  }
}

// =====================================================================================
// kernel 2: exclusive scans of the carries across tiles (one warp per line)
// =====================================================================================

__device__ void warpExclusiveScanStrided(uint4* p, std::size_t stride, int count, int lane) {
  uint4 carry = zero4();
  for (int base = 0; base < count; base += 32) {
    const int k = base + lane;
    const uint4 v = k < count ? p[std::size_t(k) * stride] : zero4();
    const uint4 incl = warpInclusiveScan(v, lane);
    if (k < count) p[std::size_t(k) * stride] = add(sub(incl, v), carry);
    carry = add(carry, shflIdx(incl, 31));
  }
}

__global__ void __launch_bounds__(kScanThreads) carryScanKernel(SatBuffers b) {
  const int warp = int((blockIdx.x * blockDim.x + threadIdx.x) / 32);  // uniform per warp
  const int lane = threadIdx.x % 32;
  if (warp < b.width) {  // column x = warp, down the tile rows
    warpExclusiveScanStrided(b.colCarry + warp, std::size_t(b.width), b.tilesY, lane);
  } else if (warp < b.width + b.height) {  // row y, across the tile columns
    const int y = warp - b.width;
    warpExclusiveScanStrided(b.rowCarry + std::size_t(y) * b.tilesX, 1, b.tilesX, lane);
  }
}

// =====================================================================================
// kernel 3: inclusive scan of each tile row's column carries along x
// =====================================================================================

__global__ void __launch_bounds__(kScanThreads) topRowScanKernel(SatBuffers b) {
  constexpr int kItems = 4;  // consecutive items per thread
  constexpr int kWarps = kScanThreads / 32;
  __shared__ uint4 warpTotals[kWarps];
  uint4* row = b.colCarry + std::size_t(blockIdx.x) * b.width;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  uint4 carry = zero4();
  for (int base = 0; base < b.width; base += kScanThreads * kItems) {
    const int first = base + threadIdx.x * kItems;
    uint4 v[kItems];
#pragma unroll
    for (int e = 0; e < kItems; ++e) v[e] = first + e < b.width ? row[first + e] : zero4();
#pragma unroll
    for (int e = 1; e < kItems; ++e) v[e] = add(v[e], v[e - 1]);
    const uint4 incl = warpInclusiveScan(v[kItems - 1], lane);
    if (lane == 31) warpTotals[warp] = incl;
    __syncthreads();
    uint4 before = zero4(), chunk = zero4();
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const uint4 t = warpTotals[w];
      if (w < warp) before = add(before, t);
      chunk = add(chunk, t);
    }
    const uint4 offset = add(add(carry, before), sub(incl, v[kItems - 1]));
#pragma unroll
    for (int e = 0; e < kItems; ++e)
      if (first + e < b.width) row[first + e] = add(v[e], offset);
    carry = add(carry, chunk);
    __syncthreads();  // warpTotals is rewritten by the next chunk
  }
}

// =====================================================================================
// kernel 4: the SAT of each tile, from the input and the carries
// =====================================================================================

__global__ void __launch_bounds__(kThreadsX * kThreadsY) satTileKernel(ImageIo io, SatBuffers b) {
  __shared__ uint4 s[kTile][kTile + 1];  // +1: the column pass reads conflict-free
  __shared__ uint4 top[kTile];
  const int lane = threadIdx.x;
  const int x = blockIdx.x * kTile + lane;
  const int y0 = blockIdx.y * kTile;
  // Row pass (warp = tile row): prefix within the tile + everything left of the tile.
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const int j = threadIdx.y + kThreadsY * k;
    const int y = y0 + j;
    const uint4 v = x < b.width && y < b.height ? widen(inRow(io, y)[x]) : zero4();
    const uint4 incl = warpInclusiveScan(v, lane);
    const uint4 left =
        y < b.height ? b.rowCarry[std::size_t(y) * b.tilesX + blockIdx.x] : zero4();
    s[j][lane] = add(incl, left);
  }
  if (threadIdx.y == 0)
    top[lane] = x < b.width ? b.colCarry[std::size_t(blockIdx.y) * b.width + x] : zero4();
  __syncthreads();
  // Column pass (warp = tile column, lane = row): prefix down + the SAT row above.
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const int c = threadIdx.y + kThreadsY * k;
    const uint4 incl = warpInclusiveScan(s[lane][c], lane);
    s[lane][c] = add(incl, top[c]);
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const int j = threadIdx.y + kThreadsY * k;
    const int y = y0 + j;
    if (x < b.width && y < b.height) b.sat[std::size_t(y) * b.width + x] = s[j][lane];
  }
}

// =====================================================================================
// kernel 5: box mean from the SAT
// =====================================================================================

__device__ __forceinline__ uint4 satAt(const SatBuffers& b, int x, int y) {
  return b.sat[std::size_t(y) * b.width + x];
}

// Sum over the inclusive rectangle [xa, xb] x [ya, yb], inside the image.
__device__ __forceinline__ uint4 rectSum(const SatBuffers& b, int xa, int ya, int xb, int yb) {
  uint4 s = satAt(b, xb, yb);
  if (xa > 0) s = sub(s, satAt(b, xa - 1, yb));
  if (ya > 0) s = sub(s, satAt(b, xb, ya - 1));
  if (xa > 0 && ya > 0) s = add(s, satAt(b, xa - 1, ya - 1));
  return s;
}

__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    boxFromSatKernel(ImageIo io, SatBuffers b, int radius) {
  const int x = blockIdx.x * kThreadsX + threadIdx.x;
  const int y = blockIdx.y * kThreadsY + threadIdx.y;
  if (x >= b.width || y >= b.height) return;
  const int xa = x - radius, xb = x + radius, ya = y - radius, yb = y + radius;
  const int cx0 = max(xa, 0), cx1 = min(xb, b.width - 1);
  const int cy0 = max(ya, 0), cy1 = min(yb, b.height - 1);
  uint4 sum = rectSum(b, cx0, cy0, cx1, cy1);
  if (io.border == Border::Clamp) {
    // Clamped offsets that fall left of column 0 all read column 0 (`left` extra times),
    // and so on: sum = rows' multiplicities x (clipped row + left/right edge pixels).
    const unsigned left = unsigned(cx0 - xa), right = unsigned(xb - cx1);
    const unsigned above = unsigned(cy0 - ya), below = unsigned(yb - cy1);
    if (left | right | above | below) {
      const int lastX = b.width - 1, lastY = b.height - 1;
      if (left) sum = add(sum, scale(left, rectSum(b, 0, cy0, 0, cy1)));
      if (right) sum = add(sum, scale(right, rectSum(b, lastX, cy0, lastX, cy1)));
      if (above) {
        uint4 edge = rectSum(b, cx0, 0, cx1, 0);
        edge = add(edge, scale(left, widen(inRow(io, 0)[0])));
        edge = add(edge, scale(right, widen(inRow(io, 0)[lastX])));
        sum = add(sum, scale(above, edge));
      }
      if (below) {
        uint4 edge = rectSum(b, cx0, lastY, cx1, lastY);
        edge = add(edge, scale(left, widen(inRow(io, lastY)[0])));
        edge = add(edge, scale(right, widen(inRow(io, lastY)[lastX])));
        sum = add(sum, scale(below, edge));
      }
    }
  }
  // Mean rounded half up, in integers: floor(sum / n^2 + 1/2).
  const unsigned n = unsigned(2 * radius + 1);
  const unsigned area = n * n;
  outRow(io, y)[x] = make_uchar4(static_cast<unsigned char>((2u * sum.x + area) / (2u * area)),
                                 static_cast<unsigned char>((2u * sum.y + area) / (2u * area)),
                                 static_cast<unsigned char>((2u * sum.z + area) / (2u * area)),
                                 static_cast<unsigned char>((2u * sum.w + area) / (2u * area)));
}

// =====================================================================================
// host side
// =====================================================================================

int tilesAlong(int n) { return (n + kTile - 1) / kTile; }

SatBuffers carveScratch(void* scratch, int width, int height) {
  SatBuffers b{};
  b.width = width;
  b.height = height;
  b.tilesX = tilesAlong(width);
  b.tilesY = tilesAlong(height);
  char* p = static_cast<char*>(scratch);
  b.sat = reinterpret_cast<uint4*>(p);
  p += alignUp(std::size_t(width) * height * sizeof(uint4));
  b.rowCarry = reinterpret_cast<uint4*>(p);
  p += alignUp(std::size_t(height) * b.tilesX * sizeof(uint4));
  b.colCarry = reinterpret_cast<uint4*>(p);
  return b;
}

}  // namespace

std::optional<std::string> satBoxSupports(const Filter& filter) {
  if (filter.kind != FilterKind::Box)
    return "box filters only (the mean of a window); '" + filter.name + "' is not a box";
  return std::nullopt;
}

std::size_t satBoxScratchBytes(int width, int height) {
  if (width <= 0 || height <= 0) return 0;
  return alignUp(std::size_t(width) * height * sizeof(uint4)) +
         alignUp(std::size_t(height) * tilesAlong(width) * sizeof(uint4)) +
         alignUp(std::size_t(tilesAlong(height)) * width * sizeof(uint4));
}

cudaError_t satBoxLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                         cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, satBoxSupports, scratch, scratchBytes,
                         satBoxScratchBytes(args.width, args.height)));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const ImageIo io = makeImageIo(args);
  const SatBuffers b = carveScratch(scratch, args.width, args.height);
  const dim3 tileBlock(kThreadsX, kThreadsY);
  const dim3 tiles(unsigned(b.tilesX), unsigned(b.tilesY));

  tileSumsKernel<<<tiles, tileBlock, 0, stream>>>(io, b);
  SATDOF_TRY_LAUNCH();
  carryScanKernel<<<ceilDiv((b.width + b.height) * 32, kScanThreads), kScanThreads, 0, stream>>>(b);
  SATDOF_TRY_LAUNCH();
  topRowScanKernel<<<unsigned(b.tilesY), kScanThreads, 0, stream>>>(b);
  SATDOF_TRY_LAUNCH();
  satTileKernel<<<tiles, tileBlock, 0, stream>>>(io, b);
  SATDOF_TRY_LAUNCH();
  const dim3 pixels(ceilDiv(b.width, kThreadsX), ceilDiv(b.height, kThreadsY));
  boxFromSatKernel<<<pixels, tileBlock, 0, stream>>>(io, b, args.filter->radius);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace satdof::conv

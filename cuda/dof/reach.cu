// cuda/dof/reach.cu — the layered DoF's reach R(p) (satdof/dof.h, reference::nearReach):
// a pass along rows over the split's near radii into linear scratch, then one along
// columns over that into the reach image. Each pass is one 256-thread block per 16x16
// tile, whose window bound B is that tile's dilated near radius (a tile with none writes
// 0 at once), as in dof_layers_reach.comp.
//
// A tile whose bound is at most a tile (every tile at the default max blur of 12 px) is
// read as reference::reachPass reads it: the block stages its own tile and the two beside
// it along the axis, and each pixel takes the largest radius n within min(n, B) of it,
// 2B + 1 shared-memory reads.
//
// A larger bound is walked tile by tile, its radii scattered. A block holds the tile as
// 16 lines of 16 pixels along the pass's axis, a line to each
// half-warp (lane = position along the line). It walks the tiles within B of its own
// along the axis, one at a time, staged through shared memory so that the column pass
// reads rows too. Each radius n is read once and scattered: it reaches the pixels of its
// line within min(n, B) of it, an interval with the value n, kept as
//   - one covering the whole line: the lane's running maximum, reduced at the end;
//   - one starting before the line: the maximum at the pixel it ends at (a pixel then
//     takes the largest ending at or after it: a suffix maximum across the half-warp);
//   - one ending after it: the maximum at the pixel it starts at (a prefix maximum);
//   - one inside it, of length L: two entries of the level k = floor(log2 L) of a sparse
//     table, at its first and its last 2^k pixels (a pixel takes, per level, the largest
//     of the 2^k entries ending at it: three shuffles for all four levels).
// Per pixel and tile walked: one load and at most two shared-memory atomics. Measured on
// an H200 (docs/PERFORMANCE.md): both passes 0.15 ms alone at 4K on the default scene,
// instruction-bound; staging eight tiles at once or skipping the tiles whose radii cannot
// reach were slower there.
#include "satdof/dof.h"
#include "satdof/reference/layered_dof.h"

namespace satdof {
namespace {

constexpr int kTile = reference::kLayerTile;  // 16: a line is a half-warp
constexpr int kLevels = 4;                    // inner intervals are 1..14 pixels long
constexpr unsigned kAllLanes = 0xffffffffu;
static_assert(kTile == 16, "a line of a tile is a half-warp");

struct SurfaceRadii {  // R16I, through a surface
  cudaSurfaceObject_t surface;
  __device__ int load(int x, int y) const { return surf2Dread<short>(surface, x * int(sizeof(short)), y); }
  __device__ void store(int x, int y, int v) const { surf2Dwrite(short(v), surface, x * int(sizeof(short)), y); }
};
struct LinearRadii {  // 16-bit, rows of `width`
  short* data;
  int width;
  __device__ int load(int x, int y) const { return data[std::size_t(y) * width + x]; }
  __device__ void store(int x, int y, int v) const { data[std::size_t(y) * width + x] = short(v); }
};

// The pass over one tile of bound 1..kTile: the tile's lines and those of the two tiles
// beside it along the axis in `window` (zeros outside the image), then 2 * bound + 1
// reads per pixel. Thread (sx, sy) takes pixel (x0 + sx, y0 + sy) in both passes, so its
// reads and the stores run along rows.
constexpr int kRowsPitch = 3 * kTile + 1, kColumnsPitch = kTile + 1;  // odd: few bank conflicts
constexpr int kWindowInts = 3 * kTile * kColumnsPitch;
static_assert(kTile * kRowsPitch <= kWindowInts);

template <bool kRows, class In, class Out>
__device__ void reachWithinATile(const In& in, const Out& out, int bound, int width, int height, int* window) {
  const int tid = threadIdx.x, sx = tid & (kTile - 1), sy = tid / kTile;
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  for (int i = 0; i < 3; ++i) {
    const int qx = x0 + (kRows ? (i - 1) * kTile : 0) + sx, qy = y0 + (kRows ? 0 : (i - 1) * kTile) + sy;
    const int at = kRows ? sy * kRowsPitch + i * kTile + sx : (i * kTile + sy) * kColumnsPitch + sx;
    window[at] = qx >= 0 && qy >= 0 && qx < width && qy < height ? in.load(qx, qy) : 0;
  }
  __syncthreads();
  const int stride = kRows ? 1 : kColumnsPitch;
  const int* own = window + (kRows ? sy * kRowsPitch + kTile + sx : (kTile + sy) * kColumnsPitch + sx);
  int m = *own;
  for (int d = 1; d <= bound; ++d) {
    const int before = own[-d * stride], after = own[d * stride];
    if (before >= d) m = max(m, before);
    if (after >= d) m = max(m, after);
  }
  if (x0 + sx < width && y0 + sy < height) out.store(x0 + sx, y0 + sy, m);
}

template <bool kRows, class In, class Out>
__global__ void __launch_bounds__(kTile* kTile) reachKernel(In in, Out out, cudaSurfaceObject_t tileRadius, int width,
                                                             int height) {
  __shared__ int staged[2][kTile][kTile + 1];  // a tile of radii as it lies in the image
  __shared__ int endsAt[kTile][kTile], startsAt[kTile][kTile], inner[kLevels][kTile][kTile];
  const int tid = threadIdx.x, at = tid & (kTile - 1), line = tid / kTile;  // along the axis, which line
  const int sx = tid & (kTile - 1), sy = tid / kTile;                        // this thread's load, row-wise
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  const int bound = surf2Dread<int>(tileRadius, blockIdx.x * int(sizeof(int)), blockIdx.y);  // the block's
  if (bound == 0) {  // no near blur within reach of this tile
    if (x0 + sx < width && y0 + sy < height) out.store(x0 + sx, y0 + sy, 0);
    return;
  }
  if (bound <= kTile) {  // the block's branch: bound is the block's
    __shared__ int window[kWindowInts];
    reachWithinATile<kRows>(in, out, bound, width, height, window);
    return;
  }
  endsAt[line][at] = startsAt[line][at] = 0;
  for (int k = 0; k < kLevels; ++k) inner[k][line][at] = 0;
  int whole = 0;
  const int tiles = (bound + kTile - 1) / kTile, ownTile = kRows ? blockIdx.x : blockIdx.y;
  const int lastTile = kRows ? (width - 1) / kTile : (height - 1) / kTile;
  int buffer = 0;
  for (int t = max(-tiles, -ownTile); t <= min(tiles, lastTile - ownTile); ++t, buffer ^= 1) {
    // Stage the tile t along the axis (rows of it, coalesced); alternate buffers, so one
    // barrier a tile orders both the staging and the reading of the one before.
    const int qx = x0 + (kRows ? t * kTile : 0) + sx, qy = y0 + (kRows ? 0 : t * kTile) + sy;
    staged[buffer][sy][sx] = qx < width && qy < height ? in.load(qx, qy) : 0;
    __syncthreads();
    const int n = kRows ? staged[buffer][line][at] : staged[buffer][at][line];
    const int span = min(n, bound), from = t * kTile + at;  // the radius' position along the line
    const int lo = from - span, hi = from + span;
    if (n > 0 && hi >= 0 && lo < kTile) {
      if (lo <= 0 && hi >= kTile - 1) {
        whole = max(whole, n);
      } else if (lo <= 0) {
        atomicMax(&endsAt[line][hi], n);
      } else if (hi >= kTile - 1) {
        atomicMax(&startsAt[line][lo], n);
      } else {
        const int k = 31 - __clz(hi - lo + 1);
        atomicMax(&inner[k][line][lo], n);
        atomicMax(&inner[k][line][hi - (1 << k) + 1], n);
      }
    }
  }
  __syncthreads();
  // The half-warp's line: the whole-line maximum, the suffix of endsAt, the prefix of
  // startsAt, and the sparse table's levels (windows of 8, 4, 2, 1 ending at the pixel).
  int ends = endsAt[line][at], starts = startsAt[line][at], inside = inner[kLevels - 1][line][at];
  for (int d = 1; d < kTile; d *= 2) {
    whole = max(whole, __shfl_xor_sync(kAllLanes, whole, d, kTile));
    ends = max(ends, __shfl_down_sync(kAllLanes, ends, d, kTile));
    starts = max(starts, __shfl_up_sync(kAllLanes, starts, d, kTile));
  }
  for (int k = kLevels - 1; k > 0; --k) {
    inside = max(inside, __shfl_up_sync(kAllLanes, inside, 1 << (k - 1), kTile));
    inside = max(inside, inner[k - 1][line][at]);
  }
  const int m = max(max(whole, inside), max(ends, starts));
  if (kRows) {
    if (x0 + at < width && y0 + line < height) out.store(x0 + at, y0 + line, m);
  } else {  // through shared memory, so that the stores run along rows too
    staged[buffer][at][line] = m;
    __syncthreads();
    if (x0 + sx < width && y0 + sy < height) out.store(x0 + sx, y0 + sy, staged[buffer][sy][sx]);
  }
}

}  // namespace

std::size_t layerReachScratchBytes(int width, int height) {
  return std::size_t(width) * std::size_t(height) * sizeof(short);
}

cudaError_t launchLayerReach(const LayerReachArgs& a, void* scratch, std::size_t scratchBytes, cudaStream_t stream) {
  if (a.width <= 0 || a.height <= 0 || !a.nearRadius || !a.tileRadius || !a.reach) return cudaErrorInvalidValue;
  if (!scratch || scratchBytes < layerReachScratchBytes(a.width, a.height)) return cudaErrorInvalidValue;
  const dim3 grid((a.width + kTile - 1) / kTile, (a.height + kTile - 1) / kTile);
  const LinearRadii rows{static_cast<short*>(scratch), a.width};
  reachKernel<true><<<grid, kTile * kTile, 0, stream>>>(SurfaceRadii{a.nearRadius}, rows, a.tileRadius, a.width,
                                                        a.height);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  reachKernel<false><<<grid, kTile * kTile, 0, stream>>>(rows, SurfaceRadii{a.reach}, a.tileRadius, a.width,
                                                         a.height);
  return cudaGetLastError();
}

}  // namespace satdof

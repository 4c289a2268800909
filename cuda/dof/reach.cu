// cuda/dof/reach.cu — the layered DoF's reach R(p) (satdof/dof.h, reference::nearReach):
// a pass along rows over the split's near radii into linear scratch, then one along
// columns over that into the reach image. Each 16x16 tile's window bound B is its dilated
// near radius (a tile with none writes 0 at once), as in dof_layers_reach.comp; a
// 256-thread block takes four tiles one after another along the pass's axis.
//
// A tile whose bound is at most a tile (every tile at the default max blur of 12 px) takes
// 64 threads of the block, which OR the 16-bit thermometer masks of its window (the tile
// and the two beside it along the axis, staged once for the block's four), each masked by
// its distance (below, "The direct path"): 4 pixels a thread, 9 shared-memory loads, and
// two bitwise operations per distance for each pair of pixels, where reading each radius at
// each distance took 2B + 1 loads and comparisons a pixel.
//
// A larger bound (or a window holding a radius above 16, which a mask cannot) is walked by
// the whole block, one such tile after another, its radii scattered. The block holds the
// tile as 16 lines of 16 pixels along the pass's axis, a line to each half-warp (lane =
// position along the line). It walks the tiles within B of its own
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
#include <cstdint>

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
  // (x, y) .. (x + 3, y) in one 8-byte store, where that address is 8-byte aligned: whether it was.
  __device__ bool store4(int x, int y, const int (&v)[4]) const {
    short* at = data + std::size_t(y) * width + x;
    if (reinterpret_cast<std::uintptr_t>(at) % 8 != 0) return false;
    *reinterpret_cast<short4*>(at) = make_short4(short(v[0]), short(v[1]), short(v[2]), short(v[3]));
    return true;
  }
};

// The direct path: a tile of bound 1..kTile whose window holds no radius above kTile. Each
// radius n is kept as its thermometer, the 16-bit mask of levels 1..n (bit k - 1 for level
// k). A radius at distance d reaches the pixel iff d <= min(n, bound), i.e. iff its mask
// keeps a bit at or above level d (d <= bound): OR-ing every window pixel's mask masked to
// levels >= its distance, the highest bit left is the largest radius that reaches
// (reference::reachPass's maximum). A thread takes 4 pixels along the axis, two to a 32-bit
// word (16-bit halves), and reads its 36 masks as 9 eight-byte loads. The block's four
// tiles lie one after another along the axis and share one staged window, so each radius
// is loaded 1.5 times, not 3.
constexpr int kDirectGroup = kTile * kTile / 4;  // 64 threads a tile: 16 lines x 4 runs of 4 pixels
constexpr int kTilesPerBlock = 4;                // one after another along the pass's axis
constexpr int kSegments = kTilesPerBlock + 2;    // the window: the block's tiles and one beyond each end
constexpr int kWindow = kSegments * kTile;       // 96 positions along the axis
// Masks per line in shared memory: 8-byte aligned lines whose eight-byte loads are free of
// bank conflicts for the threads' layouts below (rows: the runs of a line fastest, a
// half-warp reading 4 lines 56 words apart; columns: lines fastest, 50 words apart).
template <bool kRows>
constexpr int kPitch = kRows ? 112 : 100;
static_assert(kTile == 16 && kDirectGroup * kTilesPerBlock == kTile * kTile, "one 256-thread block");
static_assert(kPitch<true> >= kWindow && kPitch<false> >= kWindow);

template <bool kRows>
struct DirectWindow {
  alignas(8) std::uint16_t masks[kTile][kPitch<kRows>];
  int overflow[kSegments];  // a radius above kTile in that 16-position segment
};

// Stage the block's window as masks (zeros outside the image); (x0, y0): its first tile's
// corner. Every load a thread makes is issued before any is used; consecutive threads load
// consecutive pixels of a row in both passes. Rows: 192 threads, one position each, every
// other line; columns: all 256, a line each, every 16th position.
template <bool kRows, class In>
__device__ void stageWindow(const In& in, DirectWindow<kRows>& window, int x0, int y0, int width, int height) {
  const int t = threadIdx.x;
  constexpr int kLoads = kRows ? kTile / 2 : kSegments;
  if (kRows && t >= 2 * kWindow) return;
  const int line0 = kRows ? t / kWindow : t % kTile, at0 = kRows ? t % kWindow : t / kTile;
  const auto lineOf = [&](int k) { return kRows ? line0 + 2 * k : line0; };
  const auto atOf = [&](int k) { return kRows ? at0 : at0 + kTile * k; };  // along the axis
  int n[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int qx = kRows ? x0 - kTile + atOf(k) : x0 + lineOf(k), qy = kRows ? y0 + lineOf(k) : y0 - kTile + atOf(k);
    n[k] = qx >= 0 && qy >= 0 && qx < width && qy < height ? in.load(qx, qy) : 0;
  }
  bool tooLarge = false;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    window.masks[lineOf(k)][atOf(k)] = std::uint16_t((1u << min(max(n[k], 0), kTile)) - 1u);  // 0 for none
    if constexpr (kRows) {
      tooLarge |= n[k] > kTile;
    } else if (n[k] > kTile) {
      atomicOr(&window.overflow[k], 1);
    }
  }
  if (kRows && tooLarge) atomicOr(&window.overflow[at0 / kTile], 1);
}

// The OR of the masks w (reachFromMasks) at distances 0..kReach (kReach >= bound), each
// masked to the levels at or above its distance; nothing from beyond the bound.
template <int kReach>
__device__ __forceinline__ void orMasks(const std::uint32_t (&w)[18], int bound, std::uint32_t (&acc)[2]) {
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    acc[j] = w[8 + j];  // distance 0
#pragma unroll
    for (int d = 1; d <= kReach; ++d) {
      // Levels >= d, in both halves; none beyond the bound.
      const std::uint32_t levels = d <= bound ? ((0xFFFFu << (d - 1)) & 0xFFFFu) * 0x10001u : 0u;
      const std::uint32_t before = d % 2 == 0 ? w[8 + j - d / 2] : __funnelshift_r(w[7 + j - d / 2], w[8 + j - d / 2], 16);
      const std::uint32_t after = d % 2 == 0 ? w[8 + j + d / 2] : __funnelshift_r(w[8 + j + d / 2], w[9 + j + d / 2], 16);
      acc[j] |= (before | after) & levels;
    }
  }
}

// Thread t of a tile's group: its 4 pixels along the axis, from the window's masks at
// `offset` on (bound 0: zeros, no masks read).
template <bool kRows, class Out>
__device__ void reachFromMasks(const Out& out, const DirectWindow<kRows>& window, int offset, int bound, int x0, int y0,
                               int width, int height, int t) {
  const int run = kRows ? t % 4 : t / kTile, line = kRows ? t / 4 : t % kTile;
  std::uint32_t acc[2] = {0u, 0u};  // pixels 4 run + 0, 1 and + 2, 3: one in each 16-bit half
  if (bound > 0) {
    // w[k]: the masks at positions 4 run + 2k, 4 run + 2k + 1 of the tile's window; the
    // pixels' own at 8, 9.
    std::uint32_t w[18];
    const auto* words = reinterpret_cast<const uint2*>(&window.masks[line][offset + 4 * run]);
#pragma unroll
    for (int k = 0; k < 9; ++k) {
      const uint2 pair = words[k];
      w[2 * k] = pair.x;
      w[2 * k + 1] = pair.y;
    }
    // Distances up to the bound: 8, 12 or 16 of them (the group's bound is uniform).
    if (bound <= 8) {
      orMasks<8>(w, bound, acc);
    } else if (bound <= 12) {
      orMasks<12>(w, bound, acc);
    } else {
      orMasks<kTile>(w, bound, acc);
    }
  }
  int value[4];  // the highest level; 0 for none
#pragma unroll
  for (int i = 0; i < 4; ++i) value[i] = 32 - __clz(int((acc[i / 2] >> (16 * (i % 2))) & 0xFFFFu));
  if constexpr (kRows && requires { out.store4(0, 0, value); }) {  // four pixels of a row in one store
    if (y0 + line < height && x0 + 4 * run + 3 < width && out.store4(x0 + 4 * run, y0 + line, value)) return;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int x = kRows ? x0 + 4 * run + i : x0 + line, y = kRows ? y0 + line : y0 + 4 * run + i;
    if (x < width && y < height) out.store(x, y, value[i]);
  }
}

// The scatter path (any bound >= 1) for the tile at (x0, y0), by all 256 threads of the block.
struct ScatterShared {
  int staged[2][kTile][kTile + 1];  // a tile of radii as it lies in the image
  int endsAt[kTile][kTile], startsAt[kTile][kTile], inner[kLevels][kTile][kTile];
};

template <bool kRows, class In, class Out>
__device__ void scatterReach(const In& in, const Out& out, int bound, int x0, int y0, int width, int height,
                             ScatterShared& sh) {
  const int tid = threadIdx.x, at = tid & (kTile - 1), line = tid / kTile;  // along the axis, which line
  const int sx = tid & (kTile - 1), sy = tid / kTile;                        // this thread's load, row-wise
  __syncthreads();  // the block's shared memory may still be read by the tile before
  sh.endsAt[line][at] = sh.startsAt[line][at] = 0;
  for (int k = 0; k < kLevels; ++k) sh.inner[k][line][at] = 0;
  int whole = 0;
  const int tiles = (bound + kTile - 1) / kTile, ownTile = (kRows ? x0 : y0) / kTile;
  const int lastTile = kRows ? (width - 1) / kTile : (height - 1) / kTile;
  int buffer = 0;
  for (int t = max(-tiles, -ownTile); t <= min(tiles, lastTile - ownTile); ++t, buffer ^= 1) {
    // Stage the tile t along the axis (rows of it, coalesced); alternate buffers, so one
    // barrier a tile orders both the staging and the reading of the one before.
    const int qx = x0 + (kRows ? t * kTile : 0) + sx, qy = y0 + (kRows ? 0 : t * kTile) + sy;
    sh.staged[buffer][sy][sx] = qx < width && qy < height ? in.load(qx, qy) : 0;
    __syncthreads();
    const int n = kRows ? sh.staged[buffer][line][at] : sh.staged[buffer][at][line];
    const int span = min(n, bound), from = t * kTile + at;  // the radius' position along the line
    const int lo = from - span, hi = from + span;
    if (n > 0 && hi >= 0 && lo < kTile) {
      if (lo <= 0 && hi >= kTile - 1) {
        whole = max(whole, n);
      } else if (lo <= 0) {
        atomicMax(&sh.endsAt[line][hi], n);
      } else if (hi >= kTile - 1) {
        atomicMax(&sh.startsAt[line][lo], n);
      } else {
        const int k = 31 - __clz(hi - lo + 1);
        atomicMax(&sh.inner[k][line][lo], n);
        atomicMax(&sh.inner[k][line][hi - (1 << k) + 1], n);
      }
    }
  }
  __syncthreads();
  // The half-warp's line: the whole-line maximum, the suffix of endsAt, the prefix of
  // startsAt, and the sparse table's levels (windows of 8, 4, 2, 1 ending at the pixel).
  int ends = sh.endsAt[line][at], starts = sh.startsAt[line][at], inside = sh.inner[kLevels - 1][line][at];
  for (int d = 1; d < kTile; d *= 2) {
    whole = max(whole, __shfl_xor_sync(kAllLanes, whole, d, kTile));
    ends = max(ends, __shfl_down_sync(kAllLanes, ends, d, kTile));
    starts = max(starts, __shfl_up_sync(kAllLanes, starts, d, kTile));
  }
  for (int k = kLevels - 1; k > 0; --k) {
    inside = max(inside, __shfl_up_sync(kAllLanes, inside, 1 << (k - 1), kTile));
    inside = max(inside, sh.inner[k - 1][line][at]);
  }
  const int m = max(max(whole, inside), max(ends, starts));
  if (kRows) {
    if (x0 + at < width && y0 + line < height) out.store(x0 + at, y0 + line, m);
  } else {  // through shared memory, so that the stores run along rows too
    sh.staged[buffer][at][line] = m;
    __syncthreads();
    if (x0 + sx < width && y0 + sy < height) out.store(x0 + sx, y0 + sy, sh.staged[buffer][sy][sx]);
  }
}

// A block takes kTilesPerBlock tiles one after another along the axis: each its own 64
// threads on the direct path, then the block as a whole on the scatter path, tile by tile,
// for those of a larger bound (or a larger radius in the window).
template <bool kRows, class In, class Out>
__global__ void __launch_bounds__(kTile* kTile) reachKernel(In in, Out out, cudaSurfaceObject_t tileRadius, int width,
                                                             int height) {
  __shared__ int bounds[kTilesPerBlock];
  __shared__ DirectWindow<kRows> direct;
  __shared__ ScatterShared scatter;
  const int tilesX = (width + kTile - 1) / kTile, tilesY = (height + kTile - 1) / kTile;
  const int group = threadIdx.x / kDirectGroup, t = threadIdx.x % kDirectGroup;
  const auto tileOf = [&](int g) {
    return kRows ? int2{int(blockIdx.x) * kTilesPerBlock + g, int(blockIdx.y)}
                 : int2{int(blockIdx.x), int(blockIdx.y) * kTilesPerBlock + g};
  };
  const auto direct16 = [](int b) { return b >= 1 && b <= kTile; };
  const int2 tile = tileOf(group);
  const bool inImage = tile.x < tilesX && tile.y < tilesY;
  if (t == 0) bounds[group] = inImage ? surf2Dread<int>(tileRadius, tile.x * int(sizeof(int)), tile.y) : 0;
  if (threadIdx.x < kSegments) direct.overflow[threadIdx.x] = 0;
  __syncthreads();
  const int2 first = tileOf(0);
  if (direct16(bounds[0]) || direct16(bounds[1]) || direct16(bounds[2]) || direct16(bounds[3]))
    stageWindow<kRows>(in, direct, first.x * kTile, first.y * kTile, width, height);
  __syncthreads();
  const auto overflows = [&](int g) { return direct.overflow[g] | direct.overflow[g + 1] | direct.overflow[g + 2]; };
  const int bound = bounds[group];
  if (inImage && (bound == 0 || (bound <= kTile && !overflows(group))))
    reachFromMasks<kRows>(out, direct, group * kTile, bound, tile.x * kTile, tile.y * kTile, width, height, t);
  for (int g = 0; g < kTilesPerBlock; ++g)  // uniform across the block: shared values
    if (bounds[g] > kTile || (bounds[g] >= 1 && overflows(g))) {
      const int2 other = tileOf(g);
      scatterReach<kRows>(in, out, bounds[g], other.x * kTile, other.y * kTile, width, height, scatter);
    }
}

}  // namespace

std::size_t layerReachScratchBytes(int width, int height) {
  return std::size_t(width) * std::size_t(height) * sizeof(short);
}

cudaError_t launchLayerReach(const LayerReachArgs& a, void* scratch, std::size_t scratchBytes, cudaStream_t stream) {
  if (a.width <= 0 || a.height <= 0 || !a.nearRadius || !a.tileRadius || !a.reach) return cudaErrorInvalidValue;
  if (!scratch || scratchBytes < layerReachScratchBytes(a.width, a.height)) return cudaErrorInvalidValue;
  const int tilesX = (a.width + kTile - 1) / kTile, tilesY = (a.height + kTile - 1) / kTile;
  const auto across = [](int tiles) { return unsigned((tiles + kTilesPerBlock - 1) / kTilesPerBlock); };
  const LinearRadii rows{static_cast<short*>(scratch), a.width};
  reachKernel<true><<<dim3(across(tilesX), unsigned(tilesY)), kTile * kTile, 0, stream>>>(
      SurfaceRadii{a.nearRadius}, rows, a.tileRadius, a.width, a.height);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  reachKernel<false><<<dim3(unsigned(tilesX), across(tilesY)), kTile * kTile, 0, stream>>>(
      rows, SurfaceRadii{a.reach}, a.tileRadius, a.width, a.height);
  return cudaGetLastError();
}

}  // namespace satdof

// sort/radix4.cu — `radix-4`: LSD radix sort with 4-bit digits, the form GPU Gems 3 points
// to after the one-bit split (39.3.3; Satish, Harris & Garland 2009). Tiles of 256 x 12 =
// 3072 keys; for each digit:
//   1. histogramKernel: every block counts the 16 digit values of its tile (each thread
//      into its own column of shared counters) and writes them digit-major:
//      hist[d * tiles + tile]                                                   (read n)
//   2. an exclusive scan of the 16 x tiles counts, in place, with the chosen scan
//      variant: hist[d * tiles + t] becomes the first output address of tile t's keys
//      with digit d (all smaller digits of every tile, then digit d of earlier tiles)
//   3. scatterKernel: the block ranks its tile locally, stably, and scatters it:
//      * thread t holds the tile's keys 12t .. 12t + 11 (16-byte loads) and counts its
//        digits in four registers, one byte per digit; a key's count before it is its
//        rank among the thread's keys of that digit;
//      * the counts go to shared memory two digits to a word (d in the low half, d + 8 in
//        the high half), ordered (digit, thread); one block-wide exclusive scan of those
//        words gives each (digit, thread) its first position in the sorted tile: every
//        key with a smaller digit, then the same digit in earlier threads. Position =
//        that + the key's rank, stable because threads hold consecutive keys;
//      * keys (and values) go to shared memory at their position, then out: consecutive
//        threads write consecutive addresses within a digit's run (~192 keys long)
//                                                  (read 2n, write 2n words with values)
// Bytes per pair and digit: 4 (histogram read) + 16 (scatter) + the scan's ~0.04; 8 digits:
// ~160 B/pair, 2.35x CUB's 68. At 2^24 pairs on the H200 (ncu, caches flushed) a digit
// takes 22.7 us of histogram (67 MB read: 71 % of copy), 5.9 us of scan and 94 us of
// scatter (268 MB: 69 % of copy, 4 blocks of 256 per SM); the sort 0.88 ms, 0.63x CUB.
// The form before this one (2048-key tiles ranked by a warp multi-split with
// __match_any_sync, histograms counted the same way) took 92 + 6 + 141 us per digit, 1.51
// ms: both kernels were bound by shared-memory instruction traffic, not by DRAM. See
// docs/PERFORMANCE.md.
//
// Scratch: [alternate keys | alternate values | hist, 16 x tiles words | the scan's].
#include <algorithm>
#include <cstdint>

#include "detail/scan_op.cuh"
#include "detail/scan_step.h"
#include "detail/warp_scan.cuh"
#include "sort/variants.h"

namespace satdof::detail {
namespace {

constexpr int kDigits = 1 << kRadixBits;
static_assert(kDigits == 16, "the packed counters below hold 16 digits");
constexpr int kThreads = kRadixThreads;
constexpr int kItems = kRadixItems;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kHistThreads = 256;

// A thread's counts of the 16 digits, one byte each (at most 255 keys per thread). Digit
// d sits in word (d & 7) / 2, byte (d & 1) + 2 * (d >> 3): masking a word with 0x00FF00FF
// (after a shift by 0 or 8) gives digit k in the low half and digit k + 8 in the high half,
// the packed pairs the block scan works on.
struct DigitCounts {
  std::uint32_t word[4] = {0, 0, 0, 0};

  // Counts digit d; returns the count before.
  __device__ __forceinline__ std::uint32_t add(std::uint32_t d) {
    const std::uint32_t w = (d & 7) >> 1;
    const std::uint32_t shift = ((d & 1) | ((d >> 3) << 1)) * 8;
    std::uint32_t before = 0;
#pragma unroll
    for (std::uint32_t i = 0; i < 4; ++i) {
      if (i == w) {
        before = word[i];
        word[i] += 1u << shift;
      }
    }
    return (before >> shift) & 0xFFu;
  }
  // Digits k (low 16 bits) and k + 8 (high 16 bits).
  __device__ __forceinline__ std::uint32_t pair(int k) const {
    return (word[k >> 1] >> ((k & 1) * 8)) & 0x00FF00FFu;
  }
};

// The half of a packed pair word that holds digit d; `lowTotal` (the tile's keys with a
// digit below 8) is added to the high half, which counts only from digit 8 on.
__device__ __forceinline__ std::uint32_t unpair(std::uint32_t word, std::uint32_t d,
                                                std::uint32_t lowTotal) {
  return d < 8 ? (word & 0xFFFFu) : (word >> 16) + lowTotal;
}

__device__ __forceinline__ int tileCount(std::size_t n) {
  return static_cast<int>(std::min<std::size_t>(n - std::size_t{blockIdx.x} * kTile, kTile));
}

// Four keys at tile position `at` (a multiple of 4), as one 16-byte load when the
// pointer allows and all four are in the tile; missing keys read as 0.
__device__ __forceinline__ void loadFour(const std::uint32_t* tile, int at, int inTile,
                                         bool vector, std::uint32_t* out) {
  if (vector && at + 4 <= inTile) {
    const uint4 q = *reinterpret_cast<const uint4*>(tile + at);
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) out[j] = at + j < inTile ? tile[at + j] : 0u;
  }
}

// Counts are order-free, so the loads are block-striped 16-byte vectors (every warp load
// is 512 contiguous bytes) and each thread counts into its own column of shared counters,
// [digit][thread]: one shared atomic per key, never two lanes on one address, whatever
// the keys. Then warp w adds up digits w and w + 8 over the 256 columns.
__global__ void __launch_bounds__(kHistThreads)
    histogramKernel(const std::uint32_t* keys, std::size_t n, int bit, std::uint32_t mask,
                    std::uint32_t* hist, std::size_t tiles, bool vector) {
  constexpr int kVectors = kTile / (4 * kHistThreads);
  static_assert(kVectors * 4 * kHistThreads == kTile, "whole 16-byte vectors per thread");
  constexpr int kHistWarps = kHistThreads / kWarpSize;
  static_assert(kDigits == 2 * kHistWarps, "two digits per warp in the sum");
  __shared__ std::uint32_t sCount[kDigits * kHistThreads];
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;
  const int lane = tid % kWarpSize;
  const int inTile = tileCount(n);
  const std::uint32_t* src = keys + std::size_t{blockIdx.x} * kTile;

  std::uint32_t k[kVectors][4];
#pragma unroll
  for (int v = 0; v < kVectors; ++v) loadFour(src, 4 * (v * kHistThreads + tid), inTile, vector, k[v]);
#pragma unroll
  for (int d = 0; d < kDigits; ++d) sCount[d * kHistThreads + tid] = 0;
#pragma unroll
  for (int v = 0; v < kVectors; ++v)
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (4 * (v * kHistThreads + tid) + j < inTile)
        atomicAdd(&sCount[((k[v][j] >> bit) & mask) * kHistThreads + tid], 1u);
  __syncthreads();
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int d = warp + h * kHistWarps;
    std::uint32_t sum = 0;
#pragma unroll
    for (int c = lane; c < kHistThreads; c += kWarpSize) sum += sCount[d * kHistThreads + c];
    sum = warpReduce(sum, SumOp{});
    if (lane == 0) hist[std::size_t(d) * tiles + blockIdx.x] = sum;
  }
}

// The scatter's dynamic shared memory: [sorted keys | sorted values | pair words [8][threads]]
// (within the 48 KB a launch gets without opting in).
template <bool HasValues>
constexpr std::size_t scatterSharedBytes() {
  return std::size_t{kTile} * sizeof(std::uint32_t) * (HasValues ? 2 : 1) +
         std::size_t{8} * kThreads * sizeof(std::uint32_t);
}
static_assert(scatterSharedBytes<true>() + 256 <= 48 * 1024, "no opt-in for more shared memory");

// Thread t's kItems consecutive keys from tile position t * kItems, as 16-byte loads
// (lanes 4 x kItems bytes apart; a warp's loads together cover 32 x kItems contiguous keys).
__device__ __forceinline__ void loadBlocked(const std::uint32_t* tile, int inTile, bool vector,
                                            std::uint32_t (&out)[kItems]) {
  const int first = static_cast<int>(threadIdx.x) * kItems;
#pragma unroll
  for (int v = 0; v < kItems / 4; ++v) loadFour(tile, first + 4 * v, inTile, vector, &out[4 * v]);
}

template <bool HasValues>
__global__ void __launch_bounds__(kThreads, kRadixMinBlocks)
    scatterKernel(PassBuffers b, std::size_t n, int bit, std::uint32_t mask,
                  const std::uint32_t* offsets, std::size_t tiles, bool vector) {
  static_assert(kItems % 4 == 0 && kItems < 256 && kTile < 65536, "byte counts, 16-bit pairs");
  extern __shared__ uint4 sDynamic[];
  std::uint32_t* sKeys = reinterpret_cast<std::uint32_t*>(sDynamic);
  std::uint32_t* sValues = sKeys + kTile;
  std::uint32_t* sPairs = sKeys + (HasValues ? 2 : 1) * kTile;
  __shared__ std::uint32_t sWarpSums[kWarps];
  __shared__ std::uint32_t sDelta[kDigits];  // output address - tile position, per digit
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;
  const int lane = tid % kWarpSize;
  const int inTile = tileCount(n);
  const std::size_t tileStart = std::size_t{blockIdx.x} * kTile;
  const int first = tid * kItems;

  std::uint32_t keys[kItems];
  std::uint32_t values[HasValues ? kItems : 1];
  loadBlocked(b.keysSrc + tileStart, inTile, vector, keys);
  if constexpr (HasValues) loadBlocked(b.valuesSrc + tileStart, inTile, vector, values);

  // ---- the thread's own counts: each key's rank among the thread's keys of its digit,
  //      one byte each, four to a register ---------------------------------------------
  DigitCounts counts;
  std::uint32_t rank[kItems / 4];
#pragma unroll
  for (int i = 0; i < kItems / 4; ++i) rank[i] = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    if (first + i < inTile) rank[i / 4] |= counts.add((keys[i] >> bit) & mask) << (8 * (i % 4));
#pragma unroll
  for (int k = 0; k < 8; ++k) sPairs[k * kThreads + tid] = counts.pair(k);
  __syncthreads();

  // ---- exclusive scan of the pair words in (digit, thread) order: thread t scans words
  //      8t .. 8t + 7 of the flat array, the warps' and the block's sums combine them -----
  uint4* flat = reinterpret_cast<uint4*>(sPairs) + 2 * tid;
  const uint4 lo = flat[0], hi = flat[1];
  std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  std::uint32_t own = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const std::uint32_t c = w[i];
    w[i] = own;
    own += c;
  }
  const std::uint32_t inclusive = warpInclusiveScan(own, SumOp{});
  if (lane == kWarpSize - 1) sWarpSums[warp] = inclusive;
  __syncthreads();
  std::uint32_t before = inclusive - own, total = 0;
#pragma unroll
  for (int v = 0; v < kWarps; ++v) {
    const std::uint32_t s = sWarpSums[v];
    if (v < warp) before += s;
    total += s;
  }
  flat[0] = make_uint4(before + w[0], before + w[1], before + w[2], before + w[3]);
  flat[1] = make_uint4(before + w[4], before + w[5], before + w[6], before + w[7]);
  const std::uint32_t lowTotal = total & 0xFFFFu;
  __syncthreads();

  // ---- where each digit's run goes, and every key to its place in the sorted tile -----
  if (tid < kDigits)
    sDelta[tid] = offsets[std::size_t(tid) * tiles + blockIdx.x] -
                  unpair(sPairs[(tid & 7) * kThreads], tid, lowTotal);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (first + i < inTile) {
      const std::uint32_t d = (keys[i] >> bit) & mask;
      const std::uint32_t own = (rank[i / 4] >> (8 * (i % 4))) & 0xFFu;
      const std::uint32_t to = unpair(sPairs[(d & 7) * kThreads + tid], d, lowTotal) + own;
      sKeys[to] = keys[i];
      if constexpr (HasValues) sValues[to] = values[i];
    }
  }
  __syncthreads();

  // ---- scatter: consecutive threads, consecutive addresses within a digit's run -------
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int p = k * kThreads + tid;
    if (p < inTile) {
      const std::uint32_t key = sKeys[p];
      const std::size_t at = std::size_t{sDelta[(key >> bit) & mask]} + static_cast<std::uint32_t>(p);
      b.keysDst[at] = key;
      if constexpr (HasValues) b.valuesDst[at] = sValues[p];
    }
  }
}

std::size_t tilesOf(const SortArgs& args) { return (args.n + kTile - 1) / kTile; }

}  // namespace

std::size_t radix4ScratchBytes(const SortArgs& args) {
  if (args.n == 0) return 0;
  return pingPongBytes(args) + alignUp(kDigits * tilesOf(args) * sizeof(std::uint32_t)) +
         scanStepBytes(args.scan, kDigits * tilesOf(args));
}

cudaError_t radix4Launch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                         cudaStream_t stream) {
  SATDOF_TRY(validateSortArgs(args, scratch, scratchBytes, radix4ScratchBytes(args)));
  if (args.n == 0) return cudaSuccess;

  const std::size_t tiles = tilesOf(args);
  std::byte* base = static_cast<std::byte*>(scratch);
  const std::size_t pingPong = pingPongBytes(args);
  auto* hist = reinterpret_cast<std::uint32_t*>(base + pingPong);
  const std::size_t used = pingPong + alignUp(kDigits * tiles * sizeof(std::uint32_t));
  std::byte* scanScratch = base + used;
  const std::size_t scanBytes = scratchBytes - used;
  const int bits = args.endBit - args.beginBit;
  const int passes = (bits + kRadixBits - 1) / kRadixBits;

  const auto kernel = args.hasValues() ? scatterKernel<true> : scatterKernel<false>;
  const std::size_t shared =
      args.hasValues() ? scatterSharedBytes<true>() : scatterSharedBytes<false>();
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };

  return runPingPong(args, passes, scratch, stream,
                     [&](int pass, const PassBuffers& b) -> cudaError_t {
                       const int bit = args.beginBit + pass * kRadixBits;
                       const int width = std::min(kRadixBits, args.endBit - bit);
                       const std::uint32_t mask = (1u << width) - 1u;
                       // 16-byte loads need 16-byte aligned sources (tiles start at
                       // multiples of 4 keys); otherwise every load is a single word.
                       const bool vector =
                           aligned(b.keysSrc) && (b.valuesSrc == nullptr || aligned(b.valuesSrc));
                       histogramKernel<<<static_cast<unsigned>(tiles), kHistThreads, 0, stream>>>(
                           b.keysSrc, args.n, bit, mask, hist, tiles, vector);
                       SATDOF_TRY_LAUNCH();
                       SATDOF_TRY(scanStep(args.scan, hist, kDigits * tiles, scanScratch,
                                           scanBytes, stream));
                       kernel<<<static_cast<unsigned>(tiles), kThreads, shared, stream>>>(
                           b, args.n, bit, mask, hist, tiles, vector);
                       SATDOF_TRY_LAUNCH();
                       return cudaSuccess;
                     });
}

}  // namespace satdof::detail

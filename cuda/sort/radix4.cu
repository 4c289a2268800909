// sort/radix4.cu — `radix-4`: LSD radix sort with 4-bit digits, the form GPU Gems 3 points
// to after the one-bit split (39.3.3; Satish, Harris & Garland 2009). For each digit:
//   1. histogramKernel: every block counts the 16 digit values of its tile of 2048 keys
//      and writes them digit-major: hist[d * tiles + tile]           (read n)
//   2. an exclusive scan of the 16 x tiles counts, in place, with the chosen scan
//      variant: hist[d * tiles + t] becomes the first output address of tile t's keys
//      with digit d (all smaller digits of every tile, then digit d of earlier tiles)
//   3. scatterKernel: the block ranks its tile locally, stably, and scatters it:
//      * each warp owns 256 consecutive keys, 32 per round; in a round the lanes with
//        the same digit find each other with __match_any_sync, and the lowest of them
//        advances the warp's count of that digit by their number: a lane's rank among
//        its warp's keys of its digit is that count before the round + the peers on
//        lower lanes (a 16-way split in one step, where the chapter's form needs one
//        block-wide one-bit split per digit bit);
//      * the warps' counts give each digit's start in the tile and each warp's offset
//        within it; keys (and values) go to shared memory in sorted order;
//      * the key at tile position p with digit d goes to hist[d * tiles + t] +
//        (p - start of d): consecutive threads write consecutive addresses within a
//        digit's run                                 (read 2n, write 2n words with values)
// 5 words per element and digit, 8 digits: 40 words against the split form's ~250.
// The first version ranked the tile with four block-wide one-bit splits (a block scan
// each); at 2^24 pairs it took 3.0x CUB's time, see docs/PERFORMANCE.md.
//
// Scratch: [alternate keys | alternate values | hist, 16 x tiles words | the scan's].
#include <algorithm>
#include <cstdint>

#include "detail/scan_op.cuh"
#include "detail/warp_multisplit.cuh"
#include "detail/warp_scan.cuh"
#include "detail/scan_step.h"
#include "sort/variants.h"

namespace satdof::detail {
namespace {

constexpr int kThreads = kRadixThreads;
constexpr int kItems = kRadixItems;
constexpr int kTile = kThreads * kItems;
constexpr int kDigits = 1 << kRadixBits;
constexpr int kWarps = kThreads / kWarpSize;

__device__ __forceinline__ int tileCount(std::size_t n) {
  return static_cast<int>(std::min<std::size_t>(n - std::size_t{blockIdx.x} * kTile, kTile));
}

__global__ void __launch_bounds__(kThreads)
    histogramKernel(const std::uint32_t* keys, std::size_t n, int bit, std::uint32_t mask,
                    std::uint32_t* hist, std::size_t tiles) {
  __shared__ std::uint32_t counts[kWarps][kDigits];
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;
  const int lane = tid % kWarpSize;
  for (int i = tid; i < kWarps * kDigits; i += kThreads) counts[i / kDigits][i % kDigits] = 0;

  const int inTile = tileCount(n);
  const std::uint32_t* src = keys + std::size_t{blockIdx.x} * kTile;
  std::uint32_t digit[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {  // all loads first: they are in flight together
    const int e = k * kThreads + tid;
    digit[k] = e < inTile ? (src[e] >> bit) & mask : kDigits;  // kDigits: counted nowhere
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    // One shared atomic per distinct digit in the warp, carrying the number of lanes.
    const unsigned peers = __match_any_sync(kFullMask, digit[k]);
    if (digit[k] < kDigits && lane == __ffs(peers) - 1)
      atomicAdd(&counts[warp][digit[k]], static_cast<std::uint32_t>(__popc(peers)));
  }
  __syncthreads();
  if (tid < kDigits) {
    std::uint32_t sum = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += counts[w][tid];
    hist[std::size_t(tid) * tiles + blockIdx.x] = sum;
  }
}

template <bool HasValues>
__global__ void __launch_bounds__(kThreads)
    scatterKernel(PassBuffers b, std::size_t n, int bit, std::uint32_t mask,
                  const std::uint32_t* offsets, std::size_t tiles) {
  __shared__ std::uint32_t sKeys[kTile];
  __shared__ std::uint32_t sValues[HasValues ? kTile : 1];
  // Per warp and digit (column kDigits: the padding): first the running count of the
  // warp's keys with that digit, then the count of the same digit in earlier warps.
  __shared__ std::uint32_t sWarpCount[kWarps][kDigits + 1];
  __shared__ std::uint32_t sStart[kDigits];   // the digit's first position in the tile
  __shared__ std::uint32_t sOffset[kDigits];  // the digit's first output address
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;
  const int lane = tid % kWarpSize;
  const int inTile = tileCount(n);
  const std::size_t tileStart = std::size_t{blockIdx.x} * kTile;
  for (int i = tid; i < kWarps * (kDigits + 1); i += kThreads)
    sWarpCount[i / (kDigits + 1)][i % (kDigits + 1)] = 0;
  if (tid < kDigits) sOffset[tid] = offsets[std::size_t(tid) * tiles + blockIdx.x];

  // ---- load: warp w owns tile positions [w * 32 * Items, (w + 1) * 32 * Items), one
  //      coalesced row of 32 per round ---------------------------------------------------
  const int warpFirst = warp * kWarpSize * kItems + lane;
  std::uint32_t keys[kItems];
  std::uint32_t values[kItems];
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const int e = warpFirst + r * kWarpSize;
    keys[r] = e < inTile ? b.keysSrc[tileStart + e] : 0u;
    if constexpr (HasValues) values[r] = e < inTile ? b.valuesSrc[tileStart + e] : 0u;
  }
  __syncthreads();  // counters zeroed

  // ---- rank within the warp: the lanes holding the same digit find each other
  //      (__match_any_sync); the lowest of them advances the warp's count of that digit --
  std::uint32_t rank[kItems];
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const bool real = warpFirst + r * kWarpSize < inTile;
    const std::uint32_t d = real ? (keys[r] >> bit) & mask : kDigits;
    rank[r] = rankAmongPeers(__match_any_sync(kFullMask, d), &sWarpCount[warp][d]);
  }
  __syncthreads();

  // ---- per digit: counts of earlier warps, and where the digit starts in the tile -----
  if (warp == 0) {
    std::uint32_t total = 0;
    if (lane < kDigits) {
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const std::uint32_t c = sWarpCount[w][lane];
        sWarpCount[w][lane] = total;
        total += c;
      }
    }
    const std::uint32_t inclusive = warpInclusiveScan(total, SumOp{});
    if (lane < kDigits) sStart[lane] = inclusive - total;
  }
  __syncthreads();

  // ---- into shared memory at the tile's sorted position (stable: warp, round, lane) ---
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    if (warpFirst + r * kWarpSize < inTile) {
      const std::uint32_t d = (keys[r] >> bit) & mask;
      const int to = static_cast<int>(sStart[d] + sWarpCount[warp][d] + rank[r]);
      sKeys[to] = keys[r];
      if constexpr (HasValues) sValues[to] = values[r];
    }
  }
  __syncthreads();

  // ---- scatter: consecutive threads, consecutive addresses within a digit's run -------
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int p = k * kThreads + tid;
    if (p < inTile) {
      const std::uint32_t key = sKeys[p];
      const std::uint32_t d = (key >> bit) & mask;
      const std::size_t at = std::size_t{sOffset[d]} + (static_cast<std::uint32_t>(p) - sStart[d]);
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

  return runPingPong(args, passes, scratch, stream,
                     [&](int pass, const PassBuffers& b) -> cudaError_t {
                       const int bit = args.beginBit + pass * kRadixBits;
                       const int width = std::min(kRadixBits, args.endBit - bit);
                       const std::uint32_t mask = (1u << width) - 1u;
                       histogramKernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
                           b.keysSrc, args.n, bit, mask, hist, tiles);
                       SATDOF_TRY_LAUNCH();
                       SATDOF_TRY(scanStep(args.scan, hist, kDigits * tiles, scanScratch,
                                           scanBytes, stream));
                       if (args.hasValues())
                         scatterKernel<true><<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
                             b, args.n, bit, mask, hist, tiles);
                       else
                         scatterKernel<false><<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
                             b, args.n, bit, mask, hist, tiles);
                       SATDOF_TRY_LAUNCH();
                       return cudaSuccess;
                     });
}

}  // namespace satdof::detail

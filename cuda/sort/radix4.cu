// sort/radix4.cu — `radix-4`: LSD radix sort with 4-bit digits, the form GPU Gems 3 points
// to after the one-bit split (39.3.3; Satish, Harris & Garland 2009). For each digit:
//   1. histogramKernel: every block counts the 16 digit values of its tile of 2048 keys
//      and writes them digit-major: hist[d * tiles + tile]           (read n)
//   2. an exclusive scan of the 16 x tiles counts, in place, with the chosen scan
//      variant: hist[d * tiles + t] becomes the first output address of tile t's keys
//      with digit d (all smaller digits of every tile, then digit d of earlier tiles)
//   3. scatterKernel: the block ranks its tile locally by the chapter's split, once per
//      digit bit (a block scan of the 0-bit counts each time, keys and values moved in
//      shared memory), which leaves the tile sorted by digit, stably; then the key at
//      tile position p with digit d goes to hist[d * tiles + t] + (p - first p of d):
//      consecutive threads write consecutive addresses within a digit's run (read 2n,
//      write 2n words with values)
// 5 words per element and digit, 8 digits: 40 words against the split form's ~250.
// Elements past the end of the last tile take the key 0xFFFFFFFF: its digit is the
// largest, and stability keeps them behind every real key of that digit, so the tile's
// real keys are exactly its first `inTile` positions after ranking.
//
// Scratch: [alternate keys | alternate values | hist, 16 x tiles words | the scan's].
#include <algorithm>
#include <cstdint>

#include "detail/block_scan.cuh"
#include "detail/scan_op.cuh"
#include "detail/scan_step.h"
#include "sort/variants.h"

namespace satdof::detail {
namespace {

constexpr int kThreads = kRadixThreads;
constexpr int kItems = kRadixItems;
constexpr int kTile = kThreads * kItems;
constexpr int kDigits = 1 << kRadixBits;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kSlots = kTile + kTile / kWarpSize;
using BlockScan = WarpShuffleBlockScan<kThreads, std::uint32_t, SumOp>;

// Shared-memory slot of tile position e: one pad word per 32, so that the blocked reads
// (thread t, item i -> t * 8 + i) hit 32 distinct banks.
__device__ __forceinline__ int slot(int e) { return e + (e >> 5); }

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
    scatterKernel(PassBuffers b, std::size_t n, int bit, int width, const std::uint32_t* offsets,
                  std::size_t tiles) {
  __shared__ std::uint32_t sKeys[kSlots];
  __shared__ std::uint32_t sValues[HasValues ? kSlots : 1];
  __shared__ BlockScan::TempStorage scanTmp;
  __shared__ std::uint32_t sOffset[kDigits];
  __shared__ std::uint32_t sStart[kDigits];
  const int tid = static_cast<int>(threadIdx.x);
  const int inTile = tileCount(n);
  const std::size_t tileStart = std::size_t{blockIdx.x} * kTile;
  const std::uint32_t mask = (1u << width) - 1u;

  // ---- striped, coalesced load into shared memory; the padding sorts last ------------
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int e = k * kThreads + tid;
    sKeys[slot(e)] = e < inTile ? b.keysSrc[tileStart + e] : 0xFFFFFFFFu;
    if constexpr (HasValues) sValues[slot(e)] = e < inTile ? b.valuesSrc[tileStart + e] : 0u;
  }
  if (tid < kDigits) sOffset[tid] = offsets[std::size_t(tid) * tiles + blockIdx.x];
  __syncthreads();

  // ---- rank the tile: one stable split per digit bit ----------------------------------
  for (int j = 0; j < width; ++j) {
    const int splitBit = bit + j;
    std::uint32_t keys[kItems];
    std::uint32_t values[kItems];
    std::uint32_t zeros = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      keys[i] = sKeys[slot(tid * kItems + i)];
      if constexpr (HasValues) values[i] = sValues[slot(tid * kItems + i)];
      zeros += ((keys[i] >> splitBit) & 1u) ^ 1u;
    }
    std::uint32_t totalZeros;
    // Ends synchronised: every thread has read its run, shared memory may be rewritten.
    std::uint32_t zerosBefore = BlockScan::exclusiveScan(zeros, totalZeros, scanTmp, SumOp{});
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const std::uint32_t position = static_cast<std::uint32_t>(tid * kItems + i);
      const bool one = (keys[i] >> splitBit) & 1u;
      const std::uint32_t to = one ? totalZeros + (position - zerosBefore) : zerosBefore;
      zerosBefore += one ? 0u : 1u;
      sKeys[slot(static_cast<int>(to))] = keys[i];
      if constexpr (HasValues) sValues[slot(static_cast<int>(to))] = values[i];
    }
    __syncthreads();
  }

  // ---- where each digit's run starts in the ranked tile -------------------------------
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int p = k * kThreads + tid;
    if (p < inTile) {
      const std::uint32_t d = (sKeys[slot(p)] >> bit) & mask;
      if (p == 0 || ((sKeys[slot(p - 1)] >> bit) & mask) != d) sStart[d] = static_cast<std::uint32_t>(p);
    }
  }
  __syncthreads();

  // ---- scatter: consecutive threads, consecutive addresses within a digit's run -------
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int p = k * kThreads + tid;
    if (p < inTile) {
      const std::uint32_t key = sKeys[slot(p)];
      const std::uint32_t d = (key >> bit) & mask;
      const std::size_t at = std::size_t{sOffset[d]} + (static_cast<std::uint32_t>(p) - sStart[d]);
      b.keysDst[at] = key;
      if constexpr (HasValues) b.valuesDst[at] = sValues[slot(p)];
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
                             b, args.n, bit, width, hist, tiles);
                       else
                         scatterKernel<false><<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
                             b, args.n, bit, width, hist, tiles);
                       SATDOF_TRY_LAUNCH();
                       return cudaSuccess;
                     });
}

}  // namespace satdof::detail

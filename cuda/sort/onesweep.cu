// sort/onesweep.cu — `onesweep`: LSD radix sort with 8-bit digits in the onesweep form
// (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs",
// 2022): the chapter's per-digit steps (histograms, a scan of them, a stable scatter)
// with the histograms taken once for all digits and the scan over tiles done by a
// decoupled look-back inside the scatter, so that each digit is one kernel.
//   1. histogramKernel: one read of the keys counts all digits of all passes at once
//      (shared-memory histograms, added to counts[pass][256] in device memory)  (read n)
//   2. binScanKernel: one block per pass scans its 256 counts (exclusive): where each
//      digit's keys start in the output
//   3. per pass, onesweepKernel, one tile of 256 x 18 = 4608 keys per block:
//      * a tile id from an atomic counter (launch order: every earlier tile is running
//        or done, so the look-back cannot deadlock);
//      * rank the tile locally and stably: each warp owns 32 x 18 consecutive keys, 32 per
//        round; the lanes with the same digit find each other through 8 ballots (one per
//        digit bit), the lowest of them advances the warp's count of that digit
//        (detail/warp_multisplit.cuh);
//      * thread d publishes the tile's count of digit d (Aggregate), then walks back over
//        the earlier tiles' words for digit d, adding Aggregates until it meets a Prefix
//        (the count of digit d in all tiles up to that one), and publishes its own Prefix;
//      * keys are sorted into shared memory, then written out row by row: consecutive
//        threads write consecutive addresses within a digit's run; values follow through
//        the same shared memory                      (read 2n, write 2n words with values)
// Per pass 16 B/pair plus ~1 B/pair of look-back words (256 per tile: cleared, written
// twice, read at least once; mostly in L2); 4 passes for 32 bits: 68 B/pair with the
// histogram read, as CUB's onesweep (docs/PERFORMANCE.md).
//
// Look-back words (32 bits, one per tile and digit, zeroed before the sort):
//   0                NotReady
//   count + 1        Aggregate: the tile's own count of the digit (<= 4608)
//   0x80000000 | v   Prefix: the digit's count in all tiles up to and including this one
//                    (v < 2^31 since n < 2^31)
// Value and flag are one word, so one relaxed device-scope atomic publishes both (as in
// detail/lookback.cuh, whose 64-bit words would double the look-back traffic here).
//
// Scratch: [alternate keys | alternate values | look-back words, passes x tiles x 256 |
// counts, 4 x 256 | tile counters, 4 | bin starts, 4 x 256]; one memset clears all
// but the bin starts.
#include <algorithm>
#include <cstdint>

#include <cuda/atomic>

#include "detail/block_scan.cuh"
#include "detail/device_facts.h"
#include "detail/scan_op.cuh"
#include "detail/warp_multisplit.cuh"
#include "detail/warp_scan.cuh"
#include "sort/variants.h"

namespace satdof::detail {
namespace {

constexpr int kBits = kOnesweepBits;
constexpr int kDigits = 1 << kBits;
constexpr int kThreads = kOnesweepThreads;
constexpr int kItems = kOnesweepItems;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kMaxPasses = (32 + kBits - 1) / kBits;
static_assert(kThreads == kDigits, "one thread per digit in the look-back and the scans");

constexpr std::uint32_t kPrefixBit = 0x80000000u;

using BinScan = WarpShuffleBlockScan<kThreads, std::uint32_t, SumOp>;

// The digit of `key` in a pass over bits [bit, bit + width): mask = 2^width - 1.
__device__ __forceinline__ std::uint32_t digitOf(std::uint32_t key, int bit, std::uint32_t mask) {
  return (key >> bit) & mask;
}

// The mask of the digit starting at `bit` (narrower than kBits at the top of the range).
__host__ __device__ __forceinline__ std::uint32_t digitMask(int bit, int endBit) {
  const int width = endBit - bit < kBits ? endBit - bit : kBits;
  return (1u << width) - 1u;
}

// ---------------------------------------------------------------------------------------
// 1. All digit histograms in one read of the keys
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(kOnesweepHistThreads)
    histogramKernel(const std::uint32_t* keys, std::size_t n, int beginBit, int endBit,
                    std::uint32_t* counts) {
  __shared__ std::uint32_t hist[kMaxPasses][kDigits];
  const int tid = static_cast<int>(threadIdx.x);
  for (int i = tid; i < kMaxPasses * kDigits; i += kOnesweepHistThreads)
    hist[i / kDigits][i % kDigits] = 0;
  __syncthreads();

  const int passes = (endBit - beginBit + kBits - 1) / kBits;
  // Chunks of Threads x Items keys, grid-strided; a chunk's loads are issued together.
  constexpr int kChunk = kOnesweepHistThreads * kOnesweepHistItems;
  for (std::size_t chunk = std::size_t{blockIdx.x} * kChunk; chunk < n;
       chunk += std::size_t{gridDim.x} * kChunk) {
    std::uint32_t key[kOnesweepHistItems];
#pragma unroll
    for (int k = 0; k < kOnesweepHistItems; ++k) {
      const std::size_t i = chunk + std::size_t(k) * kOnesweepHistThreads + tid;
      key[k] = i < n ? keys[i] : 0u;
    }
#pragma unroll
    for (int k = 0; k < kOnesweepHistItems; ++k) {
      if (chunk + std::size_t(k) * kOnesweepHistThreads + tid >= n) break;
#pragma unroll
      for (int p = 0; p < kMaxPasses; ++p) {
        if (p < passes) {
          const int bit = beginBit + p * kBits;
          atomicAdd(&hist[p][digitOf(key[k], bit, digitMask(bit, endBit))], 1u);
        }
      }
    }
  }
  __syncthreads();
  for (int i = tid; i < passes * kDigits; i += kOnesweepHistThreads) {
    const std::uint32_t c = hist[i / kDigits][i % kDigits];
    if (c != 0) atomicAdd(&counts[i], c);
  }
}

// ---------------------------------------------------------------------------------------
// 2. The scan of the histograms: where digit d's keys start, one block per pass
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(kThreads)
    binScanKernel(const std::uint32_t* counts, std::uint32_t* binStart) {
  __shared__ BinScan::TempStorage tmp;
  const std::size_t at = std::size_t{blockIdx.x} * kDigits + threadIdx.x;
  std::uint32_t total = 0;
  binStart[at] = BinScan::exclusiveScan(counts[at], total, tmp, SumOp{});
}

// ---------------------------------------------------------------------------------------
// 3. One pass: rank the tile, look back over the digit counts, scatter
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ void publish(std::uint32_t* word, std::uint32_t value) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> ref(*word);
  ref.store(value, cuda::memory_order_relaxed);
}

__device__ __forceinline__ std::uint32_t readWord(std::uint32_t* word) {
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device> ref(*word);
  return ref.load(cuda::memory_order_relaxed);
}

// The count of digit d in all tiles before `tile` (thread d's walk).
__device__ std::uint32_t lookBack(std::uint32_t* status, std::size_t tile, int d) {
  std::uint32_t exclusive = 0;
  for (std::size_t t = tile; t-- > 0;) {
    std::uint32_t word;
    do {
      word = readWord(status + t * kDigits + d);
    } while (word == 0);
    if (word & kPrefixBit) return exclusive + (word & ~kPrefixBit);
    exclusive += word - 1u;
  }
  return exclusive;
}

struct PassArgs {
  std::size_t n;
  int bit;
  std::uint32_t mask;
  const std::uint32_t* binStart;  // this pass's 256 digit starts
  std::uint32_t* status;          // this pass's tiles x 256 look-back words
  std::uint32_t* tileCounter;     // this pass's tile ticket
};

template <bool HasValues>
__global__ void __launch_bounds__(kThreads)
    onesweepKernel(PassBuffers b, PassArgs a) {
  __shared__ std::uint32_t sStage[kTile];  // the tile's keys, then values, in sorted order
  // Per warp and digit: first the running count of the warp's keys with that digit, then
  // the count of the same digit in earlier warps.
  __shared__ std::uint32_t sWarpCount[kWarps][kDigits];
  __shared__ std::uint32_t sDigitStart[kDigits];  // the digit's first position in the tile
  __shared__ std::uint32_t sToGlobal[kDigits];    // output address - tile position
  __shared__ BinScan::TempStorage sScan;
  __shared__ std::uint32_t sTile;
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;
  const int lane = tid % kWarpSize;

  if (tid == 0) sTile = atomicAdd(a.tileCounter, 1u);
#pragma unroll
  for (int w = 0; w < kWarps; ++w) sWarpCount[w][tid] = 0;
  __syncthreads();
  const std::size_t tile = sTile;
  const std::size_t tileStart = tile * kTile;
  const int inTile = static_cast<int>(std::min<std::size_t>(a.n - tileStart, kTile));

  // ---- load: warp w owns tile positions [w * 32 * Items, (w + 1) * 32 * Items), one
  //      coalesced row of 32 per round. Positions past the end get the key ~0u: digit
  //      255 of every pass, so they rank after every real key and are never written -----
  const int warpFirst = warp * kWarpSize * kItems + lane;
  std::uint32_t keys[kItems];
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const int e = warpFirst + r * kWarpSize;
    keys[r] = e < inTile ? b.keysSrc[tileStart + e] : ~0u;
  }

  // ---- rank within the warp: the lanes with the same digit find each other (one ballot
  //      per digit bit); the lowest of them advances the warp's count of that digit ------
  std::uint32_t rank[kItems];
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const std::uint32_t d = inTile == kTile || warpFirst + r * kWarpSize < inTile
                                ? digitOf(keys[r], a.bit, a.mask)
                                : kDigits - 1;
    rank[r] = rankAmongPeers(matchDigitBallots<kBits>(d), &sWarpCount[warp][d]);
  }
  __syncthreads();

  // ---- thread d: the digit's count in the tile (earlier warps' counts in place), its
  //      Aggregate published at once, its start in the tile (a block scan) -------------
  std::uint32_t count = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const std::uint32_t c = sWarpCount[w][tid];
    sWarpCount[w][tid] = count;
    count += c;
  }
  // The padding keys counted under digit 255 are no real keys of any tile.
  const std::uint32_t padding = static_cast<std::uint32_t>(kTile - inTile);
  const std::uint32_t realCount = tid == kDigits - 1 ? count - padding : count;
  std::uint32_t* const myWord = a.status + tile * kDigits + tid;
  if (tile == 0) {
    publish(myWord, kPrefixBit | realCount);
  } else {
    publish(myWord, realCount + 1u);
  }
  std::uint32_t tileTotal = 0;
  const std::uint32_t start = BinScan::exclusiveScan(count, tileTotal, sScan, SumOp{});
  sDigitStart[tid] = start;

  // ---- look back: the digit's count in all earlier tiles; then this tile's Prefix ----
  if (tile > 0) {
    const std::uint32_t before = lookBack(a.status, tile, tid);
    publish(myWord, kPrefixBit | (before + realCount));
    sToGlobal[tid] = a.binStart[tid] + before - start;
  } else {
    sToGlobal[tid] = a.binStart[tid] - start;
  }
  __syncthreads();

  // ---- keys into shared memory at their sorted tile positions (stable: warp, round,
  //      lane); padding keys land past inTile ------------------------------------------
#pragma unroll
  for (int r = 0; r < kItems; ++r) {
    const std::uint32_t d = digitOf(keys[r], a.bit, a.mask);
    const bool real = inTile == kTile || warpFirst + r * kWarpSize < inTile;
    const std::uint32_t dd = real ? d : kDigits - 1;
    rank[r] += sDigitStart[dd] + sWarpCount[warp][dd];  // now the sorted tile position
    sStage[rank[r]] = keys[r];
  }
  [[maybe_unused]] std::uint32_t values[kItems];
  if constexpr (HasValues) {
#pragma unroll
    for (int r = 0; r < kItems; ++r) {
      const int e = warpFirst + r * kWarpSize;
      values[r] = e < inTile ? b.valuesSrc[tileStart + e] : 0u;
    }
  }
  __syncthreads();

  // ---- scatter keys: row k, consecutive threads, consecutive addresses in a digit's run
  std::uint32_t to[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const int p = k * kThreads + tid;
    const std::uint32_t key = sStage[p];
    to[k] = sToGlobal[digitOf(key, a.bit, a.mask)] + static_cast<std::uint32_t>(p);
    if (p < inTile) b.keysDst[to[k]] = key;
  }
  if constexpr (HasValues) {
    // ---- values: the same way through the same shared memory -------------------------
    __syncthreads();
#pragma unroll
    for (int r = 0; r < kItems; ++r) sStage[rank[r]] = values[r];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const int p = k * kThreads + tid;
      if (p < inTile) b.valuesDst[to[k]] = sStage[p];
    }
  }
}

// ---------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------
struct Layout {
  std::size_t tiles = 0;
  int passes = 0;
  std::size_t statusOffset = 0;  // look-back words, then counts, then tile counters
  std::size_t clearBytes = 0;    // from statusOffset: what the memset clears
  std::size_t countsOffset = 0;
  std::size_t countersOffset = 0;
  std::size_t binStartOffset = 0;
  std::size_t total = 0;
};

Layout layoutOf(const SortArgs& args) {
  Layout l;
  l.tiles = (args.n + kTile - 1) / kTile;
  l.passes = (args.endBit - args.beginBit + kBits - 1) / kBits;
  const std::size_t word = sizeof(std::uint32_t);
  l.statusOffset = pingPongBytes(args);
  l.countsOffset = l.statusOffset + std::size_t(l.passes) * l.tiles * kDigits * word;
  l.countersOffset = l.countsOffset + kMaxPasses * kDigits * word;
  l.clearBytes = l.countersOffset + kMaxPasses * word - l.statusOffset;
  l.binStartOffset = alignUp(l.countersOffset + kMaxPasses * word);
  l.total = alignUp(l.binStartOffset + kMaxPasses * kDigits * word);
  return l;
}

}  // namespace

std::size_t onesweepScratchBytes(const SortArgs& args) {
  if (args.n == 0) return 0;
  return layoutOf(args).total;
}

cudaError_t onesweepLaunch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                           cudaStream_t stream) {
  SATDOF_TRY(validateSortArgs(args, scratch, scratchBytes, onesweepScratchBytes(args)));
  if (args.n == 0) return cudaSuccess;
  const Layout l = layoutOf(args);
  std::byte* base = static_cast<std::byte*>(scratch);
  auto* status = reinterpret_cast<std::uint32_t*>(base + l.statusOffset);
  auto* counts = reinterpret_cast<std::uint32_t*>(base + l.countsOffset);
  auto* counters = reinterpret_cast<std::uint32_t*>(base + l.countersOffset);
  auto* binStart = reinterpret_cast<std::uint32_t*>(base + l.binStartOffset);

  if (l.passes > 0) {
    DeviceFacts facts;
    SATDOF_TRY(currentDeviceFacts(facts));
    SATDOF_TRY(cudaMemsetAsync(status, 0, l.clearBytes, stream));
    // Enough blocks to fill the device (8 of 256 threads per SM), fewer for small inputs.
    const std::size_t perBlock = std::size_t{kOnesweepHistThreads} * kOnesweepHistItems;
    const std::size_t blocks = std::min<std::size_t>((args.n + perBlock - 1) / perBlock,
                                                     std::size_t(facts.sms) * 8);
    histogramKernel<<<static_cast<unsigned>(blocks), kOnesweepHistThreads, 0, stream>>>(
        args.keysIn, args.n, args.beginBit, args.endBit, counts);
    SATDOF_TRY_LAUNCH();
    binScanKernel<<<static_cast<unsigned>(l.passes), kThreads, 0, stream>>>(counts, binStart);
    SATDOF_TRY_LAUNCH();
  }

  return runPingPong(args, l.passes, scratch, stream,
                     [&](int pass, const PassBuffers& b) -> cudaError_t {
                       PassArgs a;
                       a.n = args.n;
                       a.bit = args.beginBit + pass * kBits;
                       a.mask = digitMask(a.bit, args.endBit);
                       a.binStart = binStart + std::size_t(pass) * kDigits;
                       a.status = status + std::size_t(pass) * l.tiles * kDigits;
                       a.tileCounter = counters + pass;
                       const auto grid = static_cast<unsigned>(l.tiles);
                       if (args.hasValues())
                         onesweepKernel<true><<<grid, kThreads, 0, stream>>>(b, a);
                       else
                         onesweepKernel<false><<<grid, kThreads, 0, stream>>>(b, a);
                       SATDOF_TRY_LAUNCH();
                       return cudaSuccess;
                     });
}

}  // namespace satdof::detail

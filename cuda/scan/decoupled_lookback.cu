// scan/decoupled_lookback.cu — `decoupled-lookback`: the single-pass scan of Merrill &
// Garland (2016), the algorithm behind CUB's DeviceScan.
//
// The hierarchy variants move each element four times (read, write, read and write again
// for the uniform add) plus the sums levels. This one reads every element once and
// writes it once, in a single kernel:
//   1. a block takes the next tile id from an atomic counter (launch order, which is what
//      makes the look-back deadlock-free) and maps it to (row, tile within row);
//   2. its warps load the tile coalesced (16-byte vectors when possible) and transpose
//      it through shared memory so every thread holds 32 consecutive elements;
//   3. threads reduce their runs, a warp-shuffle block scan combines the run totals;
//   4. thread 0 publishes the tile's aggregate; warp 0 waits a moment (the predecessors
//      are still at work: polling at once only adds L2 traffic), looks back over the
//      predecessors of the same row (detail/lookback.cuh) and publishes the inclusive
//      prefix;
//   5. threads rescan their runs seeded with tile prefix + run prefix, and the warps
//      transpose back and store coalesced.
// Batches: tile ids run over all rows (row = id / tilesPerRow); a row's look-back stops
// at its first tile. Rows that fit in one tile need no look-back at all: no status
// words, no counter, no memset (the SAT's 4K row pass is such a batch).
//
// Scratch: [tile counter | pad to 256 B | one 64-bit status word per tile], zeroed by one
// cudaMemsetAsync before the kernel.
#include "detail/device_facts.h"
#include "scan/decoupled_lookback.cuh"
#include "scan/variants.h"

namespace satdof::detail {

LookbackDelays lookbackDelaysFor(std::size_t tiles, int threadsPerTile) {
  DeviceFacts device;
  const bool known = currentDeviceFacts(device) == cudaSuccess;
  const std::size_t oneWave =
      known ? std::size_t(device.sms) * std::size_t(device.maxThreadsPerSm / threadsPerTile) : 0;
  return {tiles > oneWave ? kDecoupledLookbackFirstPollNs : kDecoupledLookbackFirstPollOneWaveNs,
          kDecoupledLookbackPollNs};
}

namespace {
constexpr int kThreads = kDecoupledLookbackTuning.threadsPerBlock;
constexpr int kItems = kDecoupledLookbackTuning.itemsPerThread;

LookbackDelays delaysFor(std::size_t tiles) { return lookbackDelaysFor(tiles, kThreads); }
}  // namespace

std::size_t decoupledLookbackScratchBytes(const ScanArgs& args) {
  return makeLookbackPlan(args, kThreads * kItems).scratch;
}

cudaError_t decoupledLookbackLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                                    cudaStream_t stream) {
  return launchDecoupledLookback<kThreads, kItems>(args, scratch, scratchBytes, delaysFor,
                                                   stream);
}

}  // namespace satdof::detail

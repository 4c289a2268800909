// sort/split_scan.cu — `split-scan`: radix sort as GPU Gems 3 (39.3.2) builds it from the
// split primitive, one key bit per pass. For bit b:
//   1. flagsKernel:   e[i] = 1 where bit b of key i is 0              (read n, write n)
//   2. an exclusive scan of e, in place, with the chosen scan variant: f[i] is the number
//      of 0-bit keys before i, i.e. where key i goes if its bit is 0  (read n, write n)
//   3. splitScatterKernel: totalFalses = f[n-1] + e[n-1]; a key with bit 1 goes to
//      t[i] = i - f[i] + totalFalses, a key with bit 0 to f[i]; its value goes along
//                                                    (read 3n (+n values), write n (+n))
// Each split is stable, so the sequence of splits from the low bit up is a stable LSD
// radix sort. A 32-bit key takes 32 passes of ~7-9 words per element: the textbook form
// moves about ten times the bytes of a 4-bit-digit sort, which is why it lands where it
// does (docs/PERFORMANCE.md).
//
// Scratch: [alternate keys | alternate values | flags, n words | the scan's scratch].
#include <cstdint>

#include "detail/scan_step.h"
#include "sort/variants.h"

namespace satdof::detail {
namespace {

__global__ void __launch_bounds__(kSplitThreads)
    flagsKernel(const std::uint32_t* keys, std::uint32_t* flags, std::size_t n, int bit) {
  const std::size_t i = std::size_t{blockIdx.x} * kSplitThreads + threadIdx.x;
  if (i < n) flags[i] = ((keys[i] >> bit) & 1u) ^ 1u;
}

__global__ void __launch_bounds__(kSplitThreads)
    splitScatterKernel(PassBuffers b, const std::uint32_t* falsesBefore, std::size_t n, int bit) {
  const std::size_t i = std::size_t{blockIdx.x} * kSplitThreads + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t totalFalses =
      falsesBefore[n - 1] + (((b.keysSrc[n - 1] >> bit) & 1u) ^ 1u);
  const std::uint32_t key = b.keysSrc[i];
  const std::uint32_t f = falsesBefore[i];
  const std::size_t at = ((key >> bit) & 1u) ? i - f + totalFalses : f;
  b.keysDst[at] = key;
  if (b.valuesDst != nullptr) b.valuesDst[at] = b.valuesSrc[i];
}

}  // namespace

std::size_t splitScanScratchBytes(const SortArgs& args) {
  if (args.n == 0) return 0;
  return pingPongBytes(args) + alignUp(args.n * sizeof(std::uint32_t)) +
         scanStepBytes(args.scan, args.n);
}

cudaError_t splitScanLaunch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  SATDOF_TRY(validateSortArgs(args, scratch, scratchBytes, splitScanScratchBytes(args)));
  if (args.n == 0) return cudaSuccess;

  std::byte* base = static_cast<std::byte*>(scratch);
  const std::size_t pingPong = pingPongBytes(args);
  auto* flags = reinterpret_cast<std::uint32_t*>(base + pingPong);
  const std::size_t used = pingPong + alignUp(args.n * sizeof(std::uint32_t));
  std::byte* scanScratch = base + used;
  const std::size_t scanBytes = scratchBytes - used;
  const unsigned blocks = static_cast<unsigned>((args.n + kSplitThreads - 1) / kSplitThreads);

  return runPingPong(args, args.endBit - args.beginBit, scratch, stream,
                     [&](int pass, const PassBuffers& b) -> cudaError_t {
                       const int bit = args.beginBit + pass;
                       flagsKernel<<<blocks, kSplitThreads, 0, stream>>>(b.keysSrc, flags,
                                                                         args.n, bit);
                       SATDOF_TRY_LAUNCH();
                       SATDOF_TRY(scanStep(args.scan, flags, args.n, scanScratch, scanBytes,
                                           stream));
                       splitScatterKernel<<<blocks, kSplitThreads, 0, stream>>>(b, flags,
                                                                                args.n, bit);
                       SATDOF_TRY_LAUNCH();
                       return cudaSuccess;
                     });
}

}  // namespace satdof::detail

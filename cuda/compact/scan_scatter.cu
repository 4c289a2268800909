// compact/scan_scatter.cu — `scan-scatter`: stream compaction as GPU Gems 3 (39.3.1)
// writes it, in three steps over the whole array:
//   1. flagsKernel: flags[i] = pred(in[i]) ? 1 : 0            (read n, write n words)
//   2. an exclusive scan of the flags, in place, with the chosen scan variant: flags[i]
//      becomes the output address of element i if it is selected  (read n, write n)
//   3. scatterKernel: every selected element goes to out[flags[i]] (and i to
//      indices[flags[i]]); the last element also writes the count, address + flag
//                                                                (read 2n, write s)
// Stable by construction: addresses grow with i. 5n + s words move (plus what the scan
// moves beyond its 2n), against n + s for the single pass: the price of the scan being
// a separate, reusable step.
//
// Scratch: [flags, n words | pad to 256 B | the scan's scratch].
#include <cstdint>

#include "compact/variants.h"
#include "detail/scan_step.h"

namespace satdof::detail {
namespace {

__global__ void __launch_bounds__(kCompactStreamThreads)
    flagsKernel(const std::uint32_t* in, std::uint32_t* flags, std::size_t n, Predicate pred) {
  const std::size_t i = std::size_t{blockIdx.x} * kCompactStreamThreads + threadIdx.x;
  if (i < n) flags[i] = pred(in[i]) ? 1u : 0u;
}

__global__ void __launch_bounds__(kCompactStreamThreads)
    scatterKernel(const std::uint32_t* in, const std::uint32_t* addresses, std::size_t n,
                  Predicate pred, std::uint32_t* out, std::uint32_t* indices,
                  std::uint32_t* count) {
  const std::size_t i = std::size_t{blockIdx.x} * kCompactStreamThreads + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t v = in[i];
  const bool selected = pred(v);
  const std::uint32_t at = addresses[i];
  if (selected) {
    if (out) out[at] = v;
    if (indices) indices[at] = static_cast<std::uint32_t>(i);
  }
  if (i == n - 1) *count = at + (selected ? 1u : 0u);
}

}  // namespace

std::size_t scanScatterScratchBytes(const CompactArgs& args) {
  if (args.n == 0) return 0;
  return alignUp(args.n * sizeof(std::uint32_t)) + scanStepBytes(args.scan, args.n);
}

cudaError_t scanScatterLaunch(const CompactArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream) {
  const std::size_t required = scanScatterScratchBytes(args);
  SATDOF_TRY(validateCompactArgs(args, scratch, scratchBytes, required));
  if (args.n == 0) return writeEmptyCount(args, stream);

  auto* flags = static_cast<std::uint32_t*>(scratch);
  const std::size_t flagBytes = alignUp(args.n * sizeof(std::uint32_t));
  std::byte* scanScratch = static_cast<std::byte*>(scratch) + flagBytes;
  const std::size_t scanBytes = scratchBytes - flagBytes;
  const unsigned blocks = static_cast<unsigned>(
      (args.n + kCompactStreamThreads - 1) / kCompactStreamThreads);

  flagsKernel<<<blocks, kCompactStreamThreads, 0, stream>>>(args.in, flags, args.n,
                                                            args.predicate);
  SATDOF_TRY_LAUNCH();
  SATDOF_TRY(scanStep(args.scan, flags, args.n, scanScratch, scanBytes, stream));
  scatterKernel<<<blocks, kCompactStreamThreads, 0, stream>>>(
      args.in, flags, args.n, args.predicate, args.out, args.indices, args.count);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace satdof::detail

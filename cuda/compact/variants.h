// compact/variants.h — the compaction variants' entry points and tuning, shared by each
// variant's .cu and registry.cpp, plus the argument checks every launch() starts with.
// Private to cuda/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>

#include "satdof/compact.h"
#include "satdof/cuda_check.h"

namespace satdof::detail {

// `scan-scatter`: the flag and scatter kernels are plain streaming kernels, one element
// per thread.
inline constexpr int kCompactStreamThreads = 256;
// `single-pass`: the scan's tile (scan/variants.h, kDecoupledLookbackTuning: 128 x 32,
// measured there), and its look-back waits; the selected values of a tile are gathered
// in shared memory and stored contiguously, so a 4096-element tile also makes long runs.
inline constexpr int kSinglePassCompactThreads = 128;
inline constexpr int kSinglePassCompactItems = 32;

// Checks shared by every variant: count is required; n fits the 32-bit indices.
inline cudaError_t validateCompactArgs(const CompactArgs& args, const void* scratch,
                                       std::size_t scratchBytes, std::size_t requiredBytes) {
  if (args.count == nullptr) return cudaErrorInvalidValue;
  if (args.n > std::numeric_limits<std::uint32_t>::max()) return cudaErrorInvalidValue;
  if (args.n == 0) return cudaSuccess;
  if (args.in == nullptr || !isValid(args.predicate.kind)) return cudaErrorInvalidValue;
  if (requiredBytes > 0 && (scratch == nullptr || scratchBytes < requiredBytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

// n == 0: the count is still written.
inline cudaError_t writeEmptyCount(const CompactArgs& args, cudaStream_t stream) {
  return cudaMemsetAsync(args.count, 0, sizeof(std::uint32_t), stream);
}

std::size_t scanScatterScratchBytes(const CompactArgs& args);
cudaError_t scanScatterLaunch(const CompactArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream);
std::size_t singlePassCompactScratchBytes(const CompactArgs& args);
cudaError_t singlePassCompactLaunch(const CompactArgs& args, void* scratch,
                                    std::size_t scratchBytes, cudaStream_t stream);
std::size_t cubSelectScratchBytes(const CompactArgs& args);
cudaError_t cubSelectLaunch(const CompactArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream);

}  // namespace satdof::detail

// detail/scan_step.h — one in-place exclusive scan of a uint32 array through the scan
// registry: the step the compaction (flags -> addresses) and the sorts (split flags,
// digit histograms -> offsets) share. `variant` nullptr means defaultScanVariant().
// Host-only (plain C++), private to cuda/.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "satdof/scan.h"

namespace satdof::detail {

inline const ScanVariant& scanOrDefault(const ScanVariant* variant) {
  return variant ? *variant : defaultScanVariant();
}

inline ScanArgs exclusiveInPlace(std::uint32_t* data, std::size_t n) {
  ScanArgs s;
  s.in = data;
  s.out = data;
  s.length = n;
  s.type = ScanType::U32;
  s.op = ScanOp::Exclusive;
  return s;
}

// Scratch the step needs for n elements.
inline std::size_t scanStepBytes(const ScanVariant* variant, std::size_t n) {
  return scanOrDefault(variant).scratchBytes(exclusiveInPlace(nullptr, n));
}

inline cudaError_t scanStep(const ScanVariant* variant, std::uint32_t* data, std::size_t n,
                            void* scratch, std::size_t scratchBytes, cudaStream_t stream) {
  return scanOrDefault(variant).launch(exclusiveInPlace(data, n),
                                       scratchBytes ? scratch : nullptr, scratchBytes, stream);
}

}  // namespace satdof::detail

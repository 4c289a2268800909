// cuda/sat/algorithms.h — the SAT algorithms' entry points, one .cu each, listed by
// registry.cpp (private to cuda/; the public contract is satdof/sat.h).
#pragma once

#include "satdof/sat.h"

namespace satdof::detail {

struct SatShape {
  int width = 0;
  int height = 0;
};

// The scan variant an algorithm that scans rows runs with.
inline const ScanVariant& scanOf(const SatArgs& args) {
  return args.scan ? *args.scan : defaultScanVariant();
}

std::size_t rowsTransposeRowsScratchBytes(const SatArgs& args);
cudaError_t rowsTransposeRowsLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                                    cudaStream_t stream);
std::size_t rowsColumnsScratchBytes(const SatArgs& args);
cudaError_t rowsColumnsLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream);
std::size_t reduceThenScanScratchBytes(const SatArgs& args);
cudaError_t reduceThenScanLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                                 cudaStream_t stream);
std::size_t singlePassScratchBytes(const SatArgs& args);
cudaError_t singlePassLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                             cudaStream_t stream);

}  // namespace satdof::detail

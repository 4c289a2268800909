// cuda/sat/algorithms.h — the SAT algorithms' entry points, one .cu each, listed by
// registry.cpp (private to cuda/; the public contract is satdof/sat.h).
#pragma once

#include "satdof/sat.h"

namespace satdof::detail {

struct SatShape {
  int width = 0;
  int height = 0;
};

// The scan variant an algorithm runs with.
inline const ScanVariant& scanOf(const SatArgs& args) {
  return args.scan ? *args.scan : defaultSatScanVariant();
}

using SatLaunch = cudaError_t (*)(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                                  cudaStream_t stream);

// The algorithms whose kernels are templates on a scan policy (detail/scan_policy/),
// instantiated once per scan variant, one file each in sat/by_scan/.
struct SatKernelsOfScan {
  std::string_view scan;  // the ScanVariant's name
  SatLaunch reduceThenScan;
  SatLaunch singlePass;
};
extern const SatKernelsOfScan kSatKernelsHillisSteele;
extern const SatKernelsOfScan kSatKernelsBlelloch;
extern const SatKernelsOfScan kSatKernelsBlellochConflictFree;
extern const SatKernelsOfScan kSatKernelsBlelloch8PerThread;
extern const SatKernelsOfScan kSatKernelsWarpShuffle;
extern const SatKernelsOfScan kSatKernelsDecoupledLookback;
extern const SatKernelsOfScan kSatKernelsCub;

// The instantiation for `scan` (by name); nullptr for a variant outside the registry.
const SatKernelsOfScan* satKernelsOf(const ScanVariant& scan);

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

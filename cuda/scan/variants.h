// scan/variants.h — the scan variants' entry points and tuning, shared by each variant's
// .cu (which implements them) and registry.cpp (which lists them). Private to cuda/.
//
// The tuning values live here, next to each other, so the registry prints exactly the
// launch shape the kernels are compiled with. Measurements behind them are noted per value.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "satdof/scan.h"

namespace satdof::detail {

// Naive block scan: one element per thread, two shared buffers of 512 (4 KiB). 512
// threads keeps four blocks per SM resident; the algorithm's n log n work, not
// occupancy, bounds it.
inline constexpr ScanTuning kHillisSteeleTuning{512, 1};
// Two elements per thread as in the chapter: 512 threads scan a 1024-element tile.
inline constexpr ScanTuning kBlellochTuning{512, 2};
inline constexpr ScanTuning kBlellochConflictFreeTuning{512, 2};
// Eight elements per thread (two 16-byte vectors), 256 threads: 2048-element tiles; the
// Blelloch tree then scans only 256 per-thread totals.
inline constexpr ScanTuning kBlelloch8Tuning{256, 8};
// One 16-byte vector per thread, 512 threads (16 warps): 2048-element tiles, so a warp's
// loads cover 512 contiguous bytes.
inline constexpr ScanTuning kWarpShuffleTuning{512, 4};
// Single pass: 256 threads x 16 items = 4096-element tiles. Long runs per thread
// amortise the look-back (one per 16 KiB tile) and the block scan; 16 is the largest
// power of two that keeps the warp transposes conflict-free (see warp_exchange.cuh) and
// the kernel at 4 blocks (1024 threads) per SM within the register file. CUB's Hopper
// tuning for 4-byte sums (128 x 24) is the other shape worth timing.
inline constexpr ScanTuning kDecoupledLookbackTuning{256, 16};
// CUB picks its own policy per architecture (on Hopper, 4-byte sums: 128 x 24); printed
// as "library-tuned".
inline constexpr ScanTuning kCubTuning{0, 0};

std::size_t hillisSteeleScratchBytes(const ScanArgs& args);
cudaError_t hillisSteeleLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                               cudaStream_t stream);
std::size_t blellochScratchBytes(const ScanArgs& args);
cudaError_t blellochLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                           cudaStream_t stream);
std::size_t blellochConflictFreeScratchBytes(const ScanArgs& args);
cudaError_t blellochConflictFreeLaunch(const ScanArgs& args, void* scratch,
                                       std::size_t scratchBytes, cudaStream_t stream);
std::size_t blelloch8ScratchBytes(const ScanArgs& args);
cudaError_t blelloch8Launch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream);
std::size_t warpShuffleScratchBytes(const ScanArgs& args);
cudaError_t warpShuffleLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream);
std::size_t decoupledLookbackScratchBytes(const ScanArgs& args);
cudaError_t decoupledLookbackLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                                    cudaStream_t stream);
std::size_t cubScratchBytes(const ScanArgs& args);
cudaError_t cubLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                      cudaStream_t stream);

}  // namespace satdof::detail

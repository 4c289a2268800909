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
// Eight elements per thread (two 16-byte vectors), 64 threads: 512-element tiles; the
// Blelloch tree then scans only 64 per-thread totals in 12 barriers. bench/scan_tuning.cu
// on the H200, 2^28, reduce-then-scan: 64 threads 54 % of copy, 128 49 %, 256 37 %,
// 32 39 % (fewer barriers per element win until a block is a single warp).
inline constexpr ScanTuning kBlelloch8Tuning{64, 8};
// One 16-byte vector per thread, 512 threads (16 warps): 2048-element tiles, so a warp's
// loads cover 512 contiguous bytes.
inline constexpr ScanTuning kWarpShuffleTuning{512, 4};
// Single pass: 128 threads x 32 items = 4096-element tiles (a 4K SAT row is one tile).
// bench/scan_tuning.cu on the H200, 2^28 uint32 (docs/PERFORMANCE.md): 32 items per
// thread beat 8, 12, 16, 24 and 40 (one look-back and one block scan per 16 KiB, and
// 32 keeps the warp transposes conflict-free, see warp_exchange.cuh); 128 threads beat
// 64 and 256 at 4096 elements.
inline constexpr ScanTuning kDecoupledLookbackTuning{128, 32};
// Look-back waits in ns (detail/lookback.cuh, LookbackDelays). Waiting before the first
// poll was worth more than the tile shape: 0 -> 3000 ns took 2^28 from 71 % to 82 % of
// copy (6000 ns is too long: tiles then idle). A grid that is resident in one wave
// (every tile starts at once) waits less: 1000 ns was best at 2^20 and 2^22.
inline constexpr unsigned kDecoupledLookbackFirstPollNs = 3000;
inline constexpr unsigned kDecoupledLookbackFirstPollOneWaveNs = 1000;
inline constexpr unsigned kDecoupledLookbackPollNs = 128;
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

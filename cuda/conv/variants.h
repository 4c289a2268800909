// conv/variants.h — the convolution variants' entry points and launch shapes, shared by
// each variant's .cu (which implements them) and registry.cpp (which lists them).
// Private to cuda/.
//
// The launch shapes are spelled once here so that the registry prints what the kernels
// are compiled with; the reasoning behind each number sits next to it. The book kernels'
// shapes, and separable's and sat-box's, come from satdof/conv_tiles.h, which the lesson's
// traces share.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "satdof/conv2d.h"
#include "satdof/conv_tiles.h"

namespace satdof::conv {

// ---- launch shapes -------------------------------------------------------------------

// Book baselines: one thread per output pixel, 32x8 blocks (a warp spans one row of 32
// pixels, so every tap's load is one 128-byte line).
inline constexpr int kPixelBlockX = conv_tiles::kPixelBlockX;
inline constexpr int kPixelBlockY = conv_tiles::kPixelBlockY;

// Tiled (halo in shared memory): 256 threads, each computing 8 rows x 2 columns, so a
// 64x64 output tile; the input tile is (64 + 2r)^2 (35 KiB at r = 15), which lets every
// radius 1..15 run. Every loaded pixel feeds up to 16 outputs from registers: at r = 2
// that is 4.5 shared loads and conversions per output instead of 25. 80 registers
// (ptxas, sm_90, no spills at any radius): three blocks, 24 warps per SM.
inline constexpr int kTiledRowsPerThread = conv_tiles::kTiledRowsPerThread;
inline constexpr int kTiledColsPerThread = conv_tiles::kTiledColsPerThread;
// Taps are fully unrolled (weights as constant-bank operands) up to this radius; above,
// the input-row loop stays rolled and weights come from shared memory, keeping the code
// a few thousand instructions long.
inline constexpr int kTiledUnrollMaxRadius = conv_tiles::kTiledUnrollMaxRadius;

// Tiled with the halo from cache: 256 threads, 8 rows x 1 column each, 32x64 output tile
// in shared memory; halo cells come from global memory through L1.
inline constexpr int kCachedRowsPerThread = conv_tiles::kCachedRowsPerThread;

// Separable, fused: each warp walks down a strip 32 columns wide on its own (no block
// barrier), 16 rows per step: 16 outputs per thread and pass, the float intermediate in a
// per-warp shared-memory ring of 16 + 2r rows rounded up to whole steps (16 KiB up to
// r = 8, 24 KiB above). 4 warps per block, on 4 adjacent strips: measured faster than 1
// or 2 (0.080 against 0.094 ms at r = 7 on an H200), presumably because neighbouring
// strips share their halo columns in L1. 3 blocks per SM (12 warps) for the register cap:
// 128 registers up to r = 9, 168 above, no spills.
inline constexpr int kSeparableChunkRows = conv_tiles::kSeparableChunkRows;
inline constexpr int kSeparableWarpsPerBlock = conv_tiles::kSeparableWarpsPerBlock;
inline constexpr int kSeparableMinBlocks = 3;

// SAT box: 128 threads own a strip 128 columns wide (a thread per column in the column
// pass; a warp per row in the row pass, 160 >= 128 + 2r input columns) and walk down
// kSatChunkRows rows of it. Each chunk also reads the 2r rows around it, so chunks are
// tall, yet at 4K 30 x 17 = 510 blocks still fill 132 SMs at 4 blocks each in one wave
// (160 and 192 rows measured slower; shorter chunks re-read more rows). Steps of 16
// rows: each warp's 4 rows give its scans independent work, with two barriers per 16
// rows (8-row steps measured ~25% slower). One thread per column (4 channels) rather
// than two (one per channel pair) saves instructions per pixel. ptxas, sm_90: 127-128 registers, no
// spills; shared memory 32 KiB (r <= 7) or 48 KiB: 4 blocks, 16 warps per SM.
inline constexpr int kSatStripWidth = conv_tiles::kSatStripWidth;
inline constexpr int kSatChunkRows = conv_tiles::kSatChunkRows;
inline constexpr int kSatStepRows = conv_tiles::kSatStepRows;
inline constexpr int kSatMinBlocks = 4;

inline constexpr std::string_view kBasicTuning = "256 threads (32x8), 1 pixel each";
inline constexpr std::string_view kConstantTuning = "256 threads (32x8), 1 pixel each";
// Radius 1 and 2 run the strip engine of strip_engine.cuh in all three variants below.
inline constexpr std::string_view kTiledHaloTuning =
    "r<=2: warp strips 128 wide, halo via a shared row tile; else 256 threads, 64x64 tile";
inline constexpr std::string_view kTiledCachedTuning =
    "r<=2: warp strips 128 wide, halo from L1; else 256 threads, 32x64 tile";
inline constexpr std::string_view kSeparableTuning =
    "r<=2: warp strips 128 wide, all in registers; else 4 warps x strips 32 wide, 16 rows a step";
inline constexpr std::string_view kSatBoxTuning =
    "one kernel: 128 threads walk a 128x128 strip, 16 rows a step; no scratch";

// ---- shared host helpers -------------------------------------------------------------

// Every valid filter (checkConvArgs has validated it).
std::optional<std::string> supportsAnyFilter(const Filter& filter);

// The checks each launch() starts with: cudaErrorInvalidValue for bad arguments or too
// little scratch, cudaErrorNotSupported for a filter `supports` refuses.
cudaError_t checkLaunch(const ConvArgs& args, std::optional<std::string> (*supports)(const Filter&),
                        const void* scratch, std::size_t scratchBytes, std::size_t neededBytes);

std::size_t noScratch(int width, int height);

// ---- the variants --------------------------------------------------------------------

std::size_t basicScratchBytes(int width, int height);
cudaError_t basicLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream);

std::optional<std::string> constantSupports(const Filter& filter);
cudaError_t constantLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                           cudaStream_t stream);

cudaError_t tiledHaloLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream);

cudaError_t tiledCachedLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream);

std::optional<std::string> separableSupports(const Filter& filter);
cudaError_t separableLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream);

std::optional<std::string> satBoxSupports(const Filter& filter);
cudaError_t satBoxLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                         cudaStream_t stream);

}  // namespace satdof::conv

// satdof/sat.h — summed-area table of an RGBA8 image on the GPU.
//
// Output layout (shared with the CPU reference and the DoF shader's SSBO): one uint4 per
// pixel, row-major, tightly packed; out[y * width + x].c = sum of channel c over all
// pixels (x', y') with x' <= x and y' <= y, modulo 2^32. Box sums computed from it with
// the four-term difference are exact while the box sum itself stays below 2^32.
//
// Algorithm (GPU Gems 3, 39.3.2): unpack into four planar channels, scan every row with
// the chosen scan variant (a batch of 4*height rows), transpose, scan every row again
// (4*width rows), transpose back while interleaving into uint4. Both scan passes go
// through the variant's batched entry point, so every registered variant drives the SAT.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "satdof/scan.h"

namespace satdof {

struct SatShape {
  int width = 0;
  int height = 0;
};

// Device scratch the SAT needs for this shape and variant (planes + scan scratch).
std::size_t satScratchBytes(SatShape shape, const ScanVariant& scan);

// Source is a linear RGBA8 image (pitch in bytes).
cudaError_t computeSatRgba8(const std::uint8_t* rgba, std::size_t pitchBytes, SatShape shape,
                            uint4* out, const ScanVariant& scan, void* scratch,
                            std::size_t scratchBytes, cudaStream_t stream);

// Source is a CUDA array (e.g. a mapped GL texture) read through a surface object.
cudaError_t computeSatRgba8(cudaSurfaceObject_t rgba, SatShape shape, uint4* out,
                            const ScanVariant& scan, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream);

}  // namespace satdof

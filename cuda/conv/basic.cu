// conv/basic.cu — the book's first convolution kernel: one thread per output pixel,
// filter and image both read from global memory, a bounds check on every tap.
//
// Arithmetic intensity is ~0.25 FLOP per byte fetched by the threads; L1/L2 absorb most
// of the re-reads, so this is the baseline the other variants are measured against.
// The filter is copied into the caller's scratch (a device array) before the launch.
#include "conv/conv_device.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

// =====================================================================================
// kernel: one pixel per thread, the filter read from global memory
// =====================================================================================

__global__ void __launch_bounds__(kPixelBlockX * kPixelBlockY)
    basicKernel(ImageIo io, const float* __restrict__ weights, int radius) {
  const int x = blockIdx.x * kPixelBlockX + threadIdx.x;
  const int y = blockIdx.y * kPixelBlockY + threadIdx.y;
  if (x >= io.width || y >= io.height) return;
  outRow(io, y)[x] = convolvePixelDirect(io, x, y, radius, weights);
}

}  // namespace

// =====================================================================================
// host side
// =====================================================================================

std::size_t basicScratchBytes(int, int) { return alignUp(kMaxFilterTaps * sizeof(float)); }

cudaError_t basicLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, supportsAnyFilter, scratch, scratchBytes,
                         basicScratchBytes(args.width, args.height)));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const Filter& f = *args.filter;
  float* weights = static_cast<float*>(scratch);
  SATDOF_TRY(cudaMemcpyAsync(weights, f.weights.data(), f.weights.size() * sizeof(float),
                             cudaMemcpyHostToDevice, stream));
  const dim3 block(kPixelBlockX, kPixelBlockY);
  const dim3 grid(ceilDiv(args.width, kPixelBlockX), ceilDiv(args.height, kPixelBlockY));
  basicKernel<<<grid, block, 0, stream>>>(makeImageIo(args), weights, f.radius);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace satdof::conv

// conv/constant_memory.cu — the book's second kernel: as basic, with the filter in
// __constant__ memory.
//
// Every thread of a warp reads the same tap at the same time, so the constant cache
// broadcasts it in one transaction and the filter no longer competes with the image for
// L1. The copy is issued on the launch's stream (cudaMemcpyToSymbolAsync), so launches
// on one stream see their own filter; launches on different streams would race for the
// one symbol (see conv2d.h).
#include "conv/conv_device.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

// Capacity: the largest filter the registry accepts, 31x31 floats (3844 of 65536 bytes).
constexpr int kConstantFilterCapacity = kMaxFilterTaps;

__constant__ float cFilter[kConstantFilterCapacity];

// The filter as convolvePixelDirect indexes it, read from the constant bank.
struct ConstantTaps {
  __device__ __forceinline__ float operator[](int k) const { return cFilter[k]; }
};

// =====================================================================================
// kernel: one pixel per thread, the filter read from __constant__ memory
// =====================================================================================

__global__ void __launch_bounds__(kPixelBlockX * kPixelBlockY)
    constantMemoryKernel(ImageIo io, int radius) {
  const int x = blockIdx.x * kPixelBlockX + threadIdx.x;
  const int y = blockIdx.y * kPixelBlockY + threadIdx.y;
  if (x >= io.width || y >= io.height) return;
  outRow(io, y)[x] = convolvePixelDirect(io, x, y, radius, ConstantTaps{});
}

}  // namespace

// =====================================================================================
// host side
// =====================================================================================

std::optional<std::string> constantSupports(const Filter& filter) {
  if (filter.taps() > kConstantFilterCapacity)
    return "needs " + std::to_string(filter.taps()) + " floats of constant memory, has " +
           std::to_string(kConstantFilterCapacity);
  return std::nullopt;
}

cudaError_t constantLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                           cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, constantSupports, scratch, scratchBytes, 0));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const Filter& f = *args.filter;
  SATDOF_TRY(cudaMemcpyToSymbolAsync(cFilter, f.weights.data(), f.weights.size() * sizeof(float),
                                     0, cudaMemcpyHostToDevice, stream));
  const dim3 block(kPixelBlockX, kPixelBlockY);
  const dim3 grid(ceilDiv(args.width, kPixelBlockX), ceilDiv(args.height, kPixelBlockY));
  constantMemoryKernel<<<grid, block, 0, stream>>>(makeImageIo(args), f.radius);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace satdof::conv

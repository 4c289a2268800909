// tests/add_one_more/conv_test_row_threads.cu — a convolution added from outside cuda/: the
// book's one-pixel-per-thread body (cuda/conv/conv_device.cuh, as every direct variant) in
// blocks of 256 threads along a row, the filter read from global memory. Registered from
// this file's static initialiser (registerConvVariant).
#include "conv/conv_device.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace {

using namespace satdof;
constexpr int kThreads = 256;

__global__ void rowThreadsKernel(conv::ImageIo io, const float* __restrict__ weights, int radius) {
  const int x = blockIdx.x * kThreads + threadIdx.x;
  const int y = blockIdx.y;
  if (x >= io.width) return;
  conv::outRow(io, y)[x] = conv::convolvePixelDirect(io, x, y, radius, weights);
}

std::size_t scratchBytes(int, int) { return alignUp(kMaxFilterTaps * sizeof(float)); }

cudaError_t launch(const ConvArgs& args, void* scratch, std::size_t bytes, cudaStream_t stream) {
  SATDOF_TRY(conv::checkLaunch(args, conv::supportsAnyFilter, scratch, bytes, scratchBytes(args.width, args.height)));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  float* weights = static_cast<float*>(scratch);
  SATDOF_TRY(cudaMemcpyAsync(weights, args.filter->weights.data(), args.filter->weights.size() * sizeof(float),
                             cudaMemcpyHostToDevice, stream));
  const dim3 grid((args.width + kThreads - 1) / kThreads, unsigned(args.height));
  rowThreadsKernel<<<grid, kThreads, 0, stream>>>(conv::makeImageIo(args), weights, args.filter->radius);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

const bool registered = (registerConvVariant({"test-row-threads",
                                              "one pixel per thread, 256 along a row (added by tests/add_one_more)",
                                              "256 threads a row segment", ConvMath::Direct, conv::supportsAnyFilter,
                                              scratchBytes, launch}),
                         true);

}  // namespace

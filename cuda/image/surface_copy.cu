// cuda/image/surface_copy.cu — satdof/surface_copy.h: one thread per pixel, a warp reads 32
// adjacent texels of a row (one surface fetch each) and writes 128 contiguous bytes.
#include "satdof/surface_copy.h"

#include <cstdint>

#include "satdof/cuda_check.h"

namespace satdof {
namespace {

constexpr int kBlockX = 64, kBlockY = 4;

__global__ void __launch_bounds__(kBlockX * kBlockY)
    surfaceToLinearKernel(cudaSurfaceObject_t surface, unsigned char* dst, std::size_t pitch,
                          int width, int height) {
  const int x = static_cast<int>(blockIdx.x) * kBlockX + static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.y) * kBlockY + static_cast<int>(threadIdx.y);
  if (x >= width || y >= height) return;
  const std::uint32_t texel = surf2Dread<std::uint32_t>(surface, x * 4, y);
  reinterpret_cast<std::uint32_t*>(dst + std::size_t(y) * pitch)[x] = texel;
}

}  // namespace

cudaError_t launchSurfaceToLinear(cudaSurfaceObject_t surface, void* dst, std::size_t pitchBytes,
                                  int width, int height, cudaStream_t stream) {
  if (width <= 0 || height <= 0 || !surface || !dst || pitchBytes % 4 != 0 ||
      pitchBytes < std::size_t(width) * 4)
    return cudaErrorInvalidValue;
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((width + kBlockX - 1) / kBlockX, (height + kBlockY - 1) / kBlockY);
  surfaceToLinearKernel<<<grid, block, 0, stream>>>(surface, static_cast<unsigned char*>(dst),
                                                    pitchBytes, width, height);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace satdof

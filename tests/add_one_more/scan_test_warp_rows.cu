// tests/add_one_more/scan_test_warp_rows.cu — a scan variant added from outside cuda/: one
// warp per row, 32 elements a step (a __shfl_up_sync scan), the row's running total carried
// from step to step. No scratch, no second pass. Registered from this file's static
// initialiser (registerScanVariant); the SATs that run a variant's launch() (rows-columns,
// rows-transpose-rows) can be built from it, the two with policy kernels refuse it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "satdof/scan.h"

namespace {

constexpr int kWarpsPerBlock = 4;

template <class T>
__global__ void warpRowsKernel(const T* in, T* out, std::size_t length, std::size_t rows, std::size_t pitch,
                               bool exclusive) {
  const unsigned lane = threadIdx.x % 32;
  const std::size_t warps = std::size_t(gridDim.x) * kWarpsPerBlock;
  for (std::size_t row = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; row < rows; row += warps) {
    const T* src = in + row * pitch;
    T* dst = out + row * pitch;
    T carry = T(0);
    for (std::size_t base = 0; base < length; base += 32) {
      const std::size_t i = base + lane;
      T sum = i < length ? src[i] : T(0);
      for (unsigned d = 1; d < 32; d *= 2) {
        const T below = __shfl_up_sync(0xffffffffu, sum, d);
        if (lane >= d) sum += below;
      }
      const T before = __shfl_up_sync(0xffffffffu, sum, 1);
      if (i < length) dst[i] = carry + (exclusive ? (lane == 0 ? T(0) : before) : sum);
      carry += __shfl_sync(0xffffffffu, sum, 31);
    }
  }
}

std::size_t noScratch(const satdof::ScanArgs&) { return 0; }

cudaError_t launch(const satdof::ScanArgs& a, void*, std::size_t, cudaStream_t stream) {
  if (a.length == 0 || a.rows == 0) return cudaSuccess;
  if (!a.in || !a.out || a.rowPitch() < a.length) return cudaErrorInvalidValue;
  const std::size_t blocks = std::min<std::size_t>((a.rows + kWarpsPerBlock - 1) / kWarpsPerBlock, 8192);
  const bool exclusive = a.op == satdof::ScanOp::Exclusive;
  if (a.type == satdof::ScanType::U32)
    warpRowsKernel<<<unsigned(blocks), 32 * kWarpsPerBlock, 0, stream>>>(
        static_cast<const std::uint32_t*>(a.in), static_cast<std::uint32_t*>(a.out), a.length, a.rows, a.rowPitch(),
        exclusive);
  else
    warpRowsKernel<<<unsigned(blocks), 32 * kWarpsPerBlock, 0, stream>>>(
        static_cast<const float*>(a.in), static_cast<float*>(a.out), a.length, a.rows, a.rowPitch(), exclusive);
  return cudaGetLastError();
}

const bool registered = (satdof::registerScanVariant({"test-warp-rows",
                                                      "one warp per row, 32 a step, the row's total carried "
                                                      "(added by tests/add_one_more)",
                                                      {32 * kWarpsPerBlock, 1}, noScratch, launch, "hierarchy"}),
                         true);

}  // namespace

// tests/add_one_more/sat_test_two_sweeps.cu — a SAT algorithm added from outside cuda/: one
// thread per row sums along it, then one thread per column sums down it, in place in the
// table. uint32 only; no scan variant, no scratch. Registered from this file's static
// initialiser (registerSatAlgorithm).
#include <cuda_runtime.h>

#include <cstdint>

#include "satdof/sat.h"

namespace {

__device__ uchar4 pixel(const satdof::SatSource& s, int x, int y) {
  if (s.rgba) return reinterpret_cast<const uchar4*>(s.rgba + std::size_t(y) * s.pitchBytes)[x];
  return surf2Dread<uchar4>(s.surface, x * 4, y);
}

__global__ void rowsKernel(satdof::SatSource source, uint4* table, int width, int height) {
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  uint4 sum = make_uint4(0, 0, 0, 0);
  for (int x = 0; x < width; ++x) {
    const uchar4 p = pixel(source, x, y);
    sum.x += p.x, sum.y += p.y, sum.z += p.z, sum.w += p.w;
    table[std::size_t(y) * width + x] = sum;
  }
}

__global__ void columnsKernel(uint4* table, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  uint4 sum = make_uint4(0, 0, 0, 0);
  for (int y = 0; y < height; ++y) {
    uint4& e = table[std::size_t(y) * width + x];
    sum.x += e.x, sum.y += e.y, sum.z += e.z, sum.w += e.w;
    e = sum;
  }
}

std::optional<std::string> uint32Only(satdof::SatFormat format) {
  if (format == satdof::SatFormat::Uint32) return std::nullopt;
  return "builds uint32 only";
}

std::size_t noScratch(const satdof::SatArgs&) { return 0; }

cudaError_t launch(const satdof::SatArgs& a, void*, std::size_t, cudaStream_t stream) {
  if (a.width < 0 || a.height < 0 || a.format != satdof::SatFormat::Uint32) return cudaErrorInvalidValue;
  if (a.width == 0 || a.height == 0) return cudaSuccess;
  if (!a.table || (!a.source.isSurface() && a.source.pitchBytes < std::size_t(a.width) * 4))
    return cudaErrorInvalidValue;
  auto* table = static_cast<uint4*>(a.table);
  rowsKernel<<<unsigned((a.height + 127) / 128), 128, 0, stream>>>(a.source, table, a.width, a.height);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  columnsKernel<<<unsigned((a.width + 127) / 128), 128, 0, stream>>>(table, a.width, a.height);
  return cudaGetLastError();
}

const bool registered = (satdof::registerSatAlgorithm({"test-two-sweeps",
                                                       "one thread per row, then one per column, in place "
                                                       "(added by tests/add_one_more)",
                                                       false, uint32Only, noScratch, launch}),
                         true);

}  // namespace

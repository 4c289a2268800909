// satdof/cuda_check.h — error plumbing for the CUDA library.
//
// Library functions return cudaError_t and chain calls with SATDOF_TRY, so the first
// failure propagates unchanged to the caller (the application turns it into an
// exception carrying the expression, file and line). Checks stay on in release builds.
//
// Every kernel launch is followed by SATDOF_TRY(cudaGetLastError()) — spelled
// SATDOF_TRY_LAUNCH() — so that a bad configuration is reported at the launch site.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#define SATDOF_TRY(expr)                                   \
  do {                                                     \
    if (const cudaError_t satdofErr_ = (expr); satdofErr_ != cudaSuccess) \
      return satdofErr_;                                   \
  } while (0)

#define SATDOF_TRY_LAUNCH() SATDOF_TRY(cudaGetLastError())

namespace satdof {

// Rounds a byte count up to a multiple of `align` (a power of two), so that scratch
// sub-allocations carved out of one block stay aligned for vector loads.
constexpr std::size_t alignUp(std::size_t bytes, std::size_t align = 256) {
  return (bytes + align - 1) & ~(align - 1);
}

}  // namespace satdof

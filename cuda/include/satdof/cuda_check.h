// satdof/cuda_check.h — error plumbing for the CUDA library.
//
// Library functions return cudaError_t and chain calls with SATDOF_TRY, so the first
// failure propagates unchanged to the caller (the application turns it into an
// exception carrying the expression, file and line). Checks stay on in release builds.
//
// Every kernel launch is followed by SATDOF_TRY(cudaGetLastError()) — spelled
// SATDOF_TRY_LAUNCH() — so that a bad configuration is reported at the launch site.
//
// Host code (set-up, resize, the app) throws instead: SATDOF_CUDA_CHECK turns a failure
// into CudaError, one exception type carrying the expression, file and line.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

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

namespace satdof {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expr, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + expr +
                           " failed: " + cudaGetErrorName(code) + " (" +
                           cudaGetErrorString(code) + ")"),
        code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

}  // namespace satdof

#define SATDOF_CUDA_CHECK(expr)                                                 \
  do {                                                                          \
    if (const cudaError_t satdofErr_ = (expr); satdofErr_ != cudaSuccess)       \
      throw ::satdof::CudaError(satdofErr_, #expr, __FILE__, __LINE__);         \
  } while (0)

// tests/cuda_test_support.h — shared by the GPU tests: a visible skip where no CUDA
// device exists, a size cap for slow runs (compute-sanitizer), fresh random seeds.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

namespace satdof::test {

// Empty when a device is usable; otherwise the reason for skipping.
inline std::string noDeviceReason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: ") + cudaGetErrorString(e);
  }
  return count > 0 ? std::string() : std::string("no CUDA device: none found");
}

// SATDOF_TEST_MAX_N caps the element (or pixel) count of a case; 0 / unset: no cap.
inline std::size_t maxElements() {
  const char* v = std::getenv("SATDOF_TEST_MAX_N");
  return v ? std::size_t(std::strtoull(v, nullptr, 10)) : 0;
}

inline std::mt19937 freshRng() {
  const unsigned seed = std::random_device{}();
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return std::mt19937(seed);
}

}  // namespace satdof::test

#define SATDOF_SKIP_WITHOUT_DEVICE()                                           \
  do {                                                                         \
    if (const std::string why = ::satdof::test::noDeviceReason(); !why.empty()) \
      GTEST_SKIP() << why;                                                     \
  } while (0)

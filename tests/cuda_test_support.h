// tests/cuda_test_support.h — shared by the GPU tests: a visible skip where no CUDA
// device exists (its reason in the app's words, satdof/cuda_diagnosis.h; a failure under
// SATDOF_REQUIRE_GPU=1, skip_support.h), a size cap for slow runs (compute-sanitizer);
// see test_support.h too.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "satdof/cuda_check.h"
#include "satdof/cuda_diagnosis.h"

#include "skip_support.h"

#include "test_support.h"

namespace satdof::test {

// Empty when a device is usable; otherwise the reason for skipping.
inline std::string noDeviceReason() { return satdof::cudaUnavailableReason(); }

// SATDOF_TEST_MAX_N caps the element (or pixel) count of a case; 0 / unset: no cap.
inline std::size_t maxElements() {
  const char* v = std::getenv("SATDOF_TEST_MAX_N");
  return v ? std::size_t(std::strtoull(v, nullptr, 10)) : 0;
}

// A 2D CUDA array with a surface object, filled from host pixels.
class SurfaceImage {
 public:
  SurfaceImage(const void* pixels, int width, int height, cudaChannelFormatDesc format, std::size_t pixelBytes) {
    SATDOF_CUDA_CHECK(cudaMallocArray(&array_, &format, width, height, cudaArraySurfaceLoadStore));
    SATDOF_CUDA_CHECK(cudaMemcpy2DToArray(array_, 0, 0, pixels, width * pixelBytes, width * pixelBytes, height,
                                          cudaMemcpyHostToDevice));
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array_;
    SATDOF_CUDA_CHECK(cudaCreateSurfaceObject(&surface_, &desc));
  }
  ~SurfaceImage() {
    cudaDestroySurfaceObject(surface_);
    cudaFreeArray(array_);
  }
  SurfaceImage(const SurfaceImage&) = delete;
  SurfaceImage& operator=(const SurfaceImage&) = delete;
  cudaSurfaceObject_t get() const { return surface_; }
  // The array's pixels back to the host, rows packed.
  void read(void* pixels, int width, int height, std::size_t pixelBytes) const {
    SATDOF_CUDA_CHECK(cudaMemcpy2DFromArray(pixels, width * pixelBytes, array_, 0, 0, width * pixelBytes, height,
                                            cudaMemcpyDeviceToHost));
  }

 private:
  cudaArray_t array_ = nullptr;
  cudaSurfaceObject_t surface_ = 0;
};

}  // namespace satdof::test

#define SATDOF_SKIP_WITHOUT_DEVICE()                                           \
  do {                                                                         \
    if (const std::string why = ::satdof::test::noDeviceReason(); !why.empty()) \
      SATDOF_SKIP_WITHOUT_GPU(why);                                            \
  } while (0)

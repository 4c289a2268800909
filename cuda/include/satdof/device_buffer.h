// satdof/device_buffer.h — DeviceBuffer<T>: a move-only owner of one cudaMalloc block.
//
// Allocation failures throw CudaError (std::runtime_error) because they happen at
// set-up or resize time, never inside a frame; everything per-frame returns cudaError_t.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "satdof/cuda_check.h"  // CudaError, SATDOF_CUDA_CHECK

namespace satdof {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { resize(count); }
  ~DeviceBuffer() { reset(); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer(std::move(other)).swap(*this);
    return *this;
  }
  void swap(DeviceBuffer& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(count_, other.count_);
  }

  // Reallocates only when the size changes; contents are not preserved.
  void resize(std::size_t count) {
    if (count == count_) return;
    reset();
    if (count == 0) return;
    void* p = nullptr;
    SATDOF_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    ptr_ = static_cast<T*>(p);
    count_ = count;
  }
  void reset() noexcept {
    if (ptr_) cudaFree(ptr_);  // nothing useful to do with an error in a destructor
    ptr_ = nullptr;
    count_ = 0;
  }

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace satdof

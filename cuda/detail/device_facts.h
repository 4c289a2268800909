// detail/device_facts.h — facts about the current device that launches need (SM count,
// shared memory a block may opt into, resident threads per SM), asked once per device and
// cached, as CUB's dispatch does, instead of queried on every launch or written down as
// one GPU's constants. Host code only; thread-safe.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace satdof::detail {

struct DeviceFacts {
  int sms = 0;
  int maxSharedPerBlockOptin = 0;  // bytes
  int maxThreadsPerSm = 0;
};

// The current device's facts (queried the first time a device is seen).
cudaError_t currentDeviceFacts(DeviceFacts& out);

// Resident blocks per SM of `kernel` launched with `threads` threads and `shared` bytes
// of dynamic shared memory on the current device, asked once per (device, kernel, shape).
cudaError_t cachedOccupancy(const void* kernel, int threads, std::size_t shared, int& blocksPerSm);

template <class Kernel>
cudaError_t cachedOccupancy(Kernel* kernel, int threads, std::size_t shared, int& blocksPerSm) {
  return cachedOccupancy(reinterpret_cast<const void*>(kernel), threads, shared, blocksPerSm);
}

}  // namespace satdof::detail

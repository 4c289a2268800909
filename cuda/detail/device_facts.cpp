// detail/device_facts.cpp — see device_facts.h.
#include "detail/device_facts.h"

#include <map>
#include <mutex>
#include <tuple>

#include "satdof/cuda_check.h"

namespace satdof::detail {
namespace {

std::mutex& cacheMutex() {
  static std::mutex m;
  return m;
}

}  // namespace

cudaError_t currentDeviceFacts(DeviceFacts& out) {
  int device = 0;
  SATDOF_TRY(cudaGetDevice(&device));
  static std::map<int, DeviceFacts> cache;
  const std::lock_guard lock(cacheMutex());
  if (const auto it = cache.find(device); it != cache.end()) {
    out = it->second;
    return cudaSuccess;
  }
  DeviceFacts f;
  SATDOF_TRY(cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, device));
  SATDOF_TRY(cudaDeviceGetAttribute(&f.maxSharedPerBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  SATDOF_TRY(cudaDeviceGetAttribute(&f.maxThreadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  cache.emplace(device, f);
  out = f;
  return cudaSuccess;
}

cudaError_t cachedOccupancy(const void* kernel, int threads, std::size_t shared, int& blocksPerSm) {
  int device = 0;
  SATDOF_TRY(cudaGetDevice(&device));
  using Key = std::tuple<int, const void*, int, std::size_t>;
  static std::map<Key, int> cache;
  const Key key{device, kernel, threads, shared};
  const std::lock_guard lock(cacheMutex());
  if (const auto it = cache.find(key); it != cache.end()) {
    blocksPerSm = it->second;
    return cudaSuccess;
  }
  SATDOF_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, kernel, threads, shared));
  cache.emplace(key, blocksPerSm);
  return cudaSuccess;
}

}  // namespace satdof::detail

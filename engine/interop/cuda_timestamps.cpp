// engine/interop/cuda_timestamps.cpp — see cuda_timestamps.h.
#include "engine/interop/cuda_timestamps.h"

namespace satdof::interop {

int CudaTimestamps::mark(int frame) {
  auto& e = events_[frame];
  if (used_[frame] == int(e.size())) e.push_back(createEvent());
  SATDOF_CUDA_CHECK(cudaEventRecord(e[std::size_t(used_[frame])].get(), stream_));
  return used_[frame]++;
}

std::optional<float> CudaTimestamps::elapsed(int frame, int from, int to, bool wait) {
  const cudaEvent_t a = events_[frame][std::size_t(from)].get();
  const cudaEvent_t b = events_[frame][std::size_t(to)].get();
  if (wait) {
    SATDOF_CUDA_CHECK(cudaEventSynchronize(b));
  } else {
    const cudaError_t q = cudaEventQuery(b);
    if (q == cudaErrorNotReady) return std::nullopt;
    SATDOF_CUDA_CHECK(q);
  }
  float ms = 0;
  SATDOF_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

}  // namespace satdof::interop

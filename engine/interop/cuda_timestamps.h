// engine/interop/cuda_timestamps.h — a TimestampSource (engine/profiling/profiler.h) of CUDA events
// recorded on one stream, so CUDA stages open named profiler sections like GL stages do.
#pragma once

#include <array>
#include <vector>

#include "engine/interop/cuda_gl.h"
#include "engine/profiling/profiler.h"

namespace satdof::interop {

class CudaTimestamps final : public TimestampSource {
 public:
  explicit CudaTimestamps(cudaStream_t stream) : stream_(stream) {}
  int mark(int frame) override;
  std::optional<float> elapsed(int frame, int from, int to, bool wait) override;
  void reset(int frame) override { used_[frame] = 0; }

 private:
  cudaStream_t stream_;
  std::array<std::vector<Event>, kRing> events_;
  std::array<int, kRing> used_{};
};

}  // namespace satdof::interop

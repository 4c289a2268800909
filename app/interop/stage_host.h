// app/interop/stage_host.h — what a CUDA stage after the compute backend (the CUDA DoF)
// needs from the backend that owns the interop: its session (every target registered),
// its stream (so the stage is ordered after the SAT without a host wait) and its clock
// (CUDA events on that stream, for the stage's profiler sections). The cuda backend
// implements it; a stage asks for it with dynamic_cast, so the generic layers and the
// other backends know nothing of it.
#pragma once

#include "interop/cuda_gl.h"
#include "interop/session.h"
#include "profiling/profiler.h"

namespace satdof::interop {

class StageHost {
 public:
  virtual ~StageHost() = default;
  virtual const Session& session() const = 0;
  virtual cudaStream_t stream() const = 0;
  virtual TimestampSource& clock() = 0;
};

}  // namespace satdof::interop

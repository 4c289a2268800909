// engine/interop/stage_host.h — what a CUDA stage after the compute backend (the CUDA DoF)
// needs from the backend that owns the interop: its session (every target registered),
// its stream (so the stage is ordered after the SAT without a host wait) and its clock
// (CUDA events on that stream, for the stage's profiler sections). The cuda backend
// implements it; a stage asks for it with dynamic_cast, so the generic layers and the
// other backends know nothing of it.
//
// Every map/unmap of GL objects costs the GPU a fixed hand-over between the GL and CUDA
// contexts (about 0.35 ms on an H200, whatever the frame size: docs/PERFORMANCE.md), so a
// later stage does not map again: it asks the backend to map its targets with the
// backend's own (shareFrameMapping, once), takes that mapping over after the backend's
// work (takeFrameMapping, every frame) and unmaps it itself.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "engine/frame/frame_targets.h"
#include "engine/interop/cuda_gl.h"
#include "engine/interop/session.h"
#include "engine/profiling/profiler.h"

namespace satdof::interop {

class StageHost {
 public:
  virtual ~StageHost() = default;
  virtual const Session& session() const = 0;
  virtual cudaStream_t stream() const = 0;
  virtual TimestampSource& clock() = 0;
  // From the next frame on, the backend maps `targets` with its own and leaves the frame's
  // mapping open for takeFrameMapping (empty: it unmaps its mapping itself again).
  virtual void shareFrameMapping(std::vector<Target> targets) = 0;
  // This frame's open mapping (null when the backend did not leave one open).
  virtual std::unique_ptr<Session::Mapped> takeFrameMapping() = 0;
  // Work of a later stage that needs only what ran before the backend (see-through's
  // reach reads the split it ran before): called every frame the backend maps the shared
  // targets, with that mapping, before the backend's own work, so that the stage can start
  // it on stream() ahead of the backend's SAT. Empty: none.
  using MappedWork = std::function<void(const Session::Mapped&, Profiler&)>;
  virtual void onFrameMapped(MappedWork work) = 0;
  // The DoF's field SATs (uint32) with the backend's SAT algorithm, inside a mapping that
  // holds those fields and their tables.
  virtual void buildFieldSats(const Session::Mapped& mapped, Profiler& profiler, const FieldTables& fields) = 0;
  // Every stage's work goes on stream(), in order: a second stream in the frame, however
  // its work is joined back, made the pipelined frame wait 3.2-4.1 ms for GL's next
  // commands at every size (docs/PERFORMANCE.md, "Every DoF on both GPU backends").
};

}  // namespace satdof::interop

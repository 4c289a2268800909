// engine/dof/layered_cuda_path.h — the layered DoF's work on the cuda backend, as
// layered_dof.cpp sees it (no CUDA types here): the split and the reach as CUDA kernels and
// the field SATs by the backend, inside the backend's one mapping of the frame
// (engine/interop/stage_host.h). The CUDA part implements it (layered_dof_cuda.cpp) and
// registers its factory (engine/parts/optional_parts.h); without the part, or on another
// backend, there is none and the layered DoF runs on GL and ComputeBackend::buildFieldSats.
#pragma once

#include <memory>

#include "engine/frame/frame_targets.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/coc.h"

namespace satdof {

class ComputeBackend;

// What the path reads of its layered DoF, which outlives it.
struct LayeredDofView {
  bool seeThrough, linear;  // the entry: its split runs on GL, before the backend (beforeBackend)
  const Targets& targets;   // as last attached
  const bool& splitAhead;   // beforeBackend split this frame's fields
};

class LayeredCudaPath {
 public:
  // Hands the backend's frame mapping back to it (from the next frame it maps only its own).
  virtual ~LayeredCudaPath() = default;
  // At the start of run(): takes over the backend's mapping of this frame, where it left one
  // open. Whether the reach already started on it (after a split ahead: see-through's reach
  // runs as soon as the backend maps the frame); where not, last frame's surfaces are let go.
  virtual bool takeFrameMapping() = 0;
  // The split as a CUDA kernel inside the frame's mapping, of the filtered image or the scene
  // colour. False without an open mapping (the backend did not run this frame).
  virtual bool split(bool filteredSource, const reference::CocRamp& ramp, Profiler& profiler) = 0;
  // Unmaps the frame's mapping, where one is open (before GL writes the fields).
  virtual void closeFrameMapping(Profiler& profiler) = 0;
  // Inside an open mapping: the reach (unless it started), then the field SATs by the backend's
  // algorithm, then the mapping closed: true. False without one.
  virtual bool buildFieldSatsAndReach(const Targets& fields, bool reachStarted, Profiler& profiler) = 0;
};

// The path for `backend` (null: none, it is not the cuda backend or this build has no CUDA).
std::unique_ptr<LayeredCudaPath> createLayeredCudaPath(ComputeBackend& backend, const LayeredDofView& dof);

// The CUDA part's factory. Only from registerOptionalParts().
using LayeredCudaPathFactory = std::unique_ptr<LayeredCudaPath> (*)(ComputeBackend& backend, const LayeredDofView& dof);
void registerLayeredCudaPath(LayeredCudaPathFactory factory);

}  // namespace satdof

// engine/interop/session.h — the CUDA view of the frame's targets (engine/frame/frame_targets.h):
// every target registered once per allocation, any subset of them mapped for a frame in
// one cudaGraphicsMapResources call, unmapped when the Mapped scope ends. Any CUDA stage
// uses it (the compute backend today); none registers GL objects by itself.
//
// Registration: as kFrameTargets (engine/frame/frame_targets.h) declares each target's CUDA
// access: images with SurfaceLoadStore (surfaces and array copies read and write them;
// the depth too, so a CUDA stage can read it through a surface), buffers CUDA rewrites
// whole (the SAT) with WriteDiscard.
#pragma once

#include <array>
#include <initializer_list>
#include <span>

#include "engine/frame/frame_targets.h"
#include "engine/interop/cuda_gl.h"

namespace satdof::interop {

// The frame's targets by name (frame_targets.h's table); the field targets exist only
// when the targets were allocated with layers.
using Target = TargetId;

class Session {
 public:
  class Mapped {
   public:
    Mapped(const Session& session, std::span<const Target> targets, cudaStream_t stream);
    Mapped(const Session& session, std::initializer_list<Target> targets, cudaStream_t stream)
        : Mapped(session, std::span<const Target>(targets.begin(), targets.size()), stream) {}
    cudaArray_t array(Target t) const;                    // level 0 of an image target
    void* pointer(Target t, std::size_t* bytes = nullptr) const;  // a buffer target
    // Unmaps now, throwing on failure (the destructor unmaps silently if this was skipped).
    void unmap() { scope_.unmap(); }

   private:
    std::size_t index(Target t) const;
    std::array<int, std::size_t(Target::Count)> slot_;
    MapScope scope_;
  };

  // Registers every target (after each allocation); unregisters the previous ones first.
  void attach(const Targets& targets);
  // Unregisters everything (before the targets are deleted).
  void detach();
  bool attached() const { return attached_; }
  const Targets& targets() const { return targets_; }

  Mapped map(std::initializer_list<Target> targets, cudaStream_t stream) const {
    return Mapped(*this, targets, stream);
  }

 private:
  std::array<GraphicsResource, std::size_t(Target::Count)> resources_;
  Targets targets_;
  bool attached_ = false;
};

}  // namespace satdof::interop

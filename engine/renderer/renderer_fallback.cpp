// engine/renderer/renderer_fallback.cpp — a compute backend that cannot run the frame, at the start or
// mid-run (a size or format it refuses, CUDA refusing to register the new targets after a
// resize, a mapping that fails), is replaced by the next backend in `auto`'s order: one
// line in the log and the panel says what failed, what runs now and what the user can do;
// the frames go on.
#include <glad/gl.h>

#include <cstdio>

#include "engine/renderer/renderer.h"

namespace satdof {

void Renderer::attachBackend(Pipeline& pipeline, const Targets& targets) {
  for (;;) {
    try {
      const std::string name(pipeline.backend().name());
      if (name == attachFault_.backend && ++attachFault_.seen == attachFault_.at)
        throw std::runtime_error("attach " + std::to_string(attachFault_.at) +
                                 " failed (SATDOF_INJECT_ATTACH_FAILURE)");
      pipeline.backend().attach(targets);
      return;
    } catch (const std::runtime_error& e) {
      if (!switchToNextBackend(e.what())) throw;
    }
  }
}

bool Renderer::switchToNextBackend(const std::string& failure) {
  const std::string failed(pipeline_->backend().name());
  std::optional<BackendChoice> next = chooseBackendAfter(failed, context_, selections_);
  if (!next) return false;
  const std::string reason = "the " + failed + " backend cannot run this frame (" + failure + "); now " + next->reason +
                             " (--backend " + failed + " to try it again at the next start)";
  next->reason = reason;
  const auto dofMoved = pipeline_->replaceBackend(std::move(*next));
  ++backendSwitches_;
  std::fprintf(stderr, "satdof: %s\n", reason.c_str());
  if (dofMoved) std::fprintf(stderr, "satdof: %s\n", dofMoved->c_str());
  return true;
}

}  // namespace satdof

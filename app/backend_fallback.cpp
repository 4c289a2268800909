// app/backend_fallback.cpp — a compute backend that fails mid-run (CUDA refusing to
// register the new targets after a resize, a mapping that fails) is replaced by the next
// backend in `auto`'s order: one line in the log and the panel says what failed, what
// runs now and what the user can do; the frames go on.
#include <glad/gl.h>

#include <cstdio>

#include "app.h"

namespace satdof {

void App::attachBackend(const Targets& targets) {
  for (;;) {
    try {
      const std::string name(computePass_->backend().name());
      if (name == attachFault_.backend && ++attachFault_.seen == attachFault_.at)
        throw std::runtime_error("attach " + std::to_string(attachFault_.at) +
                                 " failed (SATDOF_INJECT_ATTACH_FAILURE)");
      computePass_->backend().attach(targets);
      return;
    } catch (const std::runtime_error& e) {
      if (!switchToNextBackend(e.what())) throw;
    }
  }
}

bool App::switchToNextBackend(const std::string& failure) {
  const std::string failed(computePass_->backend().name());
  std::optional<BackendChoice> next = chooseBackendAfter(failed, *context_, options_.selections);
  if (!next) return false;
  glFinish();
  try {
    computePass_->backend().detach();
  } catch (const std::runtime_error&) {  // it has failed already; its resources go anyway
  }
  // The passes bound to the old backend go before it.
  bokehPass_.reset();
  dofImpl_.reset();
  computePass_ = std::make_unique<ComputePass>(std::move(next->backend));
  ComputeBackend& backend = computePass_->backend();
  ++backendSwitches_;
  backendReason_ = "the " + failed + " backend failed mid-run (" + failure + "); now " + next->reason +
                   " (--backend " + failed + " to try it again at the next start)";
  std::fprintf(stderr, "satdof: %s\n", backendReason_.c_str());

  // The DoF stays where it can; else the first that runs here and needs the same targets
  // (the fields come with the targets, which stay).
  const DofEntry* dof = dofEntry_;
  if (auto why = dof->whyNot(backend)) {
    for (const DofEntry& e : dofImplementations())
      if (e.layers == dofEntry_->layers && !e.whyNot(backend)) {
        dof = &e;
        break;
      }
    std::fprintf(stderr, "satdof: depth of field %s: %s; now %s\n", std::string(dofEntry_->name).c_str(),
                 why->c_str(), std::string(dof->name).c_str());
  }
  dofImpl_ = dof->create(shaderDir_, backend);
  dofEntry_ = dof;
  bokehPass_ = std::make_unique<BokehPass>(shaderDir_, backend);
  if (const auto why = BokehPass::whyNot(backend); why && bokeh_.enabled) {
    std::fprintf(stderr, "satdof: bokeh highlights off: %s\n", why->c_str());
    bokeh_.enabled = false;
  }
  backendOptions_ = backend.options();
  filterImplementations_ = backend.filterImplementations();
  return true;
}

}  // namespace satdof

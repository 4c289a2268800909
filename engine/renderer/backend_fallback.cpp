// engine/renderer/backend_fallback.cpp — see backend_fallback.h.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "engine/renderer/backend_fallback.h"

namespace satdof {

BackendFallback::BackendFallback(const Context& context, BackendSelections selections)
    : context_(context), selections_(std::move(selections)) {
  if (const char* fault = std::getenv("SATDOF_INJECT_ATTACH_FAILURE")) {
    const std::string f = fault;
    const auto colon = f.find(':');
    faultBackend_ = f.substr(0, colon);
    faultAt_ = colon == std::string::npos ? 1 : std::atoi(f.c_str() + colon + 1);
  }
}

void BackendFallback::attach(Pipeline& pipeline, const Targets& targets) {
  for (;;) {
    try {
      const std::string name(pipeline.backend().name());
      if (name == faultBackend_ && ++faultSeen_ == faultAt_)
        throw std::runtime_error("attach " + std::to_string(faultAt_) + " failed (SATDOF_INJECT_ATTACH_FAILURE)");
      pipeline.backend().attach(targets);
      return;
    } catch (const std::runtime_error& e) {
      if (!switchToNext(pipeline, e.what())) throw;
    }
  }
}

bool BackendFallback::switchToNext(Pipeline& pipeline, const std::string& failure) {
  const std::string failed(pipeline.backend().name());
  std::optional<BackendChoice> next = chooseBackendAfter(failed, context_, selections_);
  if (!next) return false;
  const std::string reason = "the " + failed + " backend cannot run this frame (" + failure + "); now " + next->reason +
                             " (--backend " + failed + " to try it again at the next start)";
  next->reason = reason;
  const auto dofMoved = pipeline.replaceBackend(std::move(*next));
  ++switches_;
  std::fprintf(stderr, "satdof: %s\n", reason.c_str());
  if (dofMoved) std::fprintf(stderr, "satdof: %s\n", dofMoved->c_str());
  return true;
}

}  // namespace satdof

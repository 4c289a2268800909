// engine/passes/backend_pass.cpp — see backend_pass.h.
#include "engine/passes/backend_pass.h"

#include <string>

namespace satdof {

std::optional<std::string> BackendPass::check(const FilterSettings& settings) const {
  if (!settings.enabled) return std::nullopt;
  Filter filter;
  try {
    filter = settings.build();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  const auto implementations = backend_->filterImplementations();
  auto verify = [&](const std::string& name) -> std::optional<std::string> {
    if (name.empty()) return std::nullopt;  // the backend's default runs every filter
    for (const FilterImplementation& i : implementations)
      if (i.name == name) {
        if (auto why = i.whyNot(filter)) return name + ": " + *why;
        return std::nullopt;
      }
    return "no convolution implementation '" + name + "' in the " + std::string(backend_->name()) +
           " backend";
  };
  if (auto why = verify(settings.implementation)) return why;
  if (settings.compare) return verify(settings.compareImplementation);
  return std::nullopt;
}

void BackendPass::run(const FilterSettings& settings, const BokehRequest* bokeh, Profiler& profiler) {
  if (!lastSettings_ || !(*lastSettings_ == settings)) {
    lastSettings_ = settings;
    filter_.reset();
    filterProblem_.clear();
    if (settings.enabled) {
      if (auto why = check(settings))
        filterProblem_ = *why;
      else
        filter_ = settings.build();
    }
  }
  filtering_ = filter_.has_value();
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, "filter + SAT");
  backend_->compute({settings, filter_ ? &*filter_ : nullptr, profiler, bokeh});
  glPopDebugGroup();
}

}  // namespace satdof

// engine/passes/backend_pass.h — the compute backend's part of the frame: the optional convolution of
// the scene colour and the summed-area table of the result, run by the chosen backend
// (engine/backends/compute_backend.h) into the frame's targets. It validates the filter
// settings before each frame, so a filter that the chosen implementation cannot run is
// reported, not run.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/backends/compute_backend.h"

namespace satdof {

class BackendPass {
 public:
  explicit BackendPass(std::unique_ptr<ComputeBackend> backend) : backend_(std::move(backend)) {}
  ~BackendPass() { backend_->detach(); }  // unregister before the targets are deleted

  // Filters (if the settings allow it) and builds the SAT, and with `bokeh` the bokeh
  // sprite list of the same image.
  void run(const FilterSettings& settings, const BokehRequest* bokeh, Profiler& profiler);

  // What implementation A produced this frame, or the scene colour when not filtering.
  GLuint filteredImage(const Targets& t) const { return filtering_ ? t.filtered : t.sceneColour; }
  // Why the last run did not filter although asked to (empty when it did or was not asked).
  const std::string& filterProblem() const { return filterProblem_; }

  ComputeBackend& backend() { return *backend_; }
  const ComputeBackend& backend() const { return *backend_; }

  // Checks settings against this backend: empty when they can run, else the reason.
  std::optional<std::string> check(const FilterSettings& settings) const;

 private:
  std::unique_ptr<ComputeBackend> backend_;
  bool filtering_ = false;
  std::string filterProblem_;
  // The last settings seen and the filter built from them (rebuilt only on change).
  std::optional<FilterSettings> lastSettings_;
  std::optional<Filter> filter_;
};

}  // namespace satdof

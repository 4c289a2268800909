// app/passes/compute_pass.h — the compute part of the frame: the optional convolution of
// the scene colour and the summed-area table of the result. Owns the GL objects the
// backend writes (filtered and comparison images, the SAT buffer) and validates the
// filter settings before each frame, so a filter that the chosen implementation cannot
// run is reported, not run.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "gl/handles.h"
#include "passes/compute_backend.h"

namespace satdof {

class ComputePass {
 public:
  explicit ComputePass(std::unique_ptr<ComputeBackend> backend) : backend_(std::move(backend)) {}
  ~ComputePass() { backend_->detach(); }  // unregister before the GL objects are deleted

  // Throws (one line) if a frame of this size cannot be served by this GL context.
  static void checkExtent(Extent extent);
  // Reallocates the targets for `extent` and re-attaches the backend (re-registration).
  void resize(Extent extent, GLuint sceneColour);
  // Filters (if the settings allow it) and builds the SAT.
  void run(const FilterSettings& settings);

  GLuint satBuffer() const { return sat_.get(); }
  // What implementation A produced this frame, or the scene colour when not filtering.
  GLuint filteredImage() const { return filtering_ ? filtered_.get() : sceneColour_; }
  GLuint compareImage() const { return comparing_ ? compare_.get() : filteredImage(); }
  bool comparing() const { return comparing_; }
  // Why the last run did not filter although asked to (empty when it did or was not asked).
  const std::string& filterProblem() const { return filterProblem_; }

  ComputeBackend& backend() { return *backend_; }
  const ComputeBackend& backend() const { return *backend_; }

  // Checks settings against this backend: empty when they can run, else the reason.
  std::optional<std::string> check(const FilterSettings& settings) const;

 private:
  std::unique_ptr<ComputeBackend> backend_;
  GLuint sceneColour_ = 0;
  gl::Texture filtered_, compare_;
  gl::Buffer sat_;
  bool filtering_ = false, comparing_ = false;
  std::string filterProblem_;
  // The last settings seen and the filter built from them (rebuilt only on change).
  std::optional<FilterSettings> lastSettings_;
  std::optional<Filter> filter_;
};

}  // namespace satdof

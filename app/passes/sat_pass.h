// app/passes/sat_pass.h — owns the SAT buffer (an SSBO of one uvec4 per pixel) and the
// backend that fills it from the scene's colour texture.
#pragma once

#include <memory>

#include "gl/handles.h"
#include "passes/sat_backend.h"

namespace satdof {

class SatPass {
 public:
  explicit SatPass(std::unique_ptr<SatBackend> backend) : backend_(std::move(backend)) {}
  ~SatPass() { backend_->detach(); }  // unregister before the buffer is deleted

  // Reallocates the buffer for `extent` and re-attaches the backend (re-registration).
  void resize(Extent extent, GLuint colourTexture);
  void run() { backend_->compute(); }

  GLuint buffer() const { return buffer_.get(); }
  SatBackend& backend() { return *backend_; }
  const SatBackend& backend() const { return *backend_; }

 private:
  std::unique_ptr<SatBackend> backend_;
  gl::Buffer buffer_;
};

}  // namespace satdof

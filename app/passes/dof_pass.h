// app/passes/dof_pass.h — the depth-of-field pass: a full-screen triangle whose fragment
// shader (shaders/dof.frag) takes each pixel's box mean from the SAT, the box size from
// the pixel's linear depth. Writes an RGBA8 texture the app presents or saves.
#pragma once

#include <filesystem>

#include "context/context.h"
#include "gl/handles.h"
#include "satdof/reference/dof.h"

namespace satdof {

struct DofSettings {
  reference::DofParams params;
  bool showCoc = false;  // draw the circle-of-confusion radius instead of the image
};

class DofPass {
 public:
  explicit DofPass(const std::filesystem::path& shaderDir);
  void resize(Extent extent);
  // Recompiles the shaders; on failure throws and keeps the current program.
  void reloadShaders(const std::filesystem::path& shaderDir);
  // depthTexture: R32F linear depth; satBuffer: uvec4 per pixel (see satdof/sat.h).
  void run(GLuint depthTexture, GLuint satBuffer, const DofSettings& settings);

  GLuint outputTexture() const { return output_.get(); }
  GLuint framebuffer() const { return framebuffer_.get(); }

 private:
  gl::Program program_;
  gl::VertexArray empty_;  // the full-screen triangle has no vertex data
  Extent extent_;
  gl::Texture output_;
  gl::Framebuffer framebuffer_;
};

}  // namespace satdof

// app/passes/dof_pass.cpp — see dof_pass.h.
#include "passes/dof_pass.h"

#include <stdexcept>

#include "gl/program.h"

namespace satdof {

namespace {
const std::vector<gl::ShaderStage> kDofPassStages = {{GL_VERTEX_SHADER, "fullscreen.vert"},
                                                   {GL_FRAGMENT_SHADER, "dof.frag"}};
const gl::IncludeAliases kSatFormat = {{"sat_format.glsl", "sat_uint32.glsl"}};
}  // namespace

DofPass::DofPass(const std::filesystem::path& shaderDir)
    : program_(gl::loadProgram(shaderDir, kDofPassStages, kSatFormat)),
      empty_(gl::createVertexArray()) {}

void DofPass::reloadShaders(const std::filesystem::path& shaderDir) {
  program_ = gl::loadProgram(shaderDir, kDofPassStages, kSatFormat);
}

void DofPass::resize(Extent extent) {
  extent_ = extent;
  output_ = gl::createTexture2D(GL_RGBA8, extent.width, extent.height);
  framebuffer_ = gl::createFramebuffer();
  glNamedFramebufferTexture(framebuffer_.get(), GL_COLOR_ATTACHMENT0, output_.get(), 0);
  if (glCheckNamedFramebufferStatus(framebuffer_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("DoF framebuffer incomplete");
}

void DofPass::run(GLuint depthTexture, GLuint satBuffer, const DofSettings& s) {
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "depth of field");
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glViewport(0, 0, extent_.width, extent_.height);
  glUseProgram(program_.get());
  glUniform1f(0, s.params.focalDistance);
  glUniform1f(1, s.params.focalRange);
  glUniform1f(2, s.params.maxRadius);
  glUniform2i(3, extent_.width, extent_.height);
  glUniform1i(4, s.showCoc ? 1 : 0);
  glBindTextureUnit(0, depthTexture);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, satBuffer);
  glBindVertexArray(empty_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glPopDebugGroup();
}

}  // namespace satdof

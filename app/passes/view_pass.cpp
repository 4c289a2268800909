// app/passes/view_pass.cpp — see view_pass.h.
#include "passes/view_pass.h"

#include <stdexcept>

#include "gl/program.h"

namespace satdof {

namespace {
const std::vector<gl::ShaderStage> kViewPassStages = {{GL_VERTEX_SHADER, "fullscreen.vert"},
                                                   {GL_FRAGMENT_SHADER, "view.frag"}};
}  // namespace

const char* toString(ViewMode mode) {
  switch (mode) {
    case ViewMode::Final: return "final";
    case ViewMode::Filtered: return "filtered";
    case ViewMode::Split: return "split";
    case ViewMode::Difference: return "diff";
  }
  return "?";
}

std::optional<ViewMode> viewModeFromName(const std::string& name) {
  for (ViewMode m : {ViewMode::Final, ViewMode::Filtered, ViewMode::Split, ViewMode::Difference})
    if (name == toString(m)) return m;
  return std::nullopt;
}

ViewPass::ViewPass(const std::filesystem::path& shaderDir)
    : program_(gl::loadProgram(shaderDir, kViewPassStages)),
      empty_(gl::createVertexArray()) {
  for (auto& b : maxBuffers_) b = gl::createBuffer(sizeof(GLuint), nullptr, GL_DYNAMIC_STORAGE_BIT);
}

void ViewPass::reloadShaders(const std::filesystem::path& shaderDir) {
  program_ = gl::loadProgram(shaderDir, kViewPassStages);
}

void ViewPass::resize(Extent extent) {
  extent_ = extent;
  output_ = gl::createTexture2D(GL_RGBA8, extent.width, extent.height);
  framebuffer_ = gl::createFramebuffer();
  glNamedFramebufferTexture(framebuffer_.get(), GL_COLOR_ATTACHMENT0, output_.get(), 0);
  if (glCheckNamedFramebufferStatus(framebuffer_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("view framebuffer incomplete");
}

void ViewPass::drain() {
  for (int k : {current_, 1 - current_}) {  // the older buffer first, the newest last
    if (!pending_[k]) continue;
    GLuint value = 0;
    glGetNamedBufferSubData(maxBuffers_[k].get(), 0, sizeof value, &value);
    maxDifference_ = value;
    pending_[k] = false;
  }
}

void ViewPass::run(const ViewSettings& s, GLuint a, GLuint b) {
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 4, -1, "view");
  const int mode = s.mode == ViewMode::Split ? 1 : s.mode == ViewMode::Difference ? 2 : 0;
  // The other buffer was written a frame ago: reading it now rarely waits.
  const int previous = 1 - current_;
  if (pending_[previous]) {
    GLuint value = 0;
    glGetNamedBufferSubData(maxBuffers_[previous].get(), 0, sizeof value, &value);
    maxDifference_ = value;
    pending_[previous] = false;
  }
  if (mode == 2) {
    const GLuint zero = 0;
    glClearNamedBufferData(maxBuffers_[current_].get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, maxBuffers_[current_].get());
    pending_[current_] = true;
    current_ = previous;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glViewport(0, 0, extent_.width, extent_.height);
  glUseProgram(program_.get());
  glUniform1i(0, mode);
  glUniform1f(1, s.divider * float(extent_.width));
  glUniform1f(2, s.gain);
  glBindTextureUnit(0, a);
  glBindTextureUnit(1, b);
  glBindVertexArray(empty_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  if (mode == 2) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the atomics land before the read-back
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glPopDebugGroup();
}

}  // namespace satdof

// app/dof/fragment_dof.cpp — the DoF entry `fragment`: a full-screen triangle whose
// fragment shader (shaders/dof.frag) takes each pixel's box mean from the SAT, reading it
// through the SAT format's include, the box size from the pixel's linear depth.
#include <stdexcept>

#include "dof/dof_implementation.h"
#include "gl/handles.h"
#include "gl/program.h"

namespace satdof {
namespace {

const std::vector<gl::ShaderStage> kStages = {{GL_VERTEX_SHADER, "fullscreen.vert"},
                                              {GL_FRAGMENT_SHADER, "dof.frag"}};

// The DoF shaders include "sat_format.glsl": the chosen format's reader.
gl::IncludeAliases satFormatInclude(SatFormat format) {
  return {{"sat_format.glsl", std::string(satFormatInfo(format).shaderInclude)}};
}

class FragmentDof final : public DofImplementation {
 public:
  explicit FragmentDof(const std::filesystem::path& shaderDir) : shaderDir_(shaderDir), empty_(gl::createVertexArray()) {}

  void attach(const Targets& t) override {
    const bool formatChanged = !program_ || t.satFormat != targets_.satFormat;
    targets_ = t;
    if (formatChanged) reloadShaders(shaderDir_);
  }

  void reloadShaders(const std::filesystem::path& shaderDir) override {
    program_ = gl::loadProgram(shaderDir, kStages, satFormatInclude(targets_.satFormat));
    shaderDir_ = shaderDir;
  }

  void run(const DofSettings& s, Profiler& profiler) override {
    auto timed = profiler.section(profiler.gl(), "dof", "fragment");
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "depth of field (fragment)");
    glBindFramebuffer(GL_FRAMEBUFFER, targets_.dofFramebuffer);
    glViewport(0, 0, targets_.extent.width, targets_.extent.height);
    glUseProgram(program_.get());
    glUniform1f(0, s.params.focalDistance);
    glUniform1f(1, s.params.focalRange);
    glUniform1f(2, s.params.maxRadius);
    glUniform2i(3, targets_.extent.width, targets_.extent.height);
    glUniform1i(4, s.showCoc ? 1 : 0);
    glBindTextureUnit(0, targets_.depth);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, targets_.sat);
    glBindVertexArray(empty_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glPopDebugGroup();
  }

 private:
  std::filesystem::path shaderDir_;
  Targets targets_;
  gl::Program program_;
  gl::VertexArray empty_;  // the full-screen triangle has no vertex data
};

}  // namespace

std::unique_ptr<DofImplementation> createFragmentDof(const std::filesystem::path& shaderDir,
                                                     const ComputeBackend&) {
  return std::make_unique<FragmentDof>(shaderDir);
}

}  // namespace satdof

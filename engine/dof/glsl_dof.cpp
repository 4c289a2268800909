// engine/dof/glsl_dof.cpp — the two GLSL DoF entries, which share their shader code
// (shaders/dof_common.glsl) and differ only in how the GPU runs it:
//   fragment  a full-screen triangle into the DoF output's framebuffer (dof.frag);
//   compute   a compute dispatch of 16x16 groups writing the output image (dof.comp).
// Both read the SAT through the chosen format's include and give the same bytes.
#include <stdexcept>

#include "engine/dof/coc_uniforms.h"
#include "engine/dof/dof_implementation.h"
#include "engine/gl/handles.h"
#include "engine/gl/program.h"

namespace satdof {
namespace {

enum class Mode { Fragment, Compute };

// The DoF shaders include "sat_format.glsl": the chosen format's reader.
gl::IncludeAliases satFormatInclude(SatFormat format) {
  return {{"sat_format.glsl", std::string(satFormatInfo(format).shaderInclude)}};
}

class GlslDof final : public DofImplementation {
 public:
  GlslDof(Mode mode, const std::filesystem::path& shaderDir)
      : mode_(mode), shaderDir_(shaderDir), empty_(gl::createVertexArray()) {}

  void attach(const Targets& t) override {
    const bool formatChanged = !program_ || t.satFormat != targets_.satFormat;
    targets_ = t;
    if (formatChanged) reloadShaders(shaderDir_);
  }

  void reloadShaders(const std::filesystem::path& shaderDir) override {
    const std::vector<gl::ShaderStage> stages =
        mode_ == Mode::Fragment
            ? std::vector<gl::ShaderStage>{{GL_VERTEX_SHADER, "fullscreen.vert"}, {GL_FRAGMENT_SHADER, "dof.frag"}}
            : std::vector<gl::ShaderStage>{{GL_COMPUTE_SHADER, "dof.comp"}};
    program_ = gl::loadProgram(shaderDir, stages, satFormatInclude(targets_.satFormat));
    shaderDir_ = shaderDir;
  }

  void run(const DofSettings& s, const DofInputs&, Profiler& profiler) override {
    const bool fragment = mode_ == Mode::Fragment;
    auto timed = profiler.section(profiler.gl(), "dof", fragment ? "fragment" : "compute");
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, fragment ? "dof (fragment)" : "dof (compute)");
    const Extent e = targets_.extent;
    const reference::CocRamp ramp = reference::cocRamp(s.params, e.width);
    setCocUniforms(program_.get(), ramp, e);
    setApertureUniform(program_.get(), s.params.aperture);
    glUniform1i(6, s.showCoc ? 1 : 0);
    glBindTextureUnit(0, targets_.depth);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, targets_.sat);
    if (fragment) {
      glBindFramebuffer(GL_FRAMEBUFFER, targets_.dofFramebuffer);
      glViewport(0, 0, e.width, e.height);
      glBindVertexArray(empty_.get());
      glDrawArrays(GL_TRIANGLES, 0, 3);
      glBindVertexArray(0);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
    } else {
      glBindImageTexture(0, targets_.dofOutput, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
      glDispatchCompute(GLuint((e.width + 15) / 16), GLuint((e.height + 15) / 16), 1);
      // Later passes read the output as a texture or a framebuffer (blit, read back).
      glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
      glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glPopDebugGroup();
  }

 private:
  Mode mode_;
  std::filesystem::path shaderDir_;
  Targets targets_;
  gl::Program program_;
  gl::VertexArray empty_;  // the full-screen triangle has no vertex data
};

}  // namespace

std::unique_ptr<DofImplementation> createFragmentDof(const std::filesystem::path& shaderDir, ComputeBackend&) {
  return std::make_unique<GlslDof>(Mode::Fragment, shaderDir);
}

std::unique_ptr<DofImplementation> createGlslComputeDof(const std::filesystem::path& shaderDir, ComputeBackend&) {
  return std::make_unique<GlslDof>(Mode::Compute, shaderDir);
}

}  // namespace satdof

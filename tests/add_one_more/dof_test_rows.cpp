// tests/add_one_more/dof_test_rows.cpp — a DoF implementation added from outside engine/: the
// textbook arithmetic of shaders/dof_common.glsl (four SAT reads per pixel), dispatched in
// rows of 64 invocations by a compute shader of its own, held here as text (its includes
// come from the shader folder). Registered from this file's static initialiser
// (registerDofImplementation); verify checks it as it checks `compute`. With
// SATDOF_TEST_ROWS_OFF_BY_ONE=1 it writes pixel (0, 0)'s red one level off (the test of
// verify itself).
#include <cstdlib>

#include "engine/dof/coc_uniforms.h"
#include "engine/dof/dof_implementation.h"
#include "engine/gl/handles.h"
#include "engine/gl/program.h"

namespace {

using namespace satdof;

constexpr const char* kShaderName = "dof_test_rows.comp";
constexpr const char* kShader = R"(#version 450 core
layout(local_size_x = 64, local_size_y = 1) in;
layout(binding = 0) uniform sampler2D uDistance;
layout(binding = 0, rgba8) writeonly uniform image2D uOutput;
layout(location = 20) uniform int uOffByOne;  // the test of verify itself: one byte wrong
#include "dof_common.glsl"
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= uSize.x || p.y >= uSize.y) return;
  vec4 rgba = vec4(depthOfField(p, texelFetch(uDistance, p, 0).r));
  if (uOffByOne == 1 && p == ivec2(0)) rgba.r = rgba.r < 255.0 ? rgba.r + 1.0 : 254.0;
  imageStore(uOutput, p, rgba / 255.0);
}
)";

gl::Program compile(const std::filesystem::path& shaderDir, SatFormat format) {
  const gl::ReadShaderFile folder = gl::shaderFolder(shaderDir);
  const auto read = [&](const std::string& name) -> std::optional<std::string> {
    return name == kShaderName ? std::optional<std::string>(kShader) : folder(name);
  };
  return gl::loadProgram(read, {{GL_COMPUTE_SHADER, kShaderName}},
                         {{"sat_format.glsl", std::string(satFormatInfo(format).shaderInclude)}});
}

class RowsDof final : public DofImplementation {
 public:
  explicit RowsDof(const std::filesystem::path& shaderDir) : shaderDir_(shaderDir) {}

  void attach(const Targets& t) override {
    const bool formatChanged = !program_ || t.satFormat != targets_.satFormat;
    targets_ = t;
    if (formatChanged) reloadShaders(shaderDir_);
  }

  void reloadShaders(const std::filesystem::path& shaderDir) override {
    program_ = compile(shaderDir, targets_.satFormat);
    shaderDir_ = shaderDir;
  }

  void run(const DofSettings& s, const DofInputs&, Profiler& profiler) override {
    auto timed = profiler.section(profiler.gl(), "dof", "test-rows");
    const Extent e = targets_.extent;
    setCocUniforms(program_.get(), reference::cocRamp(s.params, e.width), e);
    setApertureUniform(program_.get(), s.params.aperture);
    glUniform1i(6, s.showCoc ? 1 : 0);
    glUniform1i(20, offByOne_ ? 1 : 0);
    glBindTextureUnit(0, targets_.depth);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, targets_.sat);
    glBindImageTexture(0, targets_.dofOutput, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(GLuint((e.width + 63) / 64), GLuint(e.height), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  }

 private:
  std::filesystem::path shaderDir_;
  Targets targets_;
  gl::Program program_;
  const bool offByOne_ = [] {
    const char* v = std::getenv("SATDOF_TEST_ROWS_OFF_BY_ONE");
    return v && std::string(v) == "1";
  }();
};

std::optional<std::string> anyBackend(const ComputeBackend&) { return std::nullopt; }

std::unique_ptr<DofImplementation> create(const std::filesystem::path& shaderDir, ComputeBackend&) {
  return std::make_unique<RowsDof>(shaderDir);
}

const bool registered =
    (registerDofImplementation({"test-rows", "the textbook DoF in rows of 64 invocations (added by tests/add_one_more)",
                                DofFields::None, anyBackend, create}),
     true);

}  // namespace

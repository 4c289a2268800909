// engine/passes/bokeh_pass.cpp — see bokeh_pass.h.
#include "engine/passes/bokeh_pass.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "engine/gl/program.h"

namespace satdof {
namespace {

// A sprite's shape for bokeh.frag: round, or the regular polygon the aperture's blades make,
// inscribed in the circle of confusion (its corners on the circle), one edge flat at the
// bottom. The polygon is where every edge's outward normal n satisfies dot(p, n) <= the
// inradius; the sprite's light is spread over the shape's own area.
struct SpriteShape {
  int blades = 0;                 // 0: round
  float inradius = 1.0f;          // over the circle's radius: cos(pi / blades)
  float area = std::numbers::pi_v<float>;  // over the radius squared
  std::array<float, 2 * kMaxBlades> normals{};
};

SpriteShape spriteShape(int blades) {
  SpriteShape shape;
  if (blades < kMinBlades || blades > kMaxBlades) return shape;  // round (the option refuses others)
  const double pi = std::numbers::pi, step = 2.0 * pi / blades;
  shape.blades = blades;
  shape.inradius = float(std::cos(pi / blades));
  shape.area = float(0.5 * blades * std::sin(step));
  const auto exact = [](double v) { return std::abs(v) < 1e-12 ? 0.0f : float(v); };  // cos(pi/2) is 0
  for (int k = 0; k < blades; ++k) {
    const double angle = -0.5 * pi + k * step;  // k = 0: the bottom edge's normal, straight down
    shape.normals[2 * k] = exact(std::cos(angle));
    shape.normals[2 * k + 1] = exact(std::sin(angle));
  }
  return shape;
}

}  // namespace

BokehPass::BokehPass(const std::filesystem::path& shaderDir) : empty_(gl::createVertexArray()) {
  for (gl::Buffer& b : countRing_) b = gl::createBuffer(kBokehCommandBytes, nullptr, 0);
  reloadShaders(shaderDir);
}

void BokehPass::attach(const Targets& targets) {
  targets_ = targets;
  if (!sum_ || sumExtent_ != targets.extent) {
    sumFramebuffer_ = {};
    sum_ = gl::createTexture2D(GL_RGBA16F, targets.extent.width, targets.extent.height);
    sumFramebuffer_ = gl::createFramebuffer();
    glNamedFramebufferTexture(sumFramebuffer_.get(), GL_COLOR_ATTACHMENT0, sum_.get(), 0);
    if (glCheckNamedFramebufferStatus(sumFramebuffer_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("bokeh: the RGBA16F sprite sum is not a complete framebuffer here");
    sumExtent_ = targets.extent;
    glClearTexImage(sum_.get(), 0, GL_RGBA, GL_FLOAT, nullptr);  // then kept clear by the add pass
  }
  pending_.fill(false);
  counts_.reset();
  requested_.reset();
  last_.reset();
}

void BokehPass::reloadShaders(const std::filesystem::path& shaderDir) {
  program_ = gl::loadProgram(shaderDir, {{GL_VERTEX_SHADER, "bokeh.vert"}, {GL_FRAGMENT_SHADER, "bokeh.frag"}}, {});
  addProgram_ = gl::loadProgram(shaderDir, {{GL_COMPUTE_SHADER, "bokeh_add.comp"}}, {});
}

BokehRequest BokehPass::request(const BokehSettings& s, const reference::CocRamp& ramp) {
  // Three frames ago's counts: long finished, so this read does not wait.
  const int oldest = (slot_ + 1) % kBokehSlots;
  if (pending_[oldest]) {
    reference::BokehCommand c;
    glGetNamedBufferSubData(countRing_[oldest].get(), 0, sizeof c, &c);
    counts_ = BokehCounts{c.found, c.instanceCount};
    pending_[oldest] = false;
  }
  BokehRequest r;
  r.select = s.select;
  // Never more than the sprite buffer holds (the option and the panel stop there too).
  r.select.maxSprites = std::clamp<std::uint32_t>(r.select.maxSprites, 1, kMaxBokehSprites);
  r.ramp = ramp;
  r.slot = slot_;
  requested_ = r;
  return r;
}

void BokehPass::draw(const BokehSettings& s, Profiler& profiler) {
  const Targets& t = targets_;
  {
    auto timed = profiler.section(profiler.gl(), "bokeh draw");
    glUseProgram(program_.get());
    glUniform2i(0, t.extent.width, t.extent.height);
    const SpriteShape shape = spriteShape(s.blades);
    glUniform1i(1, shape.blades);
    glUniform1f(2, s.intensity);
    glUniform1f(3, float(s.select.threshold) / 255.0f);
    glUniform1f(4, shape.inradius);
    glUniform1f(5, shape.area);
    if (shape.blades > 0) glUniform2fv(6, shape.blades, shape.normals.data());
    glBindFramebuffer(GL_FRAMEBUFFER, sumFramebuffer_.get());
    glViewport(0, 0, t.extent.width, t.extent.height);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, t.bokehSprites);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, t.bokehCommands);
    glBindVertexArray(empty_.get());
    glDrawArraysIndirect(GL_TRIANGLE_STRIP,
                         reinterpret_cast<const void*>(static_cast<std::uintptr_t>(slot_ * kBokehCommandBytes)));
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    // The sum onto the DoF output, each pixel rounded once; the sum cleared as it goes.
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    glUseProgram(addProgram_.get());
    glUniform2i(0, t.extent.width, t.extent.height);
    glBindImageTexture(0, t.dofOutput, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
    glBindImageTexture(1, sum_.get(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA16F);
    glDispatchCompute(GLuint((t.extent.width + 15) / 16), GLuint((t.extent.height + 15) / 16), 1);
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    glBindImageTexture(1, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    // Whatever reads the DoF output next (the view pass, a blit, a read back, CUDA), and
    // the next frame's sprites blended into the cleared sum.
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  }
  glCopyNamedBufferSubData(t.bokehCommands, countRing_[slot_].get(), slot_ * kBokehCommandBytes, 0,
                           kBokehCommandBytes);
  pending_[slot_] = true;
  last_ = requested_;
  slot_ = (slot_ + 1) % kBokehSlots;
}

}  // namespace satdof

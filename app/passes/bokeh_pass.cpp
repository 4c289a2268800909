// app/passes/bokeh_pass.cpp — see bokeh_pass.h.
#include "passes/bokeh_pass.h"

#include "backends/compute_backend.h"
#include "gl/program.h"
#if SATDOF_HAVE_CUDA
#include "interop/stage_host.h"
#include "satdof/bokeh.h"
#include "satdof/device_buffer.h"
#endif

namespace satdof {

#if SATDOF_HAVE_CUDA
// Selection and sort on the backend's stream, in a mapping of their own.
struct BokehPass::Cuda {
  explicit Cuda(interop::StageHost& h) : host(h) {}
  interop::StageHost& host;
  DeviceBuffer<unsigned char> scratch;
  std::vector<interop::SurfaceObject> surfaces;  // this frame's, kept until the next

  void run(const Targets& t, const BokehSettings& s, const reference::CocRamp& ramp, GLuint source, int slot,
           Profiler& profiler) {
    using interop::Target;
    const cudaStream_t stream = host.stream();
    const Target colour = source == t.filtered ? Target::Filtered : Target::SceneColour;
    auto mapSection = profiler.section(host.clock(), "bokeh map");
    auto mapped = host.session().map({colour, Target::Depth, Target::BokehSprites, Target::BokehCommands}, stream);
    mapSection.end();
    {
      auto timed = profiler.section(host.clock(), "bokeh select+sort", "single-pass / onesweep");
      surfaces.clear();
      BokehArgs a;
      a.colour = surfaces.emplace_back(interop::createSurface(mapped.array(colour))).get();
      a.depth = surfaces.emplace_back(interop::createSurface(mapped.array(Target::Depth))).get();
      a.width = t.extent.width;
      a.height = t.extent.height;
      a.ramp = ramp;
      a.settings = s.select;
      // Never more than the sprite buffer holds (the option and the panel stop there too).
      a.settings.maxSprites = std::min<std::uint32_t>(a.settings.maxSprites, kMaxBokehSprites);
      a.sprites = static_cast<reference::BokehSprite*>(mapped.pointer(Target::BokehSprites));
      a.command = reinterpret_cast<BokehCommand*>(static_cast<unsigned char*>(mapped.pointer(Target::BokehCommands)) +
                                                  std::size_t(slot) * kBokehCommandBytes);
      if (const std::size_t need = bokehScratchBytes(a); scratch.size() < need) {
        SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
        scratch.resize(need);
      }
      SATDOF_CUDA_CHECK(launchBokehHighlights(a, scratch.data(), scratch.size(), stream));
    }
    auto unmapSection = profiler.section(host.clock(), "bokeh unmap");
    mapped.unmap();
  }
};
#else
struct BokehPass::Cuda {};
#endif

BokehPass::BokehPass(const std::filesystem::path& shaderDir, ComputeBackend& backend)
    : empty_(gl::createVertexArray()) {
#if SATDOF_HAVE_CUDA
  if (auto* host = dynamic_cast<interop::StageHost*>(&backend)) cuda_ = std::make_unique<Cuda>(*host);
#else
  (void)backend;
#endif
  for (gl::Buffer& b : countRing_) b = gl::createBuffer(kBokehCommandBytes, nullptr, 0);
  reloadShaders(shaderDir);
}

BokehPass::~BokehPass() = default;

std::optional<std::string> BokehPass::whyNot(const ComputeBackend& backend) {
#if SATDOF_HAVE_CUDA
  if (dynamic_cast<const interop::StageHost*>(&backend)) return std::nullopt;
#endif
  return "bokeh highlights need the cuda backend (its compaction and radix sort); this one is " +
         std::string(backend.name());
}

void BokehPass::attach(const Targets& targets) {
  targets_ = targets;
  pending_.fill(false);
  counts_.reset();
}

void BokehPass::reloadShaders(const std::filesystem::path& shaderDir) {
  program_ = gl::loadProgram(shaderDir, {{GL_VERTEX_SHADER, "bokeh.vert"}, {GL_FRAGMENT_SHADER, "bokeh.frag"}}, {});
}

void BokehPass::run(const BokehSettings& s, const reference::CocRamp& ramp, GLuint source, Profiler& profiler) {
  if (!s.enabled || !cuda_) return;
  const Targets& t = targets_;
  // Three frames ago's counts: long finished, so this read does not wait.
  const int oldest = (slot_ + 1) % kBokehSlots;
  if (pending_[oldest]) {
    std::uint32_t c[5] = {};
    glGetNamedBufferSubData(countRing_[oldest].get(), 0, sizeof c, c);
    counts_ = BokehCounts{c[4], c[1]};
    pending_[oldest] = false;
  }
#if SATDOF_HAVE_CUDA
  cuda_->run(t, s, ramp, source, slot_, profiler);
#endif
  {
    auto timed = profiler.section(profiler.gl(), "bokeh draw");
    glUseProgram(program_.get());
    glUniform2i(0, t.extent.width, t.extent.height);
    glUniform1i(1, s.shape);
    glUniform1f(2, s.intensity);
    glUniform1f(3, float(s.select.threshold) / 255.0f);
    glBindFramebuffer(GL_FRAMEBUFFER, t.dofFramebuffer);
    glViewport(0, 0, t.extent.width, t.extent.height);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, t.bokehSprites);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, t.bokehCommands);
    glBindVertexArray(empty_.get());
    glDrawArraysIndirect(GL_TRIANGLE_STRIP,
                         reinterpret_cast<const void*>(static_cast<std::uintptr_t>(slot_ * kBokehCommandBytes)));
    glBindVertexArray(0);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glDisable(GL_BLEND);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  }
  glCopyNamedBufferSubData(t.bokehCommands, countRing_[slot_].get(), slot_ * kBokehCommandBytes, 0,
                           kBokehCommandBytes);
  pending_[slot_] = true;
  slot_ = (slot_ + 1) % kBokehSlots;
}

}  // namespace satdof

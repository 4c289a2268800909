// engine/backends/gl_bokeh.cpp — see gl_bokeh.h.
#include "engine/backends/gl_bokeh.h"

#include "engine/dof/coc_uniforms.h"
#include "engine/gl/program.h"

namespace satdof {
namespace {

constexpr int kGroup = 256;      // bokeh_emit.comp's work group
constexpr int kRankGroup = 64;   // bokeh_rank.comp's work group: the elements it ranks
constexpr int kRankChunk = 512;  // and the keys each group compares them with

GLuint groups(int n, int per) { return GLuint((n + per - 1) / per); }
int segmentsPerRow(Extent frame) { return int(groups(frame.width, GlBokeh::kSegment)); }

gl::Program load(const std::filesystem::path& dir, const char* file) {
  return gl::loadProgram(dir, {{GL_COMPUTE_SHADER, file}}, {},
                         {{"SEGMENT", GlBokeh::kSegment}, {"GROUP", kRankGroup}, {"CHUNK", kRankChunk}});
}

}  // namespace

GlBokeh::GlBokeh(const std::filesystem::path& dir)
    : select_(load(dir, "compute/bokeh_flags.comp")),
      offsets_(load(dir, "compute/bokeh_offsets.comp")),
      compact_(load(dir, "compute/bokeh_compact.comp")),
      rank_(load(dir, "compute/bokeh_rank.comp")),
      emit_(load(dir, "compute/bokeh_emit.comp")) {}

void GlBokeh::attach(const Targets& t) {
  targets_ = t;
  const std::size_t segments = std::size_t(segmentsPerRow(t.extent)) * std::size_t(t.extent.height);
  flags_ = gl::createBuffer(GLsizeiptr(segments * (kSegment / 4) * 4), nullptr, 0);
  segments_ = gl::createBuffer(GLsizeiptr(segments * 8), nullptr, 0);
  if (!counts_) {  // independent of the frame's size
    counts_ = gl::createBuffer(2 * sizeof(std::uint32_t), nullptr, 0);
    for (gl::Buffer* list : {&keys_, &pixels_, &ranks_})
      *list = gl::createBuffer(GLsizeiptr(kMaxBokehSprites) * 4, nullptr, 0);
  }
}

void GlBokeh::detach() {
  targets_ = {};
  flags_.reset();
  segments_.reset();
}

void GlBokeh::run(GLuint colour, const BokehRequest& r, Profiler& profiler) {
  const Targets& t = targets_;
  const Extent frame = t.extent;
  const std::uint32_t cap = r.select.maxSprites;
  const int perRow = segmentsPerRow(frame);
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 4, -1, "bokeh");
  const GLuint buffers[] = {flags_.get(), counts_.get(), keys_.get(), pixels_.get(), ranks_.get(), segments_.get()};
  for (GLuint b = 0; b < std::size(buffers); ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, buffers[b]);
  glBindTextureUnit(0, colour);
  glBindTextureUnit(1, t.depth);
  {
    auto timed = profiler.section(profiler.gl(), "bokeh select", "glsl");
    const GLuint s = select_.get();
    setCocUniforms(s, r.ramp, frame);
    gl::uniform1i(s, "uSegmentsPerRow", perRow);
    gl::uniform1ui(s, "uThreshold", r.select.threshold);
    gl::uniform1ui(s, "uContrast", r.select.contrast);
    gl::uniform1i(s, "uMinRadius", r.select.minRadius);
    glUseProgram(s);
    glDispatchCompute(GLuint(perRow), GLuint(frame.height), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    const GLuint o = offsets_.get();
    gl::uniform1ui(o, "uSegments", std::uint32_t(perRow) * std::uint32_t(frame.height));
    gl::uniform1ui(o, "uCap", cap);
    glUseProgram(o);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);

    const GLuint c = compact_.get();
    gl::uniform1i(c, "uSegmentsPerRow", perRow);
    gl::uniform1i(c, "uWidth", frame.width);
    gl::uniform1ui(c, "uCap", cap);
    glUseProgram(c);
    glDispatchCompute(GLuint(perRow), GLuint(frame.height), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  {
    auto timed = profiler.section(profiler.gl(), "bokeh sort", "glsl");
    glUseProgram(rank_.get());
    // Groups past the count return at once: the count is on the GPU, the cap bounds it.
    glDispatchCompute(groups(int(cap), kRankGroup), groups(int(cap), kRankChunk), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  {
    auto timed = profiler.section(profiler.gl(), "bokeh sprites", "glsl");
    const GLuint e = emit_.get();
    setCocUniforms(e, r.ramp, frame);
    gl::uniform1ui(e, "uCommand", std::uint32_t(r.slot * kBokehCommandBytes / 4));
    glUseProgram(e);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, t.bokehSprites);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 7, t.bokehCommands);
    glDispatchCompute(groups(int(cap), kGroup), 1, 1);
  }
  // The draw reads the sprites and the command; the ring copies the command.
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  glUseProgram(0);
  for (GLuint unit : {0u, 1u}) glBindTextureUnit(unit, 0);
  for (GLuint b = 0; b < 8; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, 0);
  glPopDebugGroup();
}

}  // namespace satdof

// engine/backends/gl_bokeh.cpp — see gl_bokeh.h.
#include "engine/backends/gl_bokeh.h"

#include "engine/dof/coc_uniforms.h"
#include "engine/gl/program.h"

namespace satdof {
namespace {

constexpr int kTile = 16;      // the 2D passes' work group edge
constexpr int kGroup = 256;    // bokeh_emit.comp's work group
constexpr int kRankGroup = 64;   // bokeh_rank.comp's work group: the elements it ranks
constexpr int kRankChunk = 512;  // and the keys each group compares them with

GLuint groups(int n, int per) { return GLuint((n + per - 1) / per); }

void setExtent(GLuint program, const char* name, Extent e) { gl::uniform2i(program, name, e.width, e.height); }

}  // namespace

GlBokeh::GlBokeh(const std::filesystem::path& dir)
    : flags_(gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "compute/bokeh_flags.comp"}})),
      compact_(gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "compute/bokeh_compact.comp"}})),
      rank_(gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "compute/bokeh_rank.comp"}}, {},
                            {{"GROUP", kRankGroup}, {"CHUNK", kRankChunk}})),
      emit_(gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "compute/bokeh_emit.comp"}})) {}

void GlBokeh::attach(const Targets& t) {
  targets_ = t;
  const Extent f = flagExtent(t.extent);
  flagTexture_ = gl::createTexture2D(GL_RGBA8, f.width, f.height);
  flagSat_ = gl::createBuffer(GLsizeiptr(std::size_t(f.width) * f.height * 16), nullptr, 0);
  if (!counts_) {  // independent of the frame's size
    counts_ = gl::createBuffer(2 * sizeof(std::uint32_t), nullptr, 0);
    for (gl::Buffer* list : {&keys_, &pixels_, &ranks_})
      *list = gl::createBuffer(GLsizeiptr(kMaxBokehSprites) * 4, nullptr, 0);
  }
}

void GlBokeh::detach() {
  targets_ = {};
  flagTexture_.reset();
  flagSat_.reset();
}

void GlBokeh::run(GLuint colour, const BokehRequest& r, const SatOfTexture& sat, Profiler& profiler) {
  const Targets& t = targets_;
  const Extent frame = t.extent, flags = flagExtent(frame);
  const std::uint32_t cap = r.select.maxSprites;
  auto bindLists = [&] {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, counts_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, keys_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, pixels_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, ranks_.get());
  };
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 4, -1, "bokeh");
  {
    auto timed = profiler.section(profiler.gl(), "bokeh select", "glsl");
    const GLuint p = flags_.get();
    setCocUniforms(p, r.ramp, frame);
    setExtent(p, "uTableSize", flags);
    gl::uniform1ui(p, "uThreshold", r.select.threshold);
    gl::uniform1ui(p, "uContrast", r.select.contrast);
    gl::uniform1i(p, "uMinRadius", r.select.minRadius);
    glBindTextureUnit(0, colour);
    glBindTextureUnit(1, t.depth);
    glBindImageTexture(0, flagTexture_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glDispatchCompute(groups(flags.width, kTile), groups(flags.height, kTile), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
    sat(flagTexture_.get(), flags, flagSat_.get());

    const GLuint c = compact_.get();
    setExtent(c, "uTableSize", flags);
    gl::uniform1i(c, "uWidth", frame.width);
    gl::uniform1ui(c, "uCap", cap);
    glUseProgram(c);
    glBindTextureUnit(0, flagTexture_.get());
    glBindTextureUnit(1, t.depth);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, flagSat_.get());
    bindLists();
    glDispatchCompute(groups(flags.width, kTile), groups(flags.height, kTile), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  {
    auto timed = profiler.section(profiler.gl(), "bokeh sort", "glsl");
    glUseProgram(rank_.get());
    bindLists();
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
    glBindTextureUnit(0, colour);
    glBindTextureUnit(1, t.depth);
    bindLists();
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, t.bokehSprites);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 7, t.bokehCommands);
    glDispatchCompute(groups(int(cap), kGroup), 1, 1);
  }
  // The draw reads the sprites and the command; the ring copies the command.
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  glUseProgram(0);
  for (GLuint unit : {0u, 1u}) glBindTextureUnit(unit, 0);
  glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  for (GLuint b = 0; b < 8; ++b) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, 0);
  glPopDebugGroup();
}

}  // namespace satdof

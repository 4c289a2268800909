// engine/passes/view_pass.cpp — see view_pass.h.
#include "engine/passes/view_pass.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdio>
#include <stdexcept>

#include "engine/gl/program.h"
#include "engine/passes/scene_pass.h"

namespace satdof {

namespace {
const std::vector<gl::ShaderStage> kViewPassStages = {{GL_VERTEX_SHADER, "fullscreen.vert"},
                                                      {GL_FRAGMENT_SHADER, "view.frag"}};

// The shader's mode numbers (view.frag's header).
int shaderMode(ViewMode m) {
  switch (m) {
    case ViewMode::Split: return 1;
    case ViewMode::Difference: return 2;
    case ViewMode::Depth: return 3;
    case ViewMode::Sat: return 4;
    case ViewMode::Focus: return 5;
    case ViewMode::Holes: return 6;
    default: return 0;
  }
}
}  // namespace

const char* toString(ViewMode mode) {
  switch (mode) {
    case ViewMode::Final: return "final";
    case ViewMode::Scene: return "scene";
    case ViewMode::Depth: return "depth";
    case ViewMode::Holes: return "holes";
    case ViewMode::Sat: return "sat";
    case ViewMode::Filtered: return "filtered";
    case ViewMode::Split: return "split";
    case ViewMode::Difference: return "diff";
    case ViewMode::Focus: return "focus";
  }
  return "?";
}

const char* describe(ViewMode mode) {
  switch (mode) {
    case ViewMode::Final: return "The depth-of-field image";
    case ViewMode::Scene: return "The scene colour before any filter or blur";
    case ViewMode::Depth: return "Linear depth, white = nearest, black = farthest (sky in blue)";
    case ViewMode::Holes:
      return "The depth view with the pixels that had no depth reading (a photo's holes, filled from the surfaces "
             "around them) tinted magenta";
    case ViewMode::Sat: return "The summed-area table divided by its total, per channel";
    case ViewMode::Filtered: return "Convolution A's output (the SAT's input)";
    case ViewMode::Split: return "Configuration A's image left of the divider, B's right of it; drag the divider";
    case ViewMode::Difference: return "|A - B| of the two configurations' images, amplified; the maximum is printed";
    case ViewMode::Focus: return "The final image, pixels within 5% of the focal distance tinted green";
  }
  return "";
}

const std::vector<ViewMode>& viewModes() {
  static const std::vector<ViewMode> all = {ViewMode::Final, ViewMode::Scene,    ViewMode::Depth,
                                            ViewMode::Holes, ViewMode::Sat,      ViewMode::Focus,
                                            ViewMode::Filtered, ViewMode::Split, ViewMode::Difference};
  return all;
}

bool showsFilterOutput(ViewMode m) { return m == ViewMode::Filtered; }

bool comparesConfigurations(ViewMode m) { return m == ViewMode::Split || m == ViewMode::Difference; }

std::string describeHoles(std::size_t holes, float share) {
  if (holes == 0) return "no depth holes: every pixel has its own depth";
  char text[128];
  std::snprintf(text, sizeof text, "magenta: %zu pixels (%.1f %%) had no depth reading, filled from around them", holes,
                100.0 * double(share));
  return text;
}

std::string describeDifference(unsigned maxDifference, float gain) {
  char text[96];
  std::snprintf(text, sizeof text, "max |A - B| = %u grey levels (shown x%.0f)", maxDifference, double(gain));
  return text;
}

std::optional<ViewMode> viewModeFromName(const std::string& name) {
  for (ViewMode m : viewModes())
    if (name == toString(m)) return m;
  return std::nullopt;
}

ViewPass::ViewPass(const std::filesystem::path& shaderDir)
    : shaderDir_(shaderDir), empty_(gl::createVertexArray()) {
  for (Slot& s : slots_) s.stats = gl::createBuffer(3 * sizeof(GLuint), nullptr, GL_DYNAMIC_STORAGE_BIT);
}

void ViewPass::reloadShaders(const std::filesystem::path& shaderDir) {
  const std::string reader(satFormatInfo(targets_.satFormat).shaderInclude);
  program_ = gl::loadProgram(shaderDir, kViewPassStages, {{"sat_format.glsl", reader}});
  shaderDir_ = shaderDir;
}

void ViewPass::attach(const Targets& targets) {
  const bool formatChanged = !program_ || targets.satFormat != targets_.satFormat;
  targets_ = targets;
  if (formatChanged) reloadShaders(shaderDir_);
  const Extent extent = targets.extent;
  output_ = gl::createTexture2D(GL_RGBA8, extent.width, extent.height);
  framebuffer_ = gl::createFramebuffer();
  glNamedFramebufferTexture(framebuffer_.get(), GL_COLOR_ATTACHMENT0, output_.get(), 0);
  if (glCheckNamedFramebufferStatus(framebuffer_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("view framebuffer incomplete");
}

void ViewPass::collect(Slot& slot) {
  if (!slot.pending) return;
  GLuint v[3] = {0, 0, 0};
  glGetNamedBufferSubData(slot.stats.get(), 0, sizeof v, v);
  if (slot.mode == ViewMode::Difference) maxDifference_ = v[0];
  if ((slot.mode == ViewMode::Depth || slot.mode == ViewMode::Holes) && v[1] <= v[2])
    depthRange_ = DepthRange{std::bit_cast<float>(v[1]), std::bit_cast<float>(v[2])};
  slot.pending = false;
}

void ViewPass::drain() {
  collect(slots_[1 - current_]);  // the older one first, the newest last
  collect(slots_[current_]);
}

void ViewPass::run(const ViewSettings& s, const ViewInputs& in) {
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 4, -1, "view");
  // The other slot was written a frame ago: reading it now rarely waits.
  const int previous = 1 - current_;
  collect(slots_[previous]);
  const bool measures = s.mode == ViewMode::Difference || s.mode == ViewMode::Depth || s.mode == ViewMode::Holes;
  if (measures) {
    Slot& slot = slots_[current_];
    const GLuint init[3] = {0, std::bit_cast<GLuint>(FLT_MAX), 0};
    glNamedBufferSubData(slot.stats.get(), 0, sizeof init, init);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, slot.stats.get());
    slot.pending = true;
    slot.mode = s.mode;
    current_ = previous;
  }
  gainUsed_ = s.gain;
  if (s.autoGain) gainUsed_ = 255.0f / float(std::max(maxDifference_.value_or(1u), 1u));
  const DepthRange range = depthRange_.value_or(DepthRange{0.0f, ScenePass::kSkyDepth});

  GLuint a = in.a, b = in.b;
  if (s.mode == ViewMode::Scene) a = targets_.sceneColour;
  if (s.mode == ViewMode::Focus) a = targets_.dofOutput;
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glViewport(0, 0, targets_.extent.width, targets_.extent.height);
  glUseProgram(program_.get());
  glUniform1i(0, shaderMode(s.mode));
  glUniform1f(1, s.divider * float(targets_.extent.width));
  glUniform1f(2, gainUsed_);
  glUniform2f(3, range.nearest, range.farthest);
  glUniform1f(4, ScenePass::kSkyDepth * 0.999f);
  glUniform2i(5, targets_.extent.width, targets_.extent.height);
  glUniform1f(6, in.focalDistance);
  glUniform1f(7, focusBand(in.focalDistance));
  glUniform1i(8, in.holes != 0);
  glBindTextureUnit(0, a ? a : targets_.sceneColour);
  glBindTextureUnit(1, b ? b : targets_.sceneColour);
  glBindTextureUnit(2, targets_.depth);
  glBindTextureUnit(3, in.holes ? in.holes : targets_.depth);  // (not read without holes)
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, targets_.sat);
  glBindVertexArray(empty_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  if (measures) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the atomics land before the read-back
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glPopDebugGroup();
}

}  // namespace satdof

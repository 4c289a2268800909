// engine/passes/photo_pass.cpp — see photo_pass.h.
#include "engine/passes/photo_pass.h"

#include <algorithm>
#include <vector>

#include "engine/gl/program.h"
#include "engine/passes/scene_pass.h"

namespace satdof {
namespace {
const std::vector<gl::ShaderStage> kPhotoStages = {{GL_COMPUTE_SHADER, "photo.comp"}};
}  // namespace

PhotoPass::PhotoPass(const std::filesystem::path& shaderDir, const content::Photo& photo)
    : program_(gl::loadProgram(shaderDir, kPhotoStages)), photo_{photo.colour.width, photo.colour.height} {
  const int w = photo_.width, h = photo_.height;
  colour_ = gl::createMipmappedTexture2D(GL_RGBA8, w, h, photo.colour.pixels.data(), GL_CLAMP_TO_EDGE);
  depth_ = gl::createTexture2D(GL_R32F, w, h);
  glTextureSubImage2D(depth_.get(), 0, 0, 0, w, h, GL_RED, GL_FLOAT, photo.depth.pixels.data());
}

void PhotoPass::reloadShaders(const std::filesystem::path& shaderDir) { program_ = gl::loadProgram(shaderDir, kPhotoStages); }

void PhotoPass::attach(const Targets& targets) {
  targetColour_ = targets.sceneColour;
  targetDepth_ = targets.depth;
  extent_ = targets.extent;
}

void PhotoPass::run(Profiler& profiler) {
  auto timed = profiler.section(profiler.gl(), "scene");
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "photo");
  // Photo texels per target pixel, the same both ways (the photo keeps its shape), and the
  // target pixel where the photo starts.
  const float s = std::max(float(photo_.width) / float(extent_.width), float(photo_.height) / float(extent_.height));
  const float x0 = 0.5f * (float(extent_.width) - float(photo_.width) / s);
  const float y0 = 0.5f * (float(extent_.height) - float(photo_.height) / s);
  glUseProgram(program_.get());
  glUniform4f(0, x0, y0, s, s);
  glUniform1f(1, ScenePass::kSkyDepth);
  glUniform3f(2, 0.08f, 0.08f, 0.1f);  // the window's background beside the image
  glBindTextureUnit(0, colour_.get());
  glBindTextureUnit(1, depth_.get());
  dispatchOverSceneTargets(targetColour_, targetDepth_, extent_);
  glPopDebugGroup();
}

}  // namespace satdof

// engine/passes/photo_pass.cpp — see photo_pass.h.
#include "engine/passes/photo_pass.h"

#include <algorithm>
#include <cstdint>
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
  // The holes as 0 or 255, so that the shaders read 0.0 or 1.0 (rows as the depth's).
  hasHoles_ = photo.holeCount > 0;
  std::vector<std::uint8_t> mask(std::size_t(w) * std::size_t(h), 0);
  for (std::size_t i = 0; i < mask.size() && i < photo.holes.size(); ++i) mask[i] = photo.holes[i] ? 255 : 0;
  holes_ = gl::createTexture2D(GL_R8, w, h);
  glTextureSubImage2D(holes_.get(), 0, 0, 0, w, h, GL_RED, GL_UNSIGNED_BYTE, mask.data());
}

void PhotoPass::reloadShaders(const std::filesystem::path& shaderDir) { program_ = gl::loadProgram(shaderDir, kPhotoStages); }

void PhotoPass::attach(const Targets& targets) {
  targetColour_ = targets.sceneColour;
  targetDepth_ = targets.depth;
  extent_ = targets.extent;
  holesTarget_ = gl::createTexture2D(GL_R8, extent_.width, extent_.height);
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
  glBindTextureUnit(2, holes_.get());
  glBindImageTexture(2, holesTarget_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R8);
  dispatchOverSceneTargets(targetColour_, targetDepth_, extent_);
  glBindImageTexture(2, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R8);
  glPopDebugGroup();
}

}  // namespace satdof

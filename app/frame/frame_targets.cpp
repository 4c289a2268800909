// app/frame/frame_targets.cpp — see frame_targets.h.
#include "frame/frame_targets.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace satdof {

void FrameTargets::checkExtent(Extent extent, SatFormat format) {
  GLint64 maxBlock = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlock);
  const auto bytes = std::int64_t(satTableBytes(format, extent.width, extent.height));
  if (maxBlock > 0 && bytes > maxBlock)
    throw std::runtime_error(std::to_string(extent.width) + "x" + std::to_string(extent.height) +
                             " needs a " + std::to_string(bytes >> 20) + " MiB SAT (" +
                             std::string(satFormatInfo(format).name) +
                             "), more than this GL's largest shader storage block (" +
                             std::to_string(maxBlock >> 20) + " MiB)");
}

void FrameTargets::allocate(Extent extent, SatFormat format, bool layers) {
  checkExtent(extent, format);
  const int w = extent.width, h = extent.height;
  sceneColour_ = gl::createTexture2D(GL_RGBA8, w, h);
  depth_ = gl::createTexture2D(GL_R32F, w, h);
  filtered_ = gl::createTexture2D(GL_RGBA8, w, h);
  compare_ = gl::createTexture2D(GL_RGBA8, w, h);
  dofOutput_ = gl::createTexture2D(GL_RGBA8, w, h);
  // Dynamic storage: the CPU backend uploads with glNamedBufferSubData.
  sat_ = gl::createBuffer(GLsizeiptr(satTableBytes(format, w, h)), nullptr, GL_DYNAMIC_STORAGE_BIT);
  dofFramebuffer_ = gl::createFramebuffer();
  glNamedFramebufferTexture(dofFramebuffer_.get(), GL_COLOR_ATTACHMENT0, dofOutput_.get(), 0);
  if (glCheckNamedFramebufferStatus(dofFramebuffer_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("DoF output framebuffer incomplete");
  nearField_ = {};
  farField_ = {};
  nearSat_ = {};
  farSat_ = {};
  nearTileRadius_ = {};
  if (layers) {
    nearTileRadius_ = gl::createTexture2D(GL_R32I, (w + 15) / 16, (h + 15) / 16);
    nearField_ = gl::createTexture2D(GL_RGBA8, w, h);
    farField_ = gl::createTexture2D(GL_RGBA8, w, h);
    const auto bytes = GLsizeiptr(satTableBytes(SatFormat::Uint32, w, h));
    nearSat_ = gl::createBuffer(bytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
    farSat_ = gl::createBuffer(bytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
  }
  // Written by CUDA, by compute shaders, or uploaded by the CPU backend (dynamic storage).
  bokehSprites_ = gl::createBuffer(GLsizeiptr(kMaxBokehSprites) * 32, nullptr, GL_DYNAMIC_STORAGE_BIT);
  bokehCommands_ = gl::createBuffer(GLsizeiptr(kBokehSlots) * kBokehCommandBytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
  targets_ = {sceneColour_.get(), depth_.get(), filtered_.get(), compare_.get(), sat_.get(),
              dofOutput_.get(), dofFramebuffer_.get(), nearField_.get(), farField_.get(),
              nearSat_.get(), farSat_.get(), nearTileRadius_.get(), bokehSprites_.get(),
              bokehCommands_.get(), extent, format};
}

}  // namespace satdof

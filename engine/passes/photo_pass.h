// engine/passes/photo_pass.h — the scene stage for an RGB-D photo (engine/content/photo.h): no
// geometry, its colour and depth uploaded once and written into the frame's scene colour
// and linear depth targets by one compute pass (shaders/photo.comp), the targets the scene
// pass would draw into. Byte for byte at the photo's size; fitted in, centred, at any other
// (a window's image area). Section "scene", as the scene pass's.
#pragma once

#include <filesystem>

#include "engine/frame/frame_targets.h"
#include "engine/gl/handles.h"
#include "engine/profiling/profiler.h"
#include "engine/content/photo.h"

namespace satdof {

class PhotoPass {
 public:
  PhotoPass(const std::filesystem::path& shaderDir, const content::Photo& photo);
  // After every (re)allocation of the targets.
  void attach(const Targets& targets);
  // Recompiles the shader; on failure throws and keeps the current program.
  void reloadShaders(const std::filesystem::path& shaderDir);
  void run(Profiler& profiler);
  Extent photoExtent() const { return photo_; }

 private:
  gl::Program program_;
  gl::Texture colour_, depth_;
  Extent photo_;
  GLuint targetColour_ = 0, targetDepth_ = 0;
  Extent extent_;
};

}  // namespace satdof

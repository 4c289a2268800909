// engine/passes/photo_pass.h — the scene stage for an RGB-D photo (engine/content/photo.h): no
// geometry, its colour and depth uploaded once and written into the frame's scene colour
// and linear depth targets by one compute pass (shaders/photo.comp), the targets the scene
// pass would draw into. Byte for byte at the photo's size; fitted in, centred, at any other
// (a window's image area). Section "scene", as the scene pass's. Beside them it writes which
// pixels were holes in the depth map (no reading: content/depth_holes.h filled them) into an
// image of its own at the frame's size, for the holes view (view_pass.h).
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
  // R8, the frame's size: 1 where the photo's depth map had no reading, 0 elsewhere (and
  // beside a fitted photo); 0 (no image) where it had none.
  GLuint holesImage() const { return hasHoles_ ? holesTarget_.get() : 0; }

 private:
  gl::Program program_;
  gl::Texture colour_, depth_, holes_;
  gl::Texture holesTarget_;  // holesImage(), allocated with the targets
  bool hasHoles_ = false;
  Extent photo_;
  GLuint targetColour_ = 0, targetDepth_ = 0;
  Extent extent_;
};

}  // namespace satdof

// app/passes/scene_pass.h — renders the scene into an offscreen framebuffer:
// colour RGBA8 (the SAT's input) and linear view depth R32F (the DoF pass's input),
// with a 32-bit float depth buffer for the z-test.
#pragma once

#include <filesystem>
#include <vector>

#include "context/context.h"
#include "gl/handles.h"
#include "scene/scene.h"

namespace satdof {

class ScenePass {
 public:
  ScenePass(const std::filesystem::path& shaderDir, const scene::Scene& scene);
  void resize(Extent extent);
  // Recompiles the shaders; on failure throws and keeps the current program.
  void reloadShaders(const std::filesystem::path& shaderDir);
  void run(const scene::Scene& scene);

  GLuint colourTexture() const { return colour_.get(); }
  GLuint depthTexture() const { return distance_.get(); }
  // Linear depth written where nothing was drawn (the sky): far, so maximally blurred.
  static constexpr float kSkyDepth = 1000.0f;

 private:
  struct GpuMesh {
    gl::Buffer vertices, indices;
    gl::VertexArray layout;
    GLsizei indexCount = 0;
  };
  gl::Program program_;
  std::vector<GpuMesh> meshes_;
  gl::Texture floorTexture_;
  Extent extent_;
  gl::Texture colour_, distance_;
  gl::Renderbuffer depth_;
  gl::Framebuffer framebuffer_;
};

}  // namespace satdof

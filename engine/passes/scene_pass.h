// engine/passes/scene_pass.h — renders the scene into the frame's colour RGBA8 (the SAT's
// input) and linear view depth R32F (the DoF's input) targets, with a 32-bit float depth
// buffer of its own for the z-test.
//
// Anti-aliasing (setSamples > 1): the scene is drawn into multisampled colour, linear
// depth and z-buffer of its own, then resolved into the frame's targets by a full-screen
// pass (shaders/scene_resolve.frag): the colour is the mean of the samples, the linear
// depth the nearest sample's (a mean across a silhouette would be a depth where nothing
// is). The frame's targets stay single-sampled: multisample textures cannot be
// registered with CUDA.
#pragma once

#include <filesystem>
#include <vector>

#include "engine/basic_types.h"
#include "engine/frame/frame_targets.h"
#include "engine/gl/handles.h"
#include "engine/profiling/profiler.h"
#include "engine/scene/scene.h"

namespace satdof {

class ScenePass {
 public:
  ScenePass(const std::filesystem::path& shaderDir, const scene::Scene& scene);
  // After every (re)allocation of the targets: attaches their colour and depth.
  void attach(const Targets& targets);
  // Recompiles the shaders; on failure throws and keeps the current program.
  void reloadShaders(const std::filesystem::path& shaderDir);
  void run(const scene::Scene& scene, Profiler& profiler);
  // The same through other matrices (a lens's eye: engine/scene/camera.h's aperture*): the
  // frame's depth target gets the view depth from that eye.
  void run(const scene::Scene& scene, const glm::mat4& view, const glm::mat4& projection, Profiler& profiler);
  // The scene's second layer (depth peeling), for the see-through DoF: the nearest
  // surface behind the first layer's (the frame's resolved depth), no nearer than `from`
  // (reference::secondLayerFrom: no blurred near surface), that faces the eye, so that
  // behind a closed object lies what is behind it, not its own far side. Drawn from the
  // frame's camera, single-sampled (it is seen through blurred edges only), into images of
  // the pass's own; section "scene layer 2". Call after run().
  void drawSecondLayer(const scene::Scene& scene, float from, Profiler& profiler);
  struct Layer {
    GLuint colour = 0, depth = 0;  // RGBA8, R32F linear view distance (the frame's kinds)
  };
  // Frees the second layer's images (no DoF needs them now); drawSecondLayer makes them again.
  void releaseSecondLayer();
  // What drawSecondLayer drew since the last run() (zeros if nothing).
  Layer secondLayer() const { return peelDrawn_ ? Layer{peelColour_.get(), peelDistance_.get()} : Layer{}; }
  // Samples per pixel (1: none); clamped to what the GL offers. Takes effect at attach().
  void setSamples(int samples);
  int samples() const { return samples_; }

  // Linear depth written where nothing was drawn (the sky): far, so maximally blurred.
  static constexpr float kSkyDepth = 1000.0f;

 private:
  // Every instance into the bound framebuffer (what draw() and drawSecondLayer share).
  void drawInstances(const scene::Scene& scene, const glm::mat4& view, const glm::mat4& projection);
  void draw(const scene::Scene& scene, const glm::mat4& view, const glm::mat4& projection,
            Profiler& profiler);  // section "scene"
  void resolve(Profiler& profiler);                          // section "resolve"
  struct GpuMesh {
    gl::Buffer vertices, indices;
    gl::VertexArray layout;
    GLsizei indexCount = 0;
  };
  gl::Program program_;
  gl::Program peelProgram_;  // the same shaders for the second layer (scene_layer_second.glsl)
  gl::Program resolve_;
  std::vector<GpuMesh> meshes_;
  std::vector<gl::Texture> textures_;  // Scene::textures, in order
  Extent extent_;
  gl::Renderbuffer depth_;
  gl::Framebuffer framebuffer_;  // what the scene is drawn into
  int samples_ = 1;
  int attachedSamples_ = 0;  // what framebuffer_'s buffers were made with
  // Multisampled only: the samples, and the frame's targets the resolve writes.
  gl::Texture msColour_, msDistance_;
  GLuint resolvedColour_ = 0, resolvedDistance_ = 0;
  // The second layer's images and framebuffer (made by the first drawSecondLayer at a size).
  gl::Texture peelColour_, peelDistance_;
  gl::Renderbuffer peelDepth_;
  gl::Framebuffer peelFramebuffer_;
  Extent peelExtent_;
  bool peelDrawn_ = false;
};

// The bound compute program (16 x 16 work groups) over every pixel of the scene colour
// (image unit 0, RGBA8) and linear depth (unit 1, R32F) targets, then a barrier so that
// every later reader sees the stores: the MSAA resolve's and the photo pass's dispatch.
void dispatchOverSceneTargets(GLuint colour, GLuint distance, Extent extent);

}  // namespace satdof

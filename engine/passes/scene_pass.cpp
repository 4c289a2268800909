// engine/passes/scene_pass.cpp — see scene_pass.h.
#include "engine/passes/scene_pass.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <stdexcept>

#include <glm/gtc/type_ptr.hpp>

#include "engine/gl/program.h"

namespace satdof {

namespace {
const std::vector<gl::ShaderStage> kScenePassStages = {{GL_VERTEX_SHADER, "scene.vert"},
                                                   {GL_FRAGMENT_SHADER, "scene.frag"}};
const gl::IncludeAliases kFirstLayer = {{"scene_layer.glsl", "scene_layer_first.glsl"}};
const gl::IncludeAliases kSecondLayer = {{"scene_layer.glsl", "scene_layer_second.glsl"}};
const std::vector<gl::ShaderStage> kResolveStages = {{GL_COMPUTE_SHADER, "scene_resolve.comp"}};

constexpr float kSkyColour[4] = {0.52f, 0.66f, 0.82f, 1.0f};

// A scene framebuffer (colour, linear distance, depth) cleared to what nothing drawn shows:
// the sky's colour at the sky's distance.
void clearToSky(GLuint fb) {
  const float far[4] = {ScenePass::kSkyDepth, 0, 0, 0};
  glClearNamedFramebufferfv(fb, GL_COLOR, 0, kSkyColour);
  glClearNamedFramebufferfv(fb, GL_COLOR, 1, far);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 1.0f, 0);
}

void checkComplete(GLuint fb, const char* what) {
  if (glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error(std::string(what) + " framebuffer incomplete");
}
}  // namespace
namespace {

// A scene texture with mipmaps, repeated (the built-in checker: linear RGBA8; a glTF base
// colour: sRGB, so that the shader samples linear values).
gl::Texture uploadTexture(const scene::Texture& texture) {
  gl::Texture t = gl::createMipmappedTexture2D(texture.srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, texture.width, texture.height,
                                               texture.rgba.data(), GL_REPEAT);
  if (GLAD_GL_ARB_texture_filter_anisotropic || GLAD_GL_EXT_texture_filter_anisotropic)
    glTextureParameterf(t.get(), GL_TEXTURE_MAX_ANISOTROPY, 8.0f);
  return t;
}

}  // namespace

ScenePass::ScenePass(const std::filesystem::path& shaderDir, const scene::Scene& scene)
    : program_(gl::loadProgram(shaderDir, kScenePassStages, kFirstLayer)),
      peelProgram_(gl::loadProgram(shaderDir, kScenePassStages, kSecondLayer)),
      resolve_(gl::loadProgram(shaderDir, kResolveStages)) {
  for (const scene::Texture& texture : scene.textures) textures_.push_back(uploadTexture(texture));
  for (const scene::Mesh& mesh : scene.meshes) {
    GpuMesh m;
    m.vertices = gl::createBuffer(GLsizeiptr(mesh.vertices.size() * sizeof(scene::Vertex)),
                                  mesh.vertices.data(), 0);
    m.indices = gl::createBuffer(GLsizeiptr(mesh.indices.size() * sizeof(std::uint32_t)),
                                 mesh.indices.data(), 0);
    m.layout = gl::createVertexArray();
    const GLuint vao = m.layout.get();
    glVertexArrayVertexBuffer(vao, 0, m.vertices.get(), 0, sizeof(scene::Vertex));
    glVertexArrayElementBuffer(vao, m.indices.get());
    const GLuint offsets[3] = {offsetof(scene::Vertex, position), offsetof(scene::Vertex, normal),
                               offsetof(scene::Vertex, uv)};
    const GLint sizes[3] = {3, 3, 2};
    for (GLuint a = 0; a < 3; ++a) {
      glEnableVertexArrayAttrib(vao, a);
      glVertexArrayAttribFormat(vao, a, sizes[a], GL_FLOAT, GL_FALSE, offsets[a]);
      glVertexArrayAttribBinding(vao, a, 0);
    }
    m.indexCount = GLsizei(mesh.indices.size());
    meshes_.push_back(std::move(m));
  }
}

void ScenePass::reloadShaders(const std::filesystem::path& shaderDir) {
  gl::Program program = gl::loadProgram(shaderDir, kScenePassStages, kFirstLayer);
  gl::Program peel = gl::loadProgram(shaderDir, kScenePassStages, kSecondLayer);
  resolve_ = gl::loadProgram(shaderDir, kResolveStages);
  program_ = std::move(program);
  peelProgram_ = std::move(peel);
}

void ScenePass::setSamples(int samples) {
  GLint colourMax = 1, depthMax = 1, fbMax = 1;
  glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &colourMax);
  glGetIntegerv(GL_MAX_DEPTH_TEXTURE_SAMPLES, &depthMax);
  glGetIntegerv(GL_MAX_FRAMEBUFFER_SAMPLES, &fbMax);
  samples_ = std::clamp(samples, 1, std::max(1, std::min({colourMax, depthMax, fbMax})));
}

void ScenePass::attach(const Targets& targets) {
  peelDrawn_ = false;
  resolvedColour_ = targets.sceneColour;
  resolvedDistance_ = targets.depth;
  if (framebuffer_ && extent_ == targets.extent && attachedSamples_ == samples_) {
    // The same size and samples (a new SAT format, DoF or filter): the framebuffer and its
    // own buffers stay; single-sampled, it draws into the new targets. (Re-created on every
    // such switch, the old ones stayed referenced inside Mesa's llvmpipe and the soak's
    // memory grew by a set of them every few switches.)
    if (samples_ == 1) {
      glNamedFramebufferTexture(framebuffer_.get(), GL_COLOR_ATTACHMENT0, targets.sceneColour, 0);
      glNamedFramebufferTexture(framebuffer_.get(), GL_COLOR_ATTACHMENT1, targets.depth, 0);
    }
    checkComplete(framebuffer_.get(), "scene");
    return;
  }
  extent_ = targets.extent;
  attachedSamples_ = samples_;
  const int w = extent_.width, h = extent_.height;
  framebuffer_ = gl::createFramebuffer();
  const GLuint fb = framebuffer_.get();
  const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
  if (samples_ > 1) {
    msColour_ = gl::createTexture2DMultisample(GL_RGBA8, samples_, w, h);
    msDistance_ = gl::createTexture2DMultisample(GL_R32F, samples_, w, h);
    GLuint rb = 0;
    glCreateRenderbuffers(1, &rb);
    depth_ = gl::Renderbuffer(rb);
    glNamedRenderbufferStorageMultisample(rb, samples_, GL_DEPTH_COMPONENT32F, w, h);
    glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, msColour_.get(), 0);
    glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, msDistance_.get(), 0);
  } else {
    msColour_ = {};
    msDistance_ = {};
    depth_ = gl::createRenderbuffer(GL_DEPTH_COMPONENT32F, w, h);
    glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, targets.sceneColour, 0);
    glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, targets.depth, 0);
  }
  glNamedFramebufferRenderbuffer(fb, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.get());
  glNamedFramebufferDrawBuffers(fb, 2, buffers);
  checkComplete(fb, "scene");
}

void ScenePass::run(const scene::Scene& scene, Profiler& profiler) {
  run(scene, scene.camera.view(), scene.camera.projection(float(extent_.width) / float(extent_.height)), profiler);
}

void ScenePass::run(const scene::Scene& scene, const glm::mat4& view, const glm::mat4& projection,
                    Profiler& profiler) {
  peelDrawn_ = false;  // the second layer belongs to the first it was peeled from
  draw(scene, view, projection, profiler);
  if (samples_ > 1) resolve(profiler);
}

void ScenePass::draw(const scene::Scene& scene, const glm::mat4& view, const glm::mat4& projection,
                     Profiler& profiler) {
  auto timed = profiler.section(profiler.gl(), "scene");
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "scene");
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  glViewport(0, 0, extent_.width, extent_.height);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  clearToSky(framebuffer_.get());
  glUseProgram(program_.get());
  drawInstances(scene, view, projection);
  glDisable(GL_DEPTH_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glPopDebugGroup();
}

void ScenePass::drawSecondLayer(const scene::Scene& scene, float from, Profiler& profiler) {
  auto timed = profiler.section(profiler.gl(), "scene layer 2");
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, -1, "scene layer 2");
  const int w = extent_.width, h = extent_.height;
  if (!peelFramebuffer_ || peelExtent_ != extent_) {
    peelColour_ = gl::createTexture2D(GL_RGBA8, w, h);
    peelDistance_ = gl::createTexture2D(GL_R32F, w, h);
    peelDepth_ = gl::createRenderbuffer(GL_DEPTH_COMPONENT32F, w, h);
    peelFramebuffer_ = gl::createFramebuffer();
    const GLuint fb = peelFramebuffer_.get();
    glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, peelColour_.get(), 0);
    glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, peelDistance_.get(), 0);
    glNamedFramebufferRenderbuffer(fb, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, peelDepth_.get());
    const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glNamedFramebufferDrawBuffers(fb, 2, buffers);
    checkComplete(fb, "scene layer 2");
    peelExtent_ = extent_;
  }
  const GLuint fb = peelFramebuffer_.get();
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glViewport(0, 0, w, h);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  clearToSky(fb);  // where nothing lies behind the first layer: the sky, as in the first
  glUseProgram(peelProgram_.get());  // only what lies behind the first layer's depth, facing the eye
  glUniform1f(12, from);
  glBindTextureUnit(1, resolvedDistance_);
  drawInstances(scene, scene.camera.view(), scene.camera.projection(float(w) / float(h)));
  glBindTextureUnit(1, 0);
  glDisable(GL_DEPTH_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glPopDebugGroup();
  peelDrawn_ = true;
}

void ScenePass::releaseSecondLayer() {
  if (!peelFramebuffer_) return;
  peelFramebuffer_ = {};
  peelColour_ = {};
  peelDistance_ = {};
  peelDepth_ = {};
  peelExtent_ = {};
  peelDrawn_ = false;
}

void ScenePass::drawInstances(const scene::Scene& scene, const glm::mat4& view, const glm::mat4& projection) {
  glUniformMatrix4fv(1, 1, GL_FALSE, glm::value_ptr(view));
  glUniformMatrix4fv(2, 1, GL_FALSE, glm::value_ptr(projection));
  glUniform3fv(4, 1, glm::value_ptr(scene.lightDirection));
  glUniformMatrix4fv(6, 1, GL_FALSE, glm::value_ptr(view));
  for (const scene::Instance& instance : scene.instances) {
    const GpuMesh& m = meshes_.at(std::size_t(instance.mesh));
    glUniformMatrix4fv(0, 1, GL_FALSE, glm::value_ptr(instance.model));
    glUniform3fv(3, 1, glm::value_ptr(instance.albedo));
    const bool textured = instance.texture >= 0;
    glUniform1i(5, textured ? 1 : 0);
    if (textured) glBindTextureUnit(0, textures_.at(std::size_t(instance.texture)).get());
    glUniform1i(7, instance.emissive ? 1 : 0);
    glUniform1f(8, instance.diffuse);
    glUniform3fv(9, 1, glm::value_ptr(instance.specular));
    glUniform1f(10, instance.shininess);
    glUniformMatrix3fv(13, 1, GL_FALSE, glm::value_ptr(instance.uvTransform));
    glUniform3fv(16, 1, glm::value_ptr(instance.emission));
    const bool emissionTextured = instance.emissiveTexture >= 0;
    glUniform1i(17, emissionTextured ? 1 : 0);
    if (emissionTextured) glBindTextureUnit(2, textures_.at(std::size_t(instance.emissiveTexture)).get());
    glBindVertexArray(m.layout.get());
    glDrawElements(GL_TRIANGLES, m.indexCount, GL_UNSIGNED_INT, nullptr);
  }
  glBindVertexArray(0);
}

// Colour: the mean of the samples; depth: the nearest sample. Its own section, so that
// what the multisampling costs shows apart from the drawing.
void ScenePass::resolve(Profiler& profiler) {
  auto timed = profiler.section(profiler.gl(), "resolve");
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 2, -1, "scene resolve");
  // (Framebuffer writes are visible to later texel fetches without a barrier; the image
  // stores below are not, hence the one after the dispatch.)
  glUseProgram(resolve_.get());
  glUniform1i(0, samples_);
  glBindTextureUnit(0, msColour_.get());
  glBindTextureUnit(1, msDistance_.get());
  dispatchOverSceneTargets(resolvedColour_, resolvedDistance_, extent_);
  glPopDebugGroup();
}

void dispatchOverSceneTargets(GLuint colour, GLuint distance, Extent extent) {
  glBindImageTexture(0, colour, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glBindImageTexture(1, distance, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
  glDispatchCompute(GLuint(extent.width + 15) / 16, GLuint(extent.height + 15) / 16, 1);
  glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glBindImageTexture(1, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
  // Whatever reads the targets next (texture fetches, image loads, read-backs, CUDA's
  // mapping, the compute backends) sees the stores.
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

}  // namespace satdof

// app/app.cpp — see app.h.
#include "app.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "gl/debug.h"
#include "gl/program.h"
#include "image_io.h"
#include "ui/ui.h"

namespace satdof {

App::App(const Options& options) : options_(options) {
  const bool headless = options_.headless || !displayAvailable();
  if (!options_.headless && headless)
    std::fprintf(stderr, "satdof: no display found (DISPLAY unset): rendering headless\n");
  options_.headless = headless;
  if (headless && options_.frames == 0) options_.frames = 3;

  context_ = headless ? createHeadlessContext()
                      : createWindowContext(options_.size, "SATDoF", options_.vsync);
  gl::installDebugCallback(options_.verbose);
  std::printf("satdof: GL %s on %s (%s)\n", context_->version.c_str(), context_->renderer.c_str(),
              context_->vendor.c_str());

  scene_ = scene::makeDefaultScene();
  dof_.params.focalDistance = options_.focalDistance.value_or(scene::suggestedFocalDistance(scene_));
  dof_.params.focalRange = options_.focalRange;
  dof_.params.maxRadius = options_.maxBlur;

  BackendChoice choice = chooseSatBackend(options_.backend, *context_, options_.scanVariant);
  backendReason_ = choice.reason;
  std::printf("satdof: %s\n", backendReason_.c_str());
  if (!choice.backend->scanVariant().empty())
    std::printf("satdof: scan variant %s\n", choice.backend->scanVariant().c_str());

  const auto shaderDir = gl::findShaderDir();
  scenePass_ = std::make_unique<ScenePass>(shaderDir, scene_);
  satPass_ = std::make_unique<SatPass>(std::move(choice.backend));
  dofPass_ = std::make_unique<DofPass>(shaderDir);
  timer_ = std::make_unique<GlStageTimer>();
  if (!headless) ui_ = std::make_unique<Ui>(context_->window());

  resize(headless ? options_.size : context_->framebufferExtent());
}

App::~App() {
  // GL and CUDA objects go before the context (declared first, destroyed last).
  if (satPass_) satPass_->backend().detach();
}

void App::resize(Extent extent) {
  if (extent.empty() || extent == extent_) return;
  if (extent_.width > 0) glFinish();
  satPass_->backend().detach();  // unregister before the scene pass frees its textures
  extent_ = extent;
  scenePass_->resize(extent);
  satPass_->resize(extent, scenePass_->colourTexture());
  dofPass_->resize(extent);
}

void App::renderFrame() {
  timer_->begin(Stage::Scene);
  scenePass_->run(scene_);
  timer_->end(Stage::Scene);

  satPass_->run();

  timer_->begin(Stage::Dof);
  dofPass_->run(scenePass_->depthTexture(), satPass_->buffer(), dof_);
  timer_->end(Stage::Dof);
}

void App::handleInput() {
  GLFWwindow* w = context_->window();
  double x = 0, y = 0;
  glfwGetCursorPos(w, &x, &y);
  if (!ui_->wantsMouse()) {
    if (glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS)
      scene_.camera.orbit(float(x - lastCursorX_), float(y - lastCursorY_));
    if (const float wheel = ImGui::GetIO().MouseWheel; wheel != 0) scene_.camera.zoom(wheel);
  }
  lastCursorX_ = x;
  lastCursorY_ = y;
}

void App::presentWindow() {
  const Extent fb = context_->framebufferExtent();
  glBlitNamedFramebuffer(dofPass_->framebuffer(), 0, 0, 0, extent_.width, extent_.height, 0, 0,
                         fb.width, fb.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb.width, fb.height);

  UiState state;
  state.dof = &dof_;
  state.backendReason = backendReason_;
  state.glRenderer = context_->renderer;
  state.scanVariants = satPass_->backend().scanVariants();
  state.scanVariant = satPass_->backend().scanVariant();
  state.history = &history_;
  state.width = extent_.width;
  state.height = extent_.height;
  ui_->beginFrame();
  ui_->draw(state);
  ui_->endFrame();
  if (state.scanVariant != satPass_->backend().scanVariant())
    satPass_->backend().setScanVariant(state.scanVariant);  // applies from the next frame
}

void App::saveHeadlessFrame(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%04d.png", index);
  const auto path = std::filesystem::path(options_.outDir) / name;
  writePng(path, readTexture(dofPass_->outputTexture(), extent_.width, extent_.height));
  std::printf("satdof: wrote %s\n", path.c_str());
}

int App::run() {
  auto last = std::chrono::steady_clock::now();
  for (int frame = 0; options_.frames == 0 || frame < options_.frames; ++frame) {
    if (!options_.headless) {
      context_->pollEvents();
      if (context_->shouldClose()) break;
      const Extent fb = context_->framebufferExtent();
      if (fb.empty()) {  // minimised: nothing to render into
        glfwWaitEventsTimeout(0.1);
        --frame;
        continue;
      }
      resize(fb);
      handleInput();
    }
    renderFrame();
    if (options_.headless) {
      const bool lastFrame = frame + 1 == options_.frames;
      if (options_.save == Options::Save::All || (options_.save == Options::Save::Last && lastFrame))
        saveHeadlessFrame(frame);
    } else {
      presentWindow();
      const bool lastFrame = options_.frames > 0 && frame + 1 == options_.frames;
      if (lastFrame && !options_.screenshot.empty()) {
        const Extent fb = context_->framebufferExtent();
        writePng(options_.screenshot, readFramebuffer(0, fb.width, fb.height));
        std::printf("satdof: wrote %s\n", options_.screenshot.c_str());
      }
      context_->swapBuffers();
    }
    timer_->endFrame(history_);
    satPass_->backend().collectTimes(history_, false);
    const auto now = std::chrono::steady_clock::now();
    if (frame > 0) history_.add(Stage::Frame, std::chrono::duration<float, std::milli>(now - last).count());
    last = now;
  }
  timer_->drain(history_);
  satPass_->backend().collectTimes(history_, true);
  printSummary();
  return kExitOk;
}

void App::printSummary() const {
  std::printf("satdof: %dx%d, backend %s, median per-stage times over the frames rendered:\n",
              extent_.width, extent_.height, std::string(satPass_->backend().name()).c_str());
  for (Stage s : {Stage::Scene, Stage::MapUnmap, Stage::Sat, Stage::Dof, Stage::Frame}) {
    if (const auto ms = history_.median(s))
      std::printf("  %-10s %8.3f ms  (%zu samples)\n", std::string(stageName(s)).c_str(), *ms,
                  history_.count(s));
  }
}

}  // namespace satdof

// app/app_window.cpp — the window side of App (see app.h): the image's share of the window
// beside the docked panel, the keys and mouse turned into actions, presenting the frame with
// the panel on top, and screenshots with their settings beside them.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "app/app.h"
#include "app/ui/ui.h"
#include "engine/backends/gl_scan_sat.h"
#include "settings/settings_store.h"

namespace satdof {

Extent App::imageArea(Extent fb) const {
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(context_->window(), &windowWidth, &windowHeight);
  if (windowWidth <= 0) return fb;
  const float panel = ui_->panelWidthFor(float(windowWidth)) * float(fb.width) / float(windowWidth);
  return {std::max(fb.width - int(std::lround(panel)), 1), fb.height};
}

Extent App::imageExtent(Extent fb) const {
  const Extent area = imageArea(fb);
  const float s = options_.renderScale;
  return {std::max(int(std::lround(float(area.width) * s)), 1), std::max(int(std::lround(float(area.height) * s)), 1)};
}

void App::handleInput() {
  InputContext c;
  c.uiWantsMouse = ui_->wantsMouse();
  c.uiWantsKeyboard = ui_->wantsKeyboard();
  c.splitView = renderer_->settings().view.mode == ViewMode::Split;
  c.divider = renderer_->settings().view.divider;
  c.image = renderer_->extent();
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(context_->window(), &windowWidth, &windowHeight);
  const Extent fb = context_->framebufferExtent();
  c.imageWidth = float(windowWidth) * float(imageArea(fb).width) / float(std::max(fb.width, 1));
  c.imageHeight = float(windowHeight);
  for (const InputActions& a : input_.poll(context_->window(), c)) applyInput(a);
}

void App::applyInput(const InputActions& a) {
  if (a.quit) quit_ = true;
  if (a.toggleHelp) ui_->helpShown = !ui_->helpShown;
  if (a.togglePanel) ui_->panelShown = !ui_->panelShown;
  if (a.toggleLesson) {  // opens on the scan variant that runs, where it has a lesson
    const BackendOption* scan = ScanKeys::scanOption(renderer_->pipeline());
    // On gl-compute the scan lessons follow the GLSL block scans, at this GL's subgroup width,
    // and the convolution lessons are its GLSL shaders.
    const bool glsl = renderer_->pipeline().backend().name() == "gl-compute";
    ui_->lesson.setScanTarget({glsl, glsl && glSubgroupSize() > 0 ? glSubgroupSize() : 32});
    ui_->lesson.setConvBackend(glsl ? lesson::ConvBackend::GlCompute : lesson::ConvBackend::Cuda);
    ui_->lesson.toggle(scan ? renderer_->pipeline().backend().selected(scan->key) : std::string());
  }
  if (a.lessonStep != 0) ui_->lesson.step(a.lessonStep);
  if (a.lessonPlay) ui_->lesson.togglePlay();
  if (a.reloadShaders) controller_->reloadShaders();
  if (a.screenshot) pendingScreenshots_.push_back("");
  if (a.reset) controller_->reset();
  if (a.nextPreset) controller_->nextPreset();
  if (a.nextDof) controller_->nextDof();
  if (a.verify) controller_->requestVerify();
  ViewSettings& view = renderer_->settings().view;
  if (a.nextCompare)  // off (whatever else is shown) -> split -> diff -> off (the final image)
    view.mode = view.mode == ViewMode::Split        ? ViewMode::Difference
                : view.mode == ViewMode::Difference ? ViewMode::Final
                                                    : ViewMode::Split;
  if (a.scanVariant) scanKeys_.choose(*a.scanVariant, renderer_->pipeline());
  if (a.focusClick) controller_->focus().focusAt(*a.focusClick);
  if (a.divider) view.divider = *a.divider;
  scene::Camera& camera = renderer_->scene().scene.camera;
  if (a.orbitX != 0 || a.orbitY != 0) camera.orbit(a.orbitX, a.orbitY);
  if (a.panX != 0 || a.panY != 0) camera.pan(a.panX, a.panY);
  if (a.zoom != 0) camera.zoom(a.zoom);
  controller_->setHover(a.hover);
  if (!a.dropped.empty()) dropFiles(a.dropped);
}

void App::resizeWindow(int width, int height) {
  glfwSetWindowSize(context_->window(), width, height);
  glfwPollEvents();  // the window system's answer (the new framebuffer size) before the frame
}

void App::presentWindow() {
  // The image fills the window left of the docked panel: pixel for pixel, or scaled up
  // from a smaller render (--render-scale).
  const Extent fb = context_->framebufferExtent();
  const Extent area = imageArea(fb);
  const Extent extent = renderer_->extent();
  const float background[4] = {0.08f, 0.08f, 0.1f, 1.0f};
  glClearNamedFramebufferfv(0, GL_COLOR, 0, background);
  glBlitNamedFramebuffer(renderer_->shownFramebuffer(), 0, 0, 0, extent.width, extent.height, 0, fb.height - area.height,
                         area.width, fb.height, GL_COLOR_BUFFER_BIT, area == extent ? GL_NEAREST : GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb.width, fb.height);

  const PanelLink::Asked asked =
      panel_->drawAndApply(scanKeys_.noteNow(renderer_->pipeline()), scanKeys_.timesStatus(), race_->race());
  race_->step(asked.raceStart, asked.raceAdopt);
  scanKeys_.stepTimes(asked.timeScans, renderer_->pipeline(), race_->running());
}

std::map<std::string, std::string> App::uiSettings() const {
  return ui_ ? ui_->saveState() : std::map<std::string, std::string>{};
}

void App::openSections(bool open) {
  if (ui_) ui_->openAllSections(open);
}

void App::writeScreenshot(const std::string& requested) {
  const Extent fb = context_->framebufferExtent();
  std::ostringstream text;
  text << formatSettings(settingsOf(currentOptions(), uiSettings()));
  text << "# backend " << renderer_->pipeline().backend().name() << ", window " << fb.width << "x" << fb.height << ", image "
       << renderer_->extent().width << "x" << renderer_->extent().height;
  if (const Extent area = imageArea(fb); area != renderer_->extent())
    text << " (render scale " << options_.renderScale << ", shown at " << area.width << "x" << area.height << ")";
  text << " at its left\n";
  if (ui_ && ui_->lesson.shown()) text << "# lesson " << ui_->lesson.caption() << "\n";
  FrameFiles::writeScreenshot(requested, fb, text.str());
}

}  // namespace satdof

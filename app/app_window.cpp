// app/app_window.cpp — the window side of App (see app.h): the image's share of the
// window beside the docked panel, the keys and mouse turned into actions, and presenting
// the frame with the panel on top.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "app.h"
#include "ui/ui.h"

namespace satdof {

Extent App::imageExtent(Extent fb) const {
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(context_->window(), &windowWidth, &windowHeight);
  if (windowWidth <= 0) return fb;
  const float panel = ui_->panelWidthFor(float(windowWidth)) * float(fb.width) / float(windowWidth);
  return {std::max(fb.width - int(std::lround(panel)), 1), fb.height};
}

void App::handleInput() {
  InputContext c;
  c.uiWantsMouse = ui_->wantsMouse();
  c.uiWantsKeyboard = ui_->wantsKeyboard();
  c.splitView = settings_.view.mode == ViewMode::Split;
  c.divider = settings_.view.divider;
  c.image = extent();
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(context_->window(), &windowWidth, &windowHeight);
  const Extent fb = context_->framebufferExtent();
  c.imageWidth = float(windowWidth) * float(extent().width) / float(std::max(fb.width, 1));
  c.imageHeight = float(windowHeight);
  applyInput(input_.poll(context_->window(), c, ImGui::GetIO().MouseWheel));
}

void App::applyInput(const InputActions& a) {
  if (a.quit) quit_ = true;
  if (a.toggleHelp) ui_->helpShown = !ui_->helpShown;
  if (a.togglePanel) ui_->panelShown = !ui_->panelShown;
  if (a.reloadShaders) reloadShaders();
  if (a.screenshot) pendingScreenshots_.push_back("");
  if (a.reset) reset();
  if (a.nextPreset) nextPreset();
  if (a.verify) verifyRequested_ = true;
  ViewSettings& view = settings_.view;
  if (a.nextCompare)  // off (whatever else is shown) -> split -> diff -> off (the final image)
    view.mode = view.mode == ViewMode::Split        ? ViewMode::Difference
                : view.mode == ViewMode::Difference ? ViewMode::Final
                                                    : ViewMode::Split;
  if (a.scanVariant)
    for (const BackendOption& o : pipeline_->backendOptions())
      if (o.key == "scan" && *a.scanVariant < int(o.choices.size()))
        if (auto why = pipeline_->backend().select("scan", o.choices[std::size_t(*a.scanVariant)].name))
          std::fprintf(stderr, "satdof: %s\n", why->c_str());
  if (a.focusClick) focusAt(*a.focusClick);
  if (a.divider) view.divider = *a.divider;
  scene::Camera& camera = scene_.scene.camera;
  if (a.orbitX != 0 || a.orbitY != 0) camera.orbit(a.orbitX, a.orbitY);
  if (a.panX != 0 || a.panY != 0) camera.pan(a.panX, a.panY);
  if (a.zoom != 0) camera.zoom(a.zoom);
  hover_ = a.hover;
  if (!hover_) hoverDepth_.reset();
}

void App::resizeWindow(int width, int height) {
  glfwSetWindowSize(context_->window(), width, height);
  glfwPollEvents();  // the window system's answer (the new framebuffer size) before the frame
}

void App::presentWindow() {
  // The image fills the window left of the docked panel, pixel for pixel.
  const Extent fb = context_->framebufferExtent();
  const float background[4] = {0.08f, 0.08f, 0.1f, 1.0f};
  glClearNamedFramebufferfv(0, GL_COLOR, 0, background);
  glBlitNamedFramebuffer(shownFramebuffer(), 0, 0, 0, extent().width, extent().height, 0,
                         fb.height - extent().height, extent().width, fb.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb.width, fb.height);

  const Pipeline& a = *pipeline_;
  const Pipeline* b = comparison_.pipeline();
  const Extent extent = this->extent();
  UiState state;
  state.dof = &settings_.dof;
  state.backendReason = a.backendReason();
  state.glRenderer = context_->renderer;
  state.backend = &a.backend();
  state.backendOptions = a.backendOptions();
  for (const BackendOption& o : a.backendOptions()) state.selections[o.key] = a.backend().selected(o.key);
  state.dofImplementation = std::string(a.dofEntry().name);
  state.filter = &settings_.filter;
  state.view = &settings_.view;
  state.filterImplementations = a.filterImplementations();
  state.filterProblem = a.backendPass().filterProblem();
  state.maxDifference = viewPass_->maxDifference();
  state.gainUsed = viewPass_->gainUsed();
  state.depthRange = viewPass_->depthRange();
  state.history = &a.history();
  state.shaderDir = shaderDir_.string();
  state.shaderError = shaderError_;
  state.satBytesPerPixel = satFormatInfo(a.targets().satFormat).bytesPerPixel;
  state.width = extent.width;
  state.height = extent.height;
  state.autofocus = focus_.autofocus();
  state.hoverDepth = hoverDepth_;
  state.focusAnimating = focus_.animating();
  state.animate = options_.animate;
  state.msaa = options_.msaa;
  state.verifyLines = verifyLines_;
  const float focalBefore = settings_.dof.params.focalDistance;
  state.satFormat = std::string(satFormatInfo(a.targets().satFormat).name);
  state.maxBlurNote = maxBlurNote_;
  state.precisionLine = precision_.line();
  state.precisionHeatmap = precision_.heatmap();
  state.bokeh = &settings_.bokeh;
  state.bokehMethod = std::string(a.backend().bokehMethod());
  state.bokehCounts = a.bokeh().counts();
  state.compareA = a.config(settings_.filter.implementation);
  state.compareB = comparison_.configB(state.compareA);
  state.compareFields = &comparison_.fields;
  std::tie(state.compareLabelA, state.compareLabelB) = comparison_.labels(state.compareA, settings_.filter.enabled);
  state.compareBackend = b ? &b->backend() : nullptr;
  state.compareHistory = b ? &b->history() : nullptr;
  state.compareProblem = comparison_.problem();
  state.compareFilterProblem = b && settings_.filter.enabled ? b->backendPass().filterProblem() : std::string();
  ui_->beginFrame();
  ui_->draw(state);
  ui_->endFrame();
  // A control cut at the panel's edge is a layout bug: said once per change.
  const widgets::LayoutCheck& layout = ui_->layout();
  if (layout.cut != layoutCutSaid_) {
    if (layout.cut > 0)
      std::printf("satdof: panel: %d control(s) cut at the right edge, first '%s'\n", layout.cut, layout.first.c_str());
    layoutCutSaid_ = layout.cut;
  }
  if (settings_.dof.params.focalDistance != focalBefore) focus_.cancel();  // moved by hand
  applyFocusAndScene(state.autofocus, state.animate, state.msaa);
  if (state.reloadShaders) reloadShaders();
  if (state.reset) reset();
  if (state.verify) verifyRequested_ = true;
  if (state.preset) applyPreset(*state.preset);
  precision_.update(state.measurePrecision, pipeline_->targets().satFormat, this->extent(), settings_.dof.params,
                    [this] { return readBackColourAndDepth(); });
  setSatFormat(state.satFormat);
  limitMaxBlurToSatFormat();
  applyChoices(state.dofImplementation, state.selections);  // from the next frame
}

}  // namespace satdof

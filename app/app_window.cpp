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
  c.splitView = view_.mode == ViewMode::Split;
  c.divider = view_.divider;
  c.image = extent_;
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(context_->window(), &windowWidth, &windowHeight);
  const Extent fb = context_->framebufferExtent();
  c.imageWidth = float(windowWidth) * float(extent_.width) / float(std::max(fb.width, 1));
  c.imageHeight = float(windowHeight);
  for (const InputActions& a : input_.poll(context_->window(), c)) applyInput(a);
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
  if (a.nextCompare)  // off (whatever else is shown) -> split -> diff -> off (the final image)
    view_.mode = view_.mode == ViewMode::Split        ? ViewMode::Difference
                 : view_.mode == ViewMode::Difference ? ViewMode::Final
                                                      : ViewMode::Split;
  if (a.scanVariant)
    for (const BackendOption& o : backendOptions_)
      if (o.key == "scan" && *a.scanVariant < int(o.choices.size()))
        if (auto why = computePass_->backend().select("scan", o.choices[std::size_t(*a.scanVariant)].name))
          std::fprintf(stderr, "satdof: %s\n", why->c_str());
  if (a.focusClick) focusAt(*a.focusClick);
  if (a.divider) view_.divider = *a.divider;
  if (a.orbitX != 0 || a.orbitY != 0) scene_.camera.orbit(a.orbitX, a.orbitY);
  if (a.panX != 0 || a.panY != 0) scene_.camera.pan(a.panX, a.panY);
  if (a.zoom != 0) scene_.camera.zoom(a.zoom);
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
  glBlitNamedFramebuffer(shownFramebuffer(), 0, 0, 0, extent_.width, extent_.height, 0, fb.height - extent_.height,
                         extent_.width, fb.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb.width, fb.height);

  UiState state;
  state.dof = &dof_;
  state.backendReason = backendReason_;
  state.glRenderer = context_->renderer;
  state.backend = &computePass_->backend();
  state.backendOptions = backendOptions_;
  for (const BackendOption& o : backendOptions_) state.selections[o.key] = computePass_->backend().selected(o.key);
  state.dofImplementation = std::string(dofEntry_->name);
  state.filter = &filter_;
  state.view = &view_;
  state.filterImplementations = filterImplementations_;
  state.filterProblem = computePass_->filterProblem();
  state.maxDifference = viewPass_->maxDifference();
  state.gainUsed = viewPass_->gainUsed();
  state.depthRange = viewPass_->depthRange();
  state.history = &history_;
  state.shaderDir = shaderDir_.string();
  state.shaderError = shaderError_;
  state.satBytesPerPixel = satFormatInfo(targets_.targets().satFormat).bytesPerPixel;
  state.width = extent_.width;
  state.height = extent_.height;
  state.autofocus = focus_.autofocus();
  state.hoverDepth = hoverDepth_;
  state.focusAnimating = focus_.animating();
  state.animate = options_.animate;
  state.msaa = options_.msaa;
  state.verifyLines = verifyLines_;
  const float focalBefore = dof_.params.focalDistance;
  state.satFormat = std::string(satFormatInfo(targets_.targets().satFormat).name);
  state.maxBlurNote = maxBlurNote_;
  state.precisionLine = precisionLine_;
  state.precisionHeatmap = precisionHeatmap_.get();
  state.bokeh = &bokeh_;
  state.bokehMethod = std::string(computePass_->backend().bokehMethod());
  state.bokehCounts = bokehPass_->counts();
  state.compareA = configA();
  state.compareB = compare_ ? compare_->config() : resolveCompare(state.compareA, compareFields_);
  state.compareFields = &compareFields_;
  std::tie(state.compareLabelA, state.compareLabelB) = compareLabels();
  state.compareBackend = compare_ ? &compare_->backend() : nullptr;
  state.compareHistory = compare_ ? &compare_->history() : nullptr;
  state.compareProblem = compareProblem_;
  state.compareFilterProblem = compare_ && filter_.enabled ? compare_->filterProblem() : std::string();
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
  if (dof_.params.focalDistance != focalBefore) focus_.cancel();  // moved by hand
  applyFocusAndScene(state.autofocus, state.animate, state.msaa);
  if (state.reloadShaders) reloadShaders();
  if (state.reset) reset();
  if (state.verify) verifyRequested_ = true;
  if (state.preset) applyPreset(*state.preset);
  updatePrecision(state.measurePrecision);
  setSatFormat(state.satFormat);
  limitMaxBlurToSatFormat();
  applyChoices(state.dofImplementation, state.selections);  // from the next frame
}

}  // namespace satdof

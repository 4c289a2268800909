// app/app_window.cpp — the window side of App (see app.h): the image's share of the
// window beside the docked panel, the keys and mouse turned into actions (the scan keys
// say what they did, or why they cannot), presenting the frame with the panel on top, and
// the panel's race of the kernels, a few steps per frame.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>

#include "app/app.h"
#include "engine/backends/gl_scan_sat.h"
#include "engine/content/content_error.h"
#include "settings/live_options.h"
#include "qa/race_runner.h"
#include "app/ui/ui.h"

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

void App::adaptToSoftwareGl() {
  // Measured at 1280x720 with the cpu backend on 2 cores (docs/PERFORMANCE.md): the scene
  // pass with 4x MSAA is most of a 0.5-0.8 s frame.
  constexpr float kSoftwareRenderScale = 0.5f;
  std::string what;
  if (!chosenByUser(options_, opt::msaa) && options_.msaa != 1) {
    options_.msaa = 1;
    what = "MSAA 1";
  }
  if (!chosenByUser(options_, opt::renderScale) && options_.renderScale > kSoftwareRenderScale) {
    options_.renderScale = kSoftwareRenderScale;
    char scale[48];
    std::snprintf(scale, sizeof scale, "render scale %.2g", double(kSoftwareRenderScale));
    what += (what.empty() ? "" : " and ") + std::string(scale);
  }
  if (what.empty()) return;
  renderScaleNote_ = "chosen for software GL";
  std::printf("satdof: GL runs in software (%s): %s for speed (--msaa, --render-scale or the panel change it)\n",
              context_->renderer.c_str(), what.c_str());
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
    // On gl-compute the scan lessons follow the GLSL block scans, at this GL's subgroup width.
    const bool glsl = renderer_->pipeline().backend().name() == "gl-compute";
    ui_->lesson.setScanTarget({glsl, glsl && glSubgroupSize() > 0 ? glSubgroupSize() : 32});
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

  const Pipeline& a = renderer_->pipeline();
  const Pipeline* b = renderer_->comparison().pipeline();
  UiState state;
  state.dof = &renderer_->settings().dof;
  state.backendReason = a.backendReason();
  state.glRenderer = context_->renderer;
  state.tableMemory = a.tableMemory().description;
  state.backend = &a.backend();
  state.backendOptions = a.backendOptions();
  for (const BackendOption& o : a.backendOptions()) state.selections[o.key] = a.backend().selected(o.key);
  state.dofImplementation = std::string(a.dofEntry().name);
  state.filter = &renderer_->settings().filter;
  state.view = &renderer_->settings().view;
  state.filterImplementations = a.filterImplementations();
  state.filterProblem = a.backendPass().filterProblem();
  state.maxDifference = renderer_->viewPass().maxDifference();
  state.gainUsed = renderer_->viewPass().gainUsed();
  state.depthRange = renderer_->viewPass().depthRange();
  state.history = &a.history();
  state.shaderDir = renderer_->shaderDir().string();
  state.shaderError = renderer_->shaderError();
  state.satBytesPerPixel = satFormatInfo(a.targets().satFormat).bytesPerPixel;
  state.width = extent.width;
  state.height = extent.height;
  state.autofocus = controller_->focus().autofocus();
  state.hoverDepth = controller_->hoverDepth();
  state.focusAnimating = controller_->focus().animating();
  state.depthSpan = controller_->focus().reach();
  state.animate = options_.animate;
  state.msaa = options_.msaa;
  state.stage = options_.stage;
  state.stageNote = renderer_->shown().stageNote();
  state.stageSwitchable = renderer_->shown().stageSwitchable();
  state.renderScale = options_.renderScale;
  state.renderScaleNote = renderScaleNote_;
  state.verifyLines = controller_->verdict().lines;
  state.verifyStale = controller_->verdict().stale;
  const float focalBefore = renderer_->settings().dof.params.focalDistance;
  state.satFormat = std::string(satFormatInfo(a.targets().satFormat).name);
  state.maxBlurNote = renderer_->maxBlurNote();
  state.precisionLine = controller_->precision().line();
  state.precisionHeatmap = controller_->precision().heatmap();
  state.bokeh = &renderer_->settings().bokeh;
  state.bokehMethod = std::string(a.backend().bokehMethod());
  state.bokehCounts = a.bokeh().counts();
  state.compareA = a.config(renderer_->settings().filter.implementation);
  state.compareB = renderer_->comparison().configB(state.compareA);
  state.compareFields = &renderer_->comparison().fields;
  state.compareFilterProblem = b && renderer_->settings().filter.enabled ? b->backendPass().filterProblem() : std::string();
  const CompareCaption caption = renderer_->comparison().caption(state.compareA, renderer_->settings().filter.enabled, state.compareFilterProblem);
  state.compareLabelA = caption.labelA;
  state.compareLabelB = caption.labelB;
  state.compareNotes = caption.notes;
  state.compareBackend = b ? &b->backend() : nullptr;
  state.compareHistory = b ? &b->history() : nullptr;
  state.compareProblem = renderer_->comparison().problem();
  state.scanNote = scanKeys_.noteNow(a);
  state.race = race_.get();
  state.scanTimesStatus = scanKeys_.timesStatus();
  state.contentSummary = renderer_->shown().summary();
  state.contentProblem = controller_->contentProblem();
  state.photo = renderer_->showsPhoto();
  state.oneLayerNote = renderer_->oneLayerNote();
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
  if (renderer_->settings().dof.params.focalDistance != focalBefore) controller_->focus().cancel();  // moved by hand
  controller_->applyFocusAndScene(state.autofocus, state.animate, state.msaa);
  controller_->setStage(state.stage);
  if (state.renderScale != options_.renderScale) {  // the next frame is rendered at the new size
    options_.renderScale = state.renderScale;
    renderer_->setBlurScale(state.renderScale);
    renderScaleNote_.clear();
  }
  if (state.reloadShaders) controller_->reloadShaders();
  if (state.reset) controller_->reset();
  if (state.verify) controller_->requestVerify();
  if (state.preset)
    if (auto why = controller_->applyPreset(*state.preset)) controller_->contentProblem() = *why;
  controller_->precision().update(state.measurePrecision, renderer_->pipeline().targets().satFormat, renderer_->extent(), renderer_->frameBlur().dof.params,
                    [this] { return renderer_->readBackColourAndDepth(); });
  controller_->setSatFormat(state.satFormat);
  renderer_->limitMaxBlurToSatFormat();
  renderer_->applyChoices(state.dofImplementation, state.selections);  // from the next frame
  runRaceSteps(state.raceStart || std::exchange(raceRequested_, false), state.raceAdopt);
  scanKeys_.stepTimes(state.timeScans, renderer_->pipeline(), raceRunning());
}

std::map<std::string, std::string> App::uiSettings() const {
  return ui_ ? ui_->saveState() : std::map<std::string, std::string>{};
}

void App::openSections(bool open) {
  if (ui_) ui_->openAllSections(open);
}

bool App::raceRunning() const { return raceRequested_ || (race_ && !race_->done()); }

std::optional<std::string> App::adoptRaceRow(std::size_t row) {
  if (!race_) return std::string("adopt: no finished race");
  if (auto why = race_->adopt(row)) return "adopt: " + *why;
  const std::vector<RaceEntry>& rows = race_->entries();
  std::printf("satdof: adopted the race's row %zu: %s %s\n", row + 1, rows[row].stage.c_str(), rows[row].label().c_str());
  return std::nullopt;
}

// The panel's race: started on the frame just shown, a few timed runs per frame (no frame
// held much past kRaceBudgetMs), its table on stdout when it ends; a row it adopts.
void App::runRaceSteps(bool start, std::optional<std::size_t> adopt) {
  constexpr double kRaceBudgetMs = 30;
  if (start && (!race_ || race_->done())) {
    race_.reset(new Race(*renderer_));
    std::printf("satdof: race of the %s backend's kernels started\n", std::string(renderer_->pipeline().backend().name()).c_str());
  }
  if (!race_) return;
  if (adopt)
    if (auto why = race_->adopt(*adopt)) std::printf("satdof: race: %s\n", why->c_str());
  if (!race_->done() && race_->step(kRaceBudgetMs)) printRace(*race_);
}

}  // namespace satdof

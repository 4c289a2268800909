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
namespace {
constexpr std::chrono::seconds kNoteSeconds{2};
constexpr std::size_t kNoteFrames = 8;  // frames of "sat" samples after a scan key (the ring's 4 and more)
}  // namespace

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
  if (!chosenByUser(opt::msaa) && options_.msaa != 1) {
    options_.msaa = 1;
    what = "MSAA 1";
  }
  if (!chosenByUser(opt::renderScale) && options_.renderScale > kSoftwareRenderScale) {
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
  c.splitView = settings_.view.mode == ViewMode::Split;
  c.divider = settings_.view.divider;
  c.image = extent();
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(context_->window(), &windowWidth, &windowHeight);
  const Extent fb = context_->framebufferExtent();
  c.imageWidth = float(windowWidth) * float(imageArea(fb).width) / float(std::max(fb.width, 1));
  c.imageHeight = float(windowHeight);
  for (const InputActions& a : input_.poll(context_->window(), c)) applyInput(a);
}

// Keys 1-9: the scan variant of that number among those the backend runs here (the
// panel's numbering), or why there is none; never silent.
const BackendOption* App::scanOption() const {
  for (const BackendOption& o : pipeline_->backendOptions())
    if (o.numberKeys) return &o;
  return nullptr;
}

void App::chooseScanVariant(int index) {
  const BackendOption* scan = scanOption();
  ComputeBackend& backend = pipeline_->backend();
  const std::string name(backend.name());
  ScanNote note;
  const std::vector<const Choice*> runs = scan ? runnableChoices(backend, *scan) : std::vector<const Choice*>{};
  if (!scan) {
    note.text = "the " + name + " backend has no scan variants: its SAT algorithm is '" + backend.selected("sat") + "'";
  } else if (index >= int(runs.size())) {
    note.text = "no scan variant " + std::to_string(index + 1) + ": the " + name + " backend runs " +
                std::to_string(runs.size()) + " here";
  } else if (auto why = backend.select(scan->key, runs[std::size_t(index)]->name)) {
    note.text = *why;
  } else {
    note.variant = runs[std::size_t(index)]->name;
    note.text = "scan variant " + note.variant;
    note.satSamples = pipeline_->history().count("sat");
  }
  std::printf("satdof: %s\n", note.text.c_str());
  note.until = std::chrono::steady_clock::now() + kNoteSeconds;
  scanNote_ = note;
}

// A few frames after a scan key, the SAT time the variant gave (the profiler's sections
// arrive a few frames late): added to the note and said on stdout.
void App::updateScanNote() {
  if (scanNote_.variant.empty()) return;
  const ProfileHistory& history = pipeline_->history();
  if (history.count("sat") < scanNote_.satSamples + kNoteFrames) return;
  const std::vector<float> recent = history.recent("sat", 3);
  std::vector<float> sorted = recent;
  std::sort(sorted.begin(), sorted.end());
  char text[64];
  std::snprintf(text, sizeof text, ": SAT %.3f ms", double(sorted[sorted.size() / 2]));
  scanNote_.text = "scan variant " + scanNote_.variant + text;
  std::printf("satdof: %s\n", scanNote_.text.c_str());
  scanNote_.variant.clear();
  scanNote_.until = std::chrono::steady_clock::now() + kNoteSeconds;
}

void App::applyInput(const InputActions& a) {
  if (a.quit) quit_ = true;
  if (a.toggleHelp) ui_->helpShown = !ui_->helpShown;
  if (a.togglePanel) ui_->panelShown = !ui_->panelShown;
  if (a.toggleLesson) {  // opens on the scan variant that runs, where it has a lesson
    const BackendOption* scan = scanOption();
    // On gl-compute the scan lessons follow the GLSL block scans, at this GL's subgroup width,
    // and the convolution lessons are its GLSL shaders.
    const bool glsl = pipeline_->backend().name() == "gl-compute";
    ui_->lesson.setScanTarget({glsl, glsl && glSubgroupSize() > 0 ? glSubgroupSize() : 32});
    ui_->lesson.setConvBackend(glsl ? lesson::ConvBackend::GlCompute : lesson::ConvBackend::Cuda);
    ui_->lesson.toggle(scan ? pipeline_->backend().selected(scan->key) : std::string());
  }
  if (a.lessonStep != 0) ui_->lesson.step(a.lessonStep);
  if (a.lessonPlay) ui_->lesson.togglePlay();
  if (a.reloadShaders) reloadShaders();
  if (a.screenshot) pendingScreenshots_.push_back("");
  if (a.reset) reset();
  if (a.nextPreset) nextPreset();
  if (a.nextDof) nextDof();
  if (a.verify) verifyRequested_ = true;
  ViewSettings& view = settings_.view;
  if (a.nextCompare)  // off (whatever else is shown) -> split -> diff -> off (the final image)
    view.mode = view.mode == ViewMode::Split        ? ViewMode::Difference
                : view.mode == ViewMode::Difference ? ViewMode::Final
                                                    : ViewMode::Split;
  if (a.scanVariant) chooseScanVariant(*a.scanVariant);
  if (a.focusClick) focusAt(*a.focusClick);
  if (a.divider) view.divider = *a.divider;
  scene::Camera& camera = scene_.scene.camera;
  if (a.orbitX != 0 || a.orbitY != 0) camera.orbit(a.orbitX, a.orbitY);
  if (a.panX != 0 || a.panY != 0) camera.pan(a.panX, a.panY);
  if (a.zoom != 0) camera.zoom(a.zoom);
  hover_ = a.hover;
  if (!hover_) hoverDepth_.reset();
  if (!a.dropped.empty()) dropFiles(a.dropped);
}

void App::dropFiles(const std::vector<std::string>& files) {
  try {
    content::ContentRequest request =
        content::dropRequest(std::vector<std::filesystem::path>(files.begin(), files.end()), options_.depthMapping);
    request.stage = options_.stage;
    setContent(content::loadContent(request));
  } catch (const content::ContentError& e) {  // the same line as on the command line; nothing changes
    contentProblem_ = e.what();
    std::printf("satdof: drop: %s; still showing %s\n", e.what(), contentSummary_.front().c_str());
  }
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
  const float background[4] = {0.08f, 0.08f, 0.1f, 1.0f};
  glClearNamedFramebufferfv(0, GL_COLOR, 0, background);
  glBlitNamedFramebuffer(shownFramebuffer(), 0, 0, 0, extent().width, extent().height, 0, fb.height - area.height,
                         area.width, fb.height, GL_COLOR_BUFFER_BIT, area == extent() ? GL_NEAREST : GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb.width, fb.height);

  const Pipeline& a = *pipeline_;
  const Pipeline* b = comparison_.pipeline();
  const Extent extent = this->extent();
  UiState state;
  state.dof = &settings_.dof;
  state.backendReason = a.backendReason();
  state.glRenderer = context_->renderer;
  state.tableMemory = a.tableMemory().description;
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
  state.depthSpan = focus_.reach();
  state.animate = options_.animate;
  state.msaa = options_.msaa;
  state.stage = options_.stage;
  state.stageNote = stageNote_;
  state.stageSwitchable = stage_.has_value();
  state.renderScale = options_.renderScale;
  state.renderScaleNote = renderScaleNote_;
  state.verifyLines = verify_.lines;
  state.verifyStale = verify_.stale;
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
  state.compareFilterProblem = b && settings_.filter.enabled ? b->backendPass().filterProblem() : std::string();
  const CompareCaption caption = comparison_.caption(state.compareA, settings_.filter.enabled, state.compareFilterProblem);
  state.compareLabelA = caption.labelA;
  state.compareLabelB = caption.labelB;
  state.compareNotes = caption.notes;
  state.compareBackend = b ? &b->backend() : nullptr;
  state.compareHistory = b ? &b->history() : nullptr;
  state.compareProblem = comparison_.problem();
  updateScanNote();
  if (std::chrono::steady_clock::now() < scanNote_.until || !scanNote_.variant.empty()) state.scanNote = scanNote_.text;
  state.race = race_.get();
  state.scanTimesStatus = scanTimesStatus();
  state.contentSummary = contentSummary_;
  state.contentProblem = contentProblem_;
  state.photo = photoPass_ != nullptr;
  state.oneLayerNote = oneLayerNote();
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
  setStage(state.stage);
  if (state.renderScale != options_.renderScale) {  // the next frame is rendered at the new size
    options_.renderScale = state.renderScale;
    renderScaleNote_.clear();
  }
  if (state.reloadShaders) reloadShaders();
  if (state.reset) reset();
  if (state.verify) verifyRequested_ = true;
  if (state.preset)
    if (auto why = applyPreset(*state.preset)) contentProblem_ = *why;
  precision_.update(state.measurePrecision, pipeline_->targets().satFormat, this->extent(), frameBlur().dof.params,
                    [this] { return readBackColourAndDepth(); });
  setSatFormat(state.satFormat);
  limitMaxBlurToSatFormat();
  applyChoices(state.dofImplementation, state.selections);  // from the next frame
  runRaceSteps(state.raceStart || std::exchange(raceRequested_, false), state.raceAdopt);
  runScanTimes(state.timeScans || std::exchange(scanTimesRequested_, false));
}

void App::openSections(bool open) {
  if (ui_) ui_->openAllSections(open);
}

std::string App::scanTimesStatus() const {
  if (!scanTimes_) return {};
  const ScanTimes& t = *scanTimes_;
  const std::size_t at = std::min(t.next, t.variants.size() - 1);
  return "timing " + std::to_string(at + 1) + " of " + std::to_string(t.variants.size()) + ": " + t.variants[at];
}

void App::runScanTimes(bool start) {
  constexpr std::size_t kSamples = kSatTimeSamples;  // SAT times per variant, read from the profiler
  constexpr int kMaxFrames = 90;       // a variant whose times do not come is left after these
  ComputeBackend& backend = pipeline_->backend();
  const BackendOption* scan = scanOption();
  const std::string backendName(backend.name());
  if (start && !scanTimes_) {
    if (!scan) {
      std::printf("satdof: time-scans: the %s backend has no scan variants\n", backendName.c_str());
      return;
    }
    if (raceRunning()) {
      std::printf("satdof: time-scans: not while the race runs\n");
      return;
    }
    ScanTimes t;
    for (const Choice* c : runnableChoices(backend, *scan)) t.variants.push_back(c->name);
    t.restore = backend.selected(scan->key);
    t.backend = backendName;
    if (t.variants.empty()) return;
    scanTimes_ = std::move(t);
  }
  if (!scanTimes_) return;
  ScanTimes& t = *scanTimes_;
  if (!scan || t.backend != backendName) {  // the backend was replaced mid-way
    std::printf("satdof: time-scans: stopped: the %s backend is gone\n", t.backend.c_str());
    scanTimes_.reset();
    return;
  }
  const ProfileHistory& history = pipeline_->history();
  const std::string algorithm = backend.selected("sat");
  const auto tagOf = [&](const std::string& variant) { return satSectionTag(algorithm, variant); };
  if (t.frames >= 0) {  // the variant running: its samples, or the frames it may take
    ++t.frames;
    if (history.tagCount("sat", tagOf(t.variants[t.next])) < t.before + kSamples && t.frames < kMaxFrames) return;
    ++t.next;
  }
  for (; t.next < t.variants.size(); ++t.next) {
    if (auto why = backend.select(scan->key, t.variants[t.next])) {
      std::printf("satdof: time-scans: %s\n", why->c_str());
      continue;
    }
    t.before = history.tagCount("sat", tagOf(t.variants[t.next]));
    t.frames = 0;
    return;
  }
  if (auto why = backend.select(scan->key, t.restore)) std::printf("satdof: time-scans: %s\n", why->c_str());
  std::printf("satdof: SAT time by scan variant (%s, %dx%d, median of the last %zu frames each, %s):\n",
              algorithm.c_str(), extent().width, extent().height, kSamples,
              backendName == "cuda" ? "CUDA events" : "GL timer queries");
  for (std::size_t i = 0; i < t.variants.size(); ++i) {
    char ms[32] = "-";  // a variant whose times never came (kMaxFrames)
    if (const auto median = history.tagRecentMedian("sat", tagOf(t.variants[i]), kSamples))
      std::snprintf(ms, sizeof ms, "%.3f ms", double(*median));
    std::printf("  %zu  %-24s %s\n", i + 1, t.variants[i].c_str(), ms);
  }
  scanTimes_.reset();
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
    race_.reset(new Race(*this));
    std::printf("satdof: race of the %s backend's kernels started\n", std::string(pipeline_->backend().name()).c_str());
  }
  if (!race_) return;
  if (adopt)
    if (auto why = race_->adopt(*adopt)) std::printf("satdof: race: %s\n", why->c_str());
  if (!race_->done() && race_->step(kRaceBudgetMs)) printRace(*race_);
}

}  // namespace satdof

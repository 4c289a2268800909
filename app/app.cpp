// app/app.cpp — see app.h: set-up and the frame. The window side (input, presenting) is
// in app_window.cpp; what the keys, the panel and the script ask for in app_actions.cpp.
#include "app.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <glm/gtc/matrix_transform.hpp>

#include "gl/debug.h"
#include "gl/program.h"
#include "image_io.h"
#include "scene/scenes.h"
#include "ui/ui.h"

namespace satdof {

namespace {
// The host's time from one frame's start to the next: the one section no stage opens.
const std::string kFrameSection = "frame";
constexpr float kTurnRadiansPerSecond = 0.6f;  // the animation's teapot speed
}  // namespace

App::App(const Options& options, const std::map<std::string, std::string>& uiSettings) : options_(options) {
  const bool headless = options_.headless || !displayAvailable();
  if (!options_.headless && headless)
    std::printf("satdof: no display found (DISPLAY unset): rendering headless\n");
  options_.headless = headless;
  if (headless && options_.frames == 0) options_.frames = 3;
  if (!options_.script.empty()) script_.emplace(options_.script, loadScript(options_.script, options_));

  context_ = headless ? createHeadlessContext()
                      : createWindowContext(options_.size, "SATDoF", options_.vsync);
  gl::installDebugCallback(options_.verbose);
  std::printf("satdof: GL %s on %s (%s)\n", context_->version.c_str(), context_->renderer.c_str(),
              context_->vendor.c_str());

  const scene::SceneEntry* sceneEntry = scene::findScene(options_.scene);
  if (!sceneEntry) throw UsageError("no scene '" + options_.scene + "'");
  scene_ = sceneEntry->make();
  startCamera_ = scene_.camera;
  for (const scene::Instance& i : scene_.instances) baseModels_.push_back(i.model);
  dof_.params.focalDistance = options_.focalDistance.value_or(sceneEntry->focalDistances(scene_).front());
  dof_.params.focalRange = options_.focalRange;
  dof_.params.maxRadius = options_.maxBlur;
  dof_.params.model = options_.camera == "thin-lens" ? reference::CocModel::ThinLens : reference::CocModel::Linear;
  dof_.params.focalLengthMm = options_.focalLengthMm;
  dof_.params.fNumber = options_.fNumber;
  dof_.params.sensorWidthMm = options_.sensorWidthMm;
  if (const char* why = reference::whyNotACamera(dof_.params)) throw UsageError(std::string("camera: ") + why);
  focus_.setAutofocus(options_.autofocus);

  filter_ = options_.filter;
  view_ = options_.view;
  if (const char* fault = std::getenv("SATDOF_INJECT_ATTACH_FAILURE")) {
    const std::string f = fault;
    const auto colon = f.find(':');
    attachFault_.backend = f.substr(0, colon);
    attachFault_.at = colon == std::string::npos ? 1 : std::atoi(f.c_str() + colon + 1);
  }
  BackendChoice choice = chooseComputeBackend(options_.backend, *context_, options_.selections);
  backendReason_ = choice.reason;
  std::printf("satdof: %s\n", backendReason_.c_str());
  ComputeBackend& backend = *choice.backend;
  for (const BackendOption& o : backend.options()) {
    if (o.key == "scan" || options_.verbose)  // the scan variant is the lesson: always said
      std::printf("satdof: %s %s\n", o.label.c_str(), backend.selected(o.key).c_str());
  }
  for (const auto& [key, name] : options_.selections) {
    bool offered = false;
    for (const BackendOption& o : backend.options()) offered = offered || o.key == key;
    if (!offered)
      std::printf("satdof: %s%s does not apply to the %s backend: ignored\n",
                  options_.given.count(key) ? "--" : "the settings file's ", key.c_str(),
                  std::string(backend.name()).c_str());
  }

  shaderDir_ = gl::findShaderDir();
  scenePass_ = std::make_unique<ScenePass>(shaderDir_, scene_);
  scenePass_->setSamples(options_.msaa);
  computePass_ = std::make_unique<ComputePass>(std::move(choice.backend));
  if (auto why = computePass_->check(filter_)) throw UsageError(*why);
  const DofEntry* dof = options_.dof.empty() ? &defaultDofImplementation() : findDofImplementation(options_.dof);
  if (!dof) throw UsageError("no depth-of-field implementation '" + options_.dof + "'");
  if (auto why = dof->whyNot(computePass_->backend())) throw UsageError("--dof " + options_.dof + ": " + *why);
  setDof(*dof);
  viewPass_ = std::make_unique<ViewPass>(shaderDir_);
  depthProbe_ = std::make_unique<DepthProbe>();
  bokehPass_ = std::make_unique<BokehPass>(shaderDir_);
  bokeh_ = options_.bokeh;
  backendOptions_ = computePass_->backend().options();
  filterImplementations_ = computePass_->backend().filterImplementations();
  profiler_ = std::make_unique<Profiler>();
  if (!headless) {
    ui_ = std::make_unique<Ui>(context_->window(), options_.uiScale);
    ui_->loadState(uiSettings);
    ui_->panelShown = options_.panel;
  }

  const SatFormat format = options_.satFormat.empty() ? defaultSatFormat().id : findSatFormat(options_.satFormat)->id;
  const Extent extent = headless ? options_.size : imageExtent(context_->framebufferExtent());
  try {
    FrameTargets::checkExtent(extent, format);  // a size this GL cannot serve is a usage error
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  reallocate(extent, format);
  compareFields_ = options_.compareB;
  if (comparesConfigurations(view_.mode) && (options_.given.count("compare-b") || options_.given.count("compare"))) {
    // B named on the command line must run, as A must: the same exit codes.
    const PipelineConfig b = resolveCompare(configA(), compareFields_);
    try {
      compare_ = std::make_unique<ComparePipeline>(b, *context_, shaderDir_, extent_);
    } catch (const BackendUnavailable& e) {
      throw BackendUnavailable(std::string("--compare-b: ") + e.what());
    } catch (const std::exception& e) {
      throw UsageError(std::string("--compare-b: ") + e.what());
    }
    const auto [labelA, labelB] = compareLabels();
    std::printf("satdof: comparing %s with %s\n", labelA.c_str(), labelB.c_str());
  }
  startOptions_ = currentOptions();
}

PipelineConfig App::configA() const {
  PipelineConfig c;
  c.backend = std::string(computePass_->backend().name());
  for (const BackendOption& o : backendOptions_) c.selections[o.key] = computePass_->backend().selected(o.key);
  c.satFormat = std::string(satFormatInfo(targets_.targets().satFormat).name);
  c.conv = filter_.implementation.empty() && !filterImplementations_.empty() ? filterImplementations_.front().name
                                                                            : filter_.implementation;
  c.dof = std::string(dofEntry_->name);
  return c;
}

std::pair<std::string, std::string> App::compareLabels() const {
  const PipelineConfig a = configA();
  const PipelineConfig b = compare_ ? compare_->config() : resolveCompare(a, compareFields_);
  return {"A: " + compareLabel(a, b, filter_.enabled), "B: " + compareLabel(b, a, filter_.enabled)};
}

void App::updateCompare() {
  if (!comparesConfigurations(view_.mode)) {
    compare_.reset();
    compareProblem_.clear();
    compareTried_.reset();
    return;
  }
  const PipelineConfig b = resolveCompare(configA(), compareFields_);
  // A's max blur applies to B too: B's format must sum its boxes exactly (uint21x3).
  if (const SatFormatInfo* format = findSatFormat(b.satFormat))
    if (auto why = whyNotMaxBlur(*format, dof_.params.maxRadius)) {
      compare_.reset();
      compareTried_.reset();
      compareProblem_ = "B cannot run: " + *why;
      return;
    }
  if (compare_ && compare_->config() == b && compare_->targets().extent == extent_) return;
  if (compareTried_ && compareTried_->first == b && compareTried_->second == extent_) return;  // refused already
  compareTried_.emplace(b, extent_);
  try {
    if (compare_ && compare_->config() == b) {
      compare_->resize(extent_);
    } else {
      compare_.reset();  // the old B's memory first
      compare_ = std::make_unique<ComparePipeline>(b, *context_, shaderDir_, extent_);
    }
    compareProblem_.clear();
    compareTried_.reset();
    const auto [labelA, labelB] = compareLabels();
    std::printf("satdof: comparing %s with %s\n", labelA.c_str(), labelB.c_str());
  } catch (const std::exception& e) {
    compare_.reset();
    compareProblem_ = std::string("B cannot run: ") + e.what();
    std::fprintf(stderr, "satdof: %s\n", compareProblem_.c_str());
  }
}

App::~App() {
  // GL and CUDA objects go before the context (declared first, destroyed last).
  if (computePass_) computePass_->backend().detach();
}

void App::setDof(const DofEntry& entry) {
  const bool layersChange = dofEntry_ && dofEntry_->layers != entry.layers;
  dofImpl_.reset();  // the old one first: it may hand back what it asked of the backend
  dofImpl_ = entry.create(shaderDir_, computePass_->backend());
  dofEntry_ = &entry;
  if (extent_.empty()) return;
  if (layersChange)  // the fields come and go with the DoF that needs them
    reallocate(extent_, targets_.targets().satFormat);
  else
    dofImpl_->attach(targets_.targets());
}

void App::resize(Extent extent) {
  if (extent.empty() || extent == extent_) return;
  reallocate(extent, targets_.targets().satFormat);
}

void App::reallocate(Extent extent, SatFormat format) {
  if (extent.empty()) return;
  FrameTargets::checkExtent(extent, format);  // before anything is freed or allocated
  if (extent_.width > 0) glFinish();
  computePass_->backend().detach();  // unregister before the targets are freed
  extent_ = extent;
  targets_.allocate(extent, format, dofEntry_->layers);
  const Targets& t = targets_.targets();
  scenePass_->attach(t);
  attachBackend(t);
  dofImpl_->attach(t);
  bokehPass_->attach(t);
  viewPass_->attach(t);
}

void App::applyChoices(const std::string& dof, const BackendSelections& selections) {
  if (dof != dofEntry_->name) {
    if (const DofEntry* e = findDofImplementation(dof); e && !e->whyNot(computePass_->backend())) {
      glFinish();
      setDof(*e);
    }
  }
  for (const auto& [key, name] : selections)
    if (name != computePass_->backend().selected(key)) {
      if (auto why = computePass_->backend().select(key, name)) std::fprintf(stderr, "satdof: %s\n", why->c_str());
    }
}

void App::reloadShaders() {
  try {
    scenePass_->reloadShaders(shaderDir_);
    dofImpl_->reloadShaders(shaderDir_);
    if (compare_) compare_->reloadShaders(shaderDir_);
    viewPass_->reloadShaders(shaderDir_);
    bokehPass_->reloadShaders(shaderDir_);
    shaderError_.clear();
    std::printf("satdof: shaders reloaded from %s\n", shaderDir_.c_str());
  } catch (const std::exception& e) {
    shaderError_ = e.what();
    std::fprintf(stderr, "satdof: %s\n", shaderError_.c_str());
  }
}

void App::animate(float seconds) {
  if (!options_.animate) return;
  animationTime_ += seconds;
  for (std::size_t i = 0; i < scene_.instances.size(); ++i) {
    scene::Instance& inst = scene_.instances[i];
    if (inst.mesh != scene::TeapotMesh) continue;
    // Turn about the teapot's own vertical axis (through its bounding-box centre).
    const glm::vec3 centre = glm::vec3(baseModels_[i] * glm::vec4(0, 0, 0, 1));
    const float angle = kTurnRadiansPerSecond * animationTime_ * (i % 2 ? 1.0f : -1.0f);
    inst.model = glm::translate(glm::mat4(1.0f), centre) * glm::rotate(glm::mat4(1.0f), angle, {0, 1, 0}) *
                 glm::translate(glm::mat4(1.0f), -centre) * baseModels_[i];
  }
}

void App::renderFrame() {
  scenePass_->run(scene_, *profiler_);
  // With --isolate-stages nothing overlaps: the map does not wait for the scene, and so
  // the map/unmap time is the interop cost alone. Normal frames let the stages overlap.
  if (options_.isolateStages) glFinish();

  // The bokeh sprite list is built by the backend with the SAT (on the cuda backend in
  // the same mapping) and drawn over the DoF output.
  std::optional<BokehRequest> bokeh;
  if (bokeh_.enabled) bokeh = bokehPass_->request(bokeh_, reference::cocRamp(dof_.params, extent_.width));
  computePass_->run(filter_, bokeh ? &*bokeh : nullptr, *profiler_);
  if (options_.isolateStages) glFinish();

  const Targets& t = targets_.targets();
  limitMaxBlurToSatFormat();
  dof_.source = computePass_->filteredImage(t);
  dofImpl_->run(dof_, *profiler_);
  if (bokeh) bokehPass_->draw(bokeh_, *profiler_);

  // Configuration B, for the views that compare: its own filter, SAT and DoF of this
  // frame's scene. Where it cannot run, A stands on both sides and the panel says why.
  updateCompare();
  if (compare_) compare_->run(t, filter_, dof_, bokeh_);
  if (comparesConfigurations(view_.mode))
    viewPass_->run(view_, {t.dofOutput, compare_ ? compare_->targets().dofOutput : t.dofOutput,
                           dof_.params.focalDistance});
  else if (view_.mode != ViewMode::Final)
    viewPass_->run(view_, {computePass_->filteredImage(t), 0, dof_.params.focalDistance});

  // The depths the focus and the panel need, collected a frame later.
  std::vector<Pixel> probes;
  if (auto p = focus_.probePixel(extent_.width, extent_.height)) probes.push_back(*p);
  if (hover_) probes.push_back(*hover_);
  depthProbe_->request(t.depth, extent_, probes);
}

void App::endFrame() {
  profiler_->endFrame(history_);
  if (compare_) compare_->endFrame();
}

GLuint App::shownFramebuffer() const {
  return view_.mode == ViewMode::Final ? targets_.targets().dofFramebuffer : viewPass_->framebuffer();
}

void App::updateFocus(float seconds) {
  for (const DepthProbe::Reading& r : depthProbe_->take()) {
    if (hover_ && r.pixel == *hover_) hoverDepth_ = r.depth;
    focus_.onDepth(r.pixel, r.depth, dof_.params.focalDistance);
  }
  focus_.update(seconds, dof_.params.focalDistance);
}

void App::saveHeadlessFrame(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%04d.png", index);
  const auto path = std::filesystem::path(options_.outDir) / name;
  // Part of the frame's wall time (the PNG encoder is slow), so sections of their own
  // rather than time "lost between stages": the read-back (which waits for the GL work
  // before it) and the encoding.
  auto read = profiler_->section(profiler_->host(), "read frame");
  const reference::ImageRgba8 image = readFramebuffer(shownFramebuffer(), extent_.width, extent_.height);
  read.end();
  auto timed = profiler_->section(profiler_->host(), "save png");
  writePng(path, image);
  std::printf("satdof: wrote %s\n", path.c_str());
}

int App::run() {
  auto last = std::chrono::steady_clock::now();
  float seconds = 0;
  for (int frame = 0; options_.frames == 0 || frame < options_.frames; ++frame) {
    if (!options_.headless) {
      context_->pollEvents();
      if (context_->shouldClose() || quit_) break;
      const Extent fb = context_->framebufferExtent();
      if (fb.empty()) {  // minimised: nothing to render into
        glfwWaitEventsTimeout(0.1);
        --frame;
        continue;
      }
      resize(imageExtent(fb));
      handleInput();
      if (script_) script_->step(*this);  // a quit ends the loop after this frame is shown
    }
    // A script's frames are 1/30 s apart whatever the machine's speed, so that `wait N`
    // means the same everywhere (a focus pull takes 9 frames).
    const float step = script_ ? 1.0f / 30.0f : seconds;
    animate(step);
    updateFocus(step);
    try {
      renderFrame();
    } catch (const std::runtime_error& e) {  // a backend that broke mid-run: the next one
      if (!switchToNextBackend(e.what())) throw;
      reallocate(extent_, targets_.targets().satFormat);
      renderFrame();
    }
    if (verifyRequested_) verify();  // this frame's targets, before anything draws over them
    if (options_.headless) {
      const bool lastFrame = frame + 1 == options_.frames;
      if (options_.save == Options::Save::All || (options_.save == Options::Save::Last && lastFrame))
        saveHeadlessFrame(frame);
    } else {
      presentWindow();
      const bool lastFrame = options_.frames > 0 && frame + 1 == options_.frames;
      if (lastFrame && !options_.screenshot.empty()) pendingScreenshots_.push_back(options_.screenshot);
      for (const std::string& path : pendingScreenshots_) writeScreenshot(path);
      pendingScreenshots_.clear();
      context_->swapBuffers();
    }
    endFrame();
    const auto now = std::chrono::steady_clock::now();
    seconds = std::chrono::duration<float>(now - last).count();
    if (frame > 0) history_.add(kFrameSection, seconds * 1000.0f);
    last = now;
  }
  profiler_->drain(history_);
  if (compare_) compare_->drain();
  viewPass_->drain();
  printSummary();
  return kExitOk;
}

void App::printSummary() const {
  std::printf("satdof: %dx%d, backend %s, median per-section times over the frames rendered:\n",
              extent_.width, extent_.height, std::string(computePass_->backend().name()).c_str());
  if (compare_) printCompareSummary();
  else {
    auto line = [&](const std::string& name) {
      if (const auto ms = history_.median(name))
        std::printf("  %-11s %8.3f ms  (%zu samples)\n", name.c_str(), *ms, history_.count(name));
    };
    for (const std::string& name : history_.names())
      if (name != kFrameSection) line(name);
    line(kFrameSection);
  }
  // Host wall times that include waits for the GPU (the cpu backend's read back) make the
  // stages add up to more than the frame: then there is no gap to report.
  if (const auto b = history_.budget(kFrameSection, false); b && b->overhead() >= 0 && !compare_)
    std::printf("  stages' own work %.3f ms; frame - stages = %.3f ms lost between stages "
                "(the map/unmap sections, %.3f ms, also hold waits for the stages before them)\n",
                b->stages, b->overhead(), b->handOvers);
  if (const auto c = bokehPass_->counts(); c && bokeh_.enabled)
    std::printf("satdof: bokeh highlights: %u found, %u sprites drawn (cap %u)%s; sprite list: %s\n", c->found,
                c->drawn, bokeh_.select.maxSprites, c->found > c->drawn ? ", capped: raise --bokeh-max" : "",
                std::string(computePass_->backend().bokehMethod()).c_str());
  if (!computePass_->filterProblem().empty())
    std::printf("satdof: filter not applied: %s\n", computePass_->filterProblem().c_str());
  if (!compareProblem_.empty()) std::printf("satdof: %s\n", compareProblem_.c_str());
  if (compare_ && !compare_->filterProblem().empty())
    std::printf("satdof: B: filter not applied: %s\n", compare_->filterProblem().c_str());
  if (view_.mode == ViewMode::Difference && viewPass_->maxDifference()) {
    const auto [labelA, labelB] = compareLabels();
    std::printf("satdof: max difference %s vs %s: %u grey levels\n", labelA.c_str(), labelB.c_str(),
                *viewPass_->maxDifference());
  }
}

// The two configurations' stages side by side: A's (with the scene and the frame) and B's
// (its scene copy, filter, SAT, DoF), medians over the frames both ran.
void App::printCompareSummary() const {
  const auto [labelA, labelB] = compareLabels();
  std::printf("  %-12s %12s %12s   (%s | %s)\n", "section", "A ms", "B ms", labelA.c_str(), labelB.c_str());
  std::vector<std::string> names = history_.names();
  for (const std::string& n : compare_->history().names())
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  auto cell = [](std::optional<float> ms) {
    char text[24];
    if (ms) std::snprintf(text, sizeof text, "%.3f", double(*ms));
    else std::snprintf(text, sizeof text, "-");
    return std::string(text);
  };
  for (const std::string& name : names)
    if (name != kFrameSection)
      std::printf("  %-12s %12s %12s\n", name.c_str(), cell(history_.median(name)).c_str(),
                  cell(compare_->history().median(name)).c_str());
  std::printf("  %-12s %12s   (both configurations)\n", kFrameSection.c_str(), cell(history_.median(kFrameSection)).c_str());
}

}  // namespace satdof

// app/app.cpp — see app.h: set-up and the frame. The window side (input, presenting) is
// in app_window.cpp; what the keys, the panel and the script ask for in app_actions.cpp.
#include "app/app.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "engine/content/content_error.h"
#include "engine/files/interrupt.h"
#include "engine/gl/debug.h"
#include "engine/gl/program.h"
#include "engine/image/image_io.h"
#include "satdof/reference/layered_dof.h"
#include "settings/cli_checks.h"
#include "settings/live_options.h"
#include "engine/scene/scenes.h"
#include "qa/race_runner.h"
#include "app/ui/ui.h"

namespace satdof {

namespace {
// The host's time from one frame's start to the next: the one section no stage opens.
const std::string kFrameSection = "frame";
}  // namespace

App::App(const Options& options, const std::map<std::string, std::string>& uiSettings,
         std::optional<content::Content> content)
    : options_(options) {
  const bool headless = options_.headless || !displayAvailable();
  if (!options_.headless && headless)
    std::printf("satdof: no display found (DISPLAY unset): rendering headless\n");
  options_.headless = headless;
  if (headless && options_.frames == 0) options_.frames = 3;
  if (!options_.script.empty()) {
    std::vector<ScriptCommand> commands = loadScript(options_.script, options_);
    // Where its screenshots go, checked as --screenshot's: before any window opens.
    for (const ScriptCommand& c : commands)
      if (c.kind == ScriptCommand::Kind::Screenshot)
        if (auto why = whyNoScreenshot(c.name))
          throw UsageError(options_.script + ":" + std::to_string(c.line) + ": screenshot " +
                           content::quotedPath(c.name) + ": " + *why);
    script_.emplace(options_.script, std::move(commands));
  }

  context_ = headless ? createHeadlessContext()
                      : createWindowContext(options_.size, "SATDoF", options_.vsync);
  gl::installDebugCallback(options_.verbose);
  std::printf("satdof: GL %s on %s (%s)\n", context_->version.c_str(), context_->renderer.c_str(),
              context_->vendor.c_str());

  if (!content) {
    if (!scene::findScene(options_.scene)) throw UsageError("no scene '" + options_.scene + "'");
    content = content::loadContent({options_.scene, {}, {}, {}});
  }
  scene_ = scene::SceneState(content->scene ? std::move(*content->scene) : scene::Scene{});
  contentSummary_ = content->summary;
  sayShowing();
  adoptStage(*content);
  for (const std::string& w : content->warnings) contentSummary_.push_back("warning: " + w);  // (main printed them)
  reference::DofParams& params = settings_.dof.params;
  // A file's content opens at its own focus (content.h); only the command line overrides it.
  // A built-in scene keeps the settings file's choices too.
  const bool ownFocus = content->kind != content::ContentKind::BuiltIn;
  const auto given = [&](const LiveOption& o) { return ownFocus ? options_.given.count(std::string(o.name)) > 0 : chosenByUser(o); };
  params = dofParamsOf(options_, content->focalDistance);
  if (!given(opt::focal)) params.focalDistance = content->focalDistance;
  if (!given(opt::focalRange)) params.focalRange = content->focalRange;
  if (const char* why = reference::whyNotACamera(params)) throw UsageError(std::string("camera: ") + why);
  sayFocus();
  focus_.setAutofocus(options_.autofocus);
  focus_.setReach(content->depthSpan);

  settings_.filter = options_.filter;
  settings_.view = options_.view;
  settings_.bokeh = options_.bokeh;
  if (settings_.view.mode == ViewMode::Holes)  // what the view will mark, or that it marks nothing
    std::printf("satdof: holes view: %s\n", describeHoles(content->depthSpan.holes, content->depthSpan.holeShare).c_str());
  if (const char* fault = std::getenv("SATDOF_INJECT_ATTACH_FAILURE")) {
    const std::string f = fault;
    const auto colon = f.find(':');
    attachFault_.backend = f.substr(0, colon);
    attachFault_.at = colon == std::string::npos ? 1 : std::atoi(f.c_str() + colon + 1);
  }
  BackendChoice choice = chooseComputeBackend(options_.backend, *context_, options_.selections);
  std::printf("satdof: %s\n", choice.reason.c_str());
  ComputeBackend& backend = *choice.backend;
  // The settings file's choices for this backend, where the command line made none; one
  // it does not have is dropped with one line (a run elsewhere saved it, or it is gone).
  const std::string backendName(backend.name());
  for (const std::string& from : {std::string(), backendName})
    if (auto saved = options_.savedSelections.find(from); saved != options_.savedSelections.end())
      for (const auto& [key, name] : saved->second) {
        if (options_.given.count(key) || backend.selected(key) == name) continue;
        if (auto why = backend.select(key, name))
          std::fprintf(stderr, "satdof: the settings file's %s.%s=%s: %s; dropped\n", backendName.c_str(), key.c_str(),
                      name.c_str(), why->c_str());
      }
  for (const BackendOption& o : backend.options()) {
    if (o.numberKeys || options_.verbose) {  // the scan variant is the lesson: always said, once
      const std::string note = backend.choiceNote(o.key);
      std::printf("satdof: %s %s%s\n", o.label.c_str(), backend.selected(o.key).c_str(),
                  note.empty() ? "" : (" (" + note + ")").c_str());
    }
  }
  for (const auto& [key, name] : options_.selections) {
    bool offered = false;
    for (const BackendOption& o : backend.options()) offered = offered || o.key == key;
    if (!offered)
      std::printf("satdof: %s%s does not apply to the %s backend: ignored\n",
                  options_.given.count(key) ? "--" : "the settings file's ", key.c_str(),
                  std::string(backend.name()).c_str());
  }

  if (!headless && context_->softwareRenderer()) adaptToSoftwareGl();
  shaderDir_ = gl::findShaderDir();
  scenePass_ = std::make_unique<ScenePass>(shaderDir_, scene_.scene);
  scenePass_->setSamples(options_.msaa);
  if (content->photo) photoPass_ = std::make_unique<PhotoPass>(shaderDir_, *content->photo);
  content.reset();  // on the GPU now
  const DofEntry* dof = options_.dof.empty() ? &defaultDofImplementation() : findDofImplementation(options_.dof);
  if (!dof) throw UsageError("no depth-of-field implementation '" + options_.dof + "'");
  if (auto why = dof->whyNot(backend)) {
    if (options_.given.count("dof")) throw UsageError("--dof " + options_.dof + ": " + *why);
    // The settings file's (saved by a run on another backend): dropped, said in one line.
    std::fprintf(stderr, "satdof: the settings file's dof=%s: %s; dropped\n", options_.dof.c_str(), why->c_str());
    dof = &defaultDofImplementation();
    options_.dof.clear();
  }
  const SatFormat format = options_.satFormat.empty() ? defaultSatFormat().id : findSatFormat(options_.satFormat)->id;
  pipeline_ = std::make_unique<Pipeline>(std::move(choice), *dof, format, shaderDir_);
  pipeline_->setIsolateStages(options_.isolateStages);
  if (auto why = pipeline_->backendPass().check(settings_.filter)) throw UsageError(*why);
  viewPass_ = std::make_unique<ViewPass>(shaderDir_);
  depthProbe_ = std::make_unique<DepthProbe>();
  if (!headless) {
    ui_ = std::make_unique<Ui>(context_->window(), options_.uiScale);
    ui_->loadState(uiSettings);
    ui_->panelShown = options_.panel;
  }

  const Extent extent = headless ? options_.size : imageExtent(context_->framebufferExtent());
  try {
    FrameTargets::checkExtent(extent, format);  // a size this GL cannot serve is a usage error
  } catch (const std::runtime_error& e) {
    if (photoPass_ && headless && !options_.given.count("size"))  // the photo's own size
      throw UsageError("the photo at its size: " + std::string(e.what()) + "; --size WxH renders it smaller");
    throw UsageError(e.what());
  }
  try {
    pipeline_->setTableMemory(chooseTableMemory(options_.satMemory));
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  // Said where it matters (CUDA writes the tables) or where asked.
  if (options_.verbose || options_.given.count("sat-memory") || pipeline_->backend().name() == "cuda")
    std::printf("satdof: SAT tables in %s\n", pipeline_->tableMemory().description.c_str());
  reallocate(extent, format);
  comparison_.fields = options_.compareB;
  if (comparesConfigurations(settings_.view.mode) &&
      (options_.given.count("compare-b") || options_.given.count("compare"))) {
    // B named on the command line must run, as A must: the same exit codes.
    const PipelineConfig a = pipeline_->config(settings_.filter.implementation);
    comparison_.apertureA = settings_.dof.params.aperture;
    try {
      comparison_.build(resolveCompare(a, comparison_.fields), *context_, shaderDir_, extent, pipeline_->tableMemory());
    } catch (const BackendUnavailable& e) {
      throw BackendUnavailable(std::string("--compare-b: ") + e.what());
    } catch (const std::exception& e) {
      throw UsageError(std::string("--compare-b: ") + e.what());
    }
    const auto [labelA, labelB] = comparison_.labels(a, settings_.filter.enabled);
    std::printf("satdof: comparing %s with %s\n", labelA.c_str(), labelB.c_str());
  }
  startOptions_ = currentOptions();
}

App::~App() {
  // GL and CUDA objects go before the context (declared first, destroyed last): B, then A.
  comparison_.reset();
  pipeline_.reset();
}

void App::setDof(const DofEntry& entry) {
  const bool layersChange = pipeline_->dofEntry().fields != entry.fields;
  pipeline_->setDof(entry);
  if (layersChange && !extent().empty()) {  // new targets: the passes outside the pipeline follow
    scenePass_->attach(pipeline_->targets());
    if (photoPass_) photoPass_->attach(pipeline_->targets());
    viewPass_->attach(pipeline_->targets());
  }
}

void App::setScene(scene::Scene scene) {
  scene_ = scene::SceneState(std::move(scene));
  rebuildScenePass();
  photoPass_.reset();
  stage_.reset();  // a scene from elsewhere (the quality tool's) has no stage to switch
  stageShown_ = false;
}

void App::rebuildScenePass() {
  const int samples = scenePass_->samples();
  scenePass_ = std::make_unique<ScenePass>(shaderDir_, scene_.scene);
  scenePass_->setSamples(samples);
  scenePass_->attach(pipeline_->targets());
}

void App::adoptStage(content::Content& c) {
  stage_ = std::move(c.stage);
  stageShown_ = c.stageShown;
  stageNote_ = c.stageNote;
  sayStage();
}

void App::setStage(content::StageMode mode) {
  if (mode == options_.stage) return;
  options_.stage = mode;
  if (!stage_) return;  // a built-in scene or a photo: none whatever the setting (stageNote_ says why)
  const bool wanted = content::stageWanted(mode, stage_->rule);
  if (wanted != stageShown_) {
    glFinish();  // the scene pass's buffers may still be in use by the frame before
    if (wanted) content::addStage(scene_.scene, *stage_);
    else content::removeStage(scene_.scene, *stage_);
    scene_.instancesChanged();
    scene_.startCamera.farPlane = scene_.scene.camera.farPlane;  // R keeps seeing all of it
    stageShown_ = wanted;
    rebuildScenePass();
    focus_.setReach(wanted ? stage_->stagedSpan : stage_->bareSpan);
  }
  stageNote_ = content::stageNote(mode, *stage_, stageShown_);
  sayStage();
}

void App::sayStage() const { std::printf("satdof: stage: %s\n", stageNote_.c_str()); }

void App::setContent(content::Content c) {
  glFinish();  // the passes' GL objects may still be in use by the frame before
  std::unique_ptr<PhotoPass> photo = c.photo ? std::make_unique<PhotoPass>(shaderDir_, *c.photo) : nullptr;
  setScene(c.scene ? std::move(*c.scene) : scene::Scene{});
  photoPass_ = std::move(photo);
  if (photoPass_) photoPass_->attach(pipeline_->targets());
  contentSummary_ = c.summary;
  contentProblem_.clear();
  focus_.cancel();
  focus_.setReach(c.depthSpan);
  settings_.dof.params.focalDistance = c.focalDistance;
  startOptions_.focalDistance = c.focalDistance;  // R goes back to the new content's focus
  settings_.dof.params.focalRange = startOptions_.focalRange = c.focalRange;  // dropped content: its own
  sayShowing();
  adoptStage(c);
  sayFocus();
  for (const std::string& w : c.warnings) {  // once each, on stderr and in the panel's Scene section
    std::fprintf(stderr, "satdof: warning: %s\n", w.c_str());
    contentSummary_.push_back("warning: " + w);
  }
}

bool App::chosenByUser(const LiveOption& option) const {
  const std::string name(option.name);
  return options_.given.count(name) || options_.fromSettings.count(name);
}

bool App::secondLayerWanted() const {
  const Pipeline* b = comparison_.pipeline();
  return pipeline_->usesSecondLayer() || (b && b->usesSecondLayer());
}

std::string App::oneLayerNote() const {
  if (!photoPass_ || !secondLayerWanted()) return {};
  const bool linear = pipeline_->dofEntry().fields == DofFields::SeeThroughLinear;
  return std::string("see-through: a photo is one layer, nothing is drawn behind it: it runs as the layered DoF") +
         (linear ? " in linear light" : "");
}

void App::sayShowing() const {
  std::string line;
  for (const std::string& s : contentSummary_) line += (line.empty() ? "" : "; ") + s;
  std::printf("satdof: showing %s\n", line.c_str());
}

void App::sayFocus() const {
  const reference::DofParams& p = settings_.dof.params;
  std::printf("satdof: focus at %g, focal range %g\n", double(p.focalDistance), double(p.focalRange));
}

void App::resize(Extent extent) {
  if (extent.empty() || extent == this->extent()) return;
  reallocate(extent, pipeline_->targets().satFormat);
}

void App::reallocate(Extent extent, SatFormat format) {
  if (extent.empty()) return;
  pipeline_->reallocate(extent, format,
                        [this](Pipeline& p, const Targets& t) { attachBackend(p, t); });
  const Targets& t = pipeline_->targets();
  scenePass_->attach(t);
  if (photoPass_) photoPass_->attach(t);
  viewPass_->attach(t);
}

void App::applyChoices(const std::string& dof, const BackendSelections& selections) {
  if (dof != pipeline_->dofEntry().name) {
    if (const DofEntry* e = findDofImplementation(dof); e && !e->whyNot(pipeline_->backend())) {
      glFinish();
      setDof(*e);
    }
  }
  for (const auto& [key, name] : selections)
    if (name != pipeline_->backend().selected(key)) {
      if (auto why = pipeline_->backend().select(key, name)) std::fprintf(stderr, "satdof: %s\n", why->c_str());
    }
}

void App::reloadShaders() {
  try {
    scenePass_->reloadShaders(shaderDir_);
    if (photoPass_) photoPass_->reloadShaders(shaderDir_);
    pipeline_->reloadShaders();
    if (Pipeline* b = comparison_.pipeline()) b->reloadShaders();
    viewPass_->reloadShaders(shaderDir_);
    shaderError_.clear();
    std::printf("satdof: shaders reloaded from %s\n", shaderDir_.c_str());
    followVerify("the shaders were reloaded (F5)");
  } catch (const std::exception& e) {
    shaderError_ = e.what();
    std::fprintf(stderr, "satdof: %s\n", shaderError_.c_str());
  }
}

App::BlurSettings App::frameBlur() const {
  BlurSettings s{settings_.dof, settings_.bokeh};
  const float k = options_.headless ? 1.0f : options_.renderScale;
  if (k == 1.0f) return s;
  s.dof.params.maxRadius *= k;
  s.bokeh.select.minRadius = std::max(1, int(std::lround(float(s.bokeh.select.minRadius) * k)));
  return s;
}

void App::renderFrame() {
  Pipeline& a = *pipeline_;
  if (photoPass_) photoPass_->run(a.profiler());
  else scenePass_->run(scene_.scene, a.profiler());
  limitMaxBlurToSatFormat();
  const BlurSettings frame = frameBlur();
  DofSettings dofA = frame.dof;
  withSecondLayer(a, dofA);  // the scene's second layer, for a see-through DoF
  // With --isolate-stages nothing overlaps: the map does not wait for the scene, and so
  // the map/unmap time is the interop cost alone. Normal frames let the stages overlap.
  if (options_.isolateStages) glFinish();
  a.run(nullptr, settings_.filter, dofA, frame.bokeh);

  // Configuration B, for the views that compare: its own filter, SAT and DoF of this
  // frame's scene. Where it cannot run, A stands on both sides and the panel says why.
  const Targets& t = a.targets();
  const ViewSettings& view = settings_.view;
  comparison_.apertureA = frame.dof.params.aperture;
  if (comparesConfigurations(view.mode) && !compareDefaultDone_) {
    // The first comparing frame of the run: without a B of the user's (none on the command
    // line, the settings file, a script or the panel), B = the other DoF family, said once.
    compareDefaultDone_ = true;
    if (!options_.given.count("compare-b") && !options_.given.count("compare"))
      if (auto b = comparison_.chooseDefaultB(a.config(settings_.filter.implementation)))
        std::printf("satdof: compare: no B was set: B = A with %s; --compare-b or the panel's Compare section sets "
                    "another\n",
                    b->c_str());
  }
  comparison_.update(comparesConfigurations(view.mode), a, settings_.filter.implementation,
                     frame.dof.params.maxRadius, *context_, shaderDir_, settings_.filter.enabled);
  Pipeline* b = comparison_.pipeline();
  if (b) {
    FilterSettings filterB = settings_.filter;
    filterB.implementation = comparison_.configB(a.config(settings_.filter.implementation)).conv;
    filterB.compare = false;
    DofSettings dofB = frame.dof;
    dofB.params.aperture = comparison_.apertureB();
    withSecondLayer(*b, dofB);
    b->run(&t, filterB, dofB, frame.bokeh);
  }
  if (!secondLayerWanted()) scenePass_->releaseSecondLayer();  // 8 B a pixel, kept only while used
  if (comparesConfigurations(view.mode))
    viewPass_->run(view, {t.dofOutput, b ? b->targets().dofOutput : t.dofOutput, settings_.dof.params.focalDistance});
  else if (view.mode != ViewMode::Final)
    viewPass_->run(view, {a.sourceImage(), 0, settings_.dof.params.focalDistance,
                          photoPass_ ? photoPass_->holesImage() : 0});

  // The depths the focus and the panel need, collected a frame later.
  std::vector<Pixel> probes;
  if (auto p = focus_.probePixel(t.extent.width, t.extent.height)) probes.push_back(*p);
  if (hover_) probes.push_back(*hover_);
  depthProbe_->request(t.depth, t.extent, probes);
}

void App::withSecondLayer(Pipeline& p, DofSettings& dof) {
  if (photoPass_ || !p.usesSecondLayer()) return;  // a photo has one layer
  if (!scenePass_->secondLayer().colour)  // once a frame
    scenePass_->drawSecondLayer(scene_.scene, reference::secondLayerFrom(reference::cocRamp(dof.params, extent().width)),
                                p.profiler());
  dof.behindColour = scenePass_->secondLayer().colour;
  dof.behindDepth = scenePass_->secondLayer().depth;
  dof.behindEmptyDepth = ScenePass::kSkyDepth;
}

void App::endFrame() {
  pipeline_->endFrame();
  if (Pipeline* b = comparison_.pipeline()) b->endFrame();
}

void App::drainProfilers() {
  pipeline_->drain();
  if (Pipeline* b = comparison_.pipeline()) b->drain();
  viewPass_->drain();
}

GLuint App::shownFramebuffer() const {
  return settings_.view.mode == ViewMode::Final ? pipeline_->targets().dofFramebuffer : viewPass_->framebuffer();
}

std::pair<reference::ImageRgba8, reference::ImageR32F> App::readBackColourAndDepth() {
  glFinish();
  const Extent e = extent();
  auto colour = readTexture(pipeline_->sourceImage(), e.width, e.height);
  return {std::move(colour), readDepthTexture(pipeline_->targets().depth, e.width, e.height)};
}

void App::setSatFormat(const std::string& name) {
  const SatFormatInfo* f = findSatFormat(name);
  const SatFormat previous = pipeline_->targets().satFormat;
  if (!f || f->id == previous) return;
  try {
    reallocate(extent(), f->id);
    precision_.clear();
    maxBlurNote_.clear();
  } catch (const std::exception& e) {  // e.g. too large for GL, or a SAT algorithm that lacks it
    std::fprintf(stderr, "satdof: --sat-format %s: %s\n", f->name.data(), e.what());
    shaderError_ = std::string("SAT format ") + std::string(f->name) + ": " + e.what();
    reallocate(extent(), previous);
  }
}

void App::limitMaxBlurToSatFormat() {
  const SatFormatInfo& format = satFormatInfo(pipeline_->targets().satFormat);
  const auto why = whyNotMaxBlur(format, settings_.dof.params.maxRadius);
  if (!why) return;
  maxBlurNote_ = "max blur lowered to " + std::to_string(format.maxBoxRadius) + " px: " + *why;
  std::printf("satdof: %s\n", maxBlurNote_.c_str());
  settings_.dof.params.maxRadius = float(format.maxBoxRadius);
}

void App::updateFocus(float seconds) {
  for (const DepthProbe::Reading& r : depthProbe_->take()) {
    if (hover_ && r.pixel == *hover_) hoverDepth_ = r.depth;
    focus_.onDepth(r.pixel, r.depth, settings_.dof.params.focalDistance);
  }
  focus_.update(seconds, settings_.dof.params.focalDistance);
}

void App::labelComparison(reference::ImageRgba8& image) {
  // The window's labels, at its scale on a 1080p screen for a 1080p image (1x up to 810 rows).
  const int scale = std::max(1, int(std::lround(double(image.height) / 540.0)));
  if (!imageText_ || imageText_->scale() != scale) imageText_ = std::make_unique<ImageText>(scale);
  const Pipeline* b = comparison_.pipeline();
  const bool filtering = settings_.filter.enabled;
  const CompareCaption caption =
      comparison_.caption(pipeline_->config(settings_.filter.implementation), filtering,
                          b && filtering ? b->backendPass().filterProblem() : std::string());
  const auto max = viewPass_->maxDifference();
  drawCompareCaption(image, *imageText_, caption, settings_.view.mode == ViewMode::Split, settings_.view.divider,
                     max ? describeDifference(*max, viewPass_->gainUsed()) : std::string());
}

void App::saveHeadlessFrame(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%04d.png", index);
  const auto path = std::filesystem::path(options_.outDir) / name;
  // Part of the frame's wall time (the PNG encoder is slow), so sections of their own
  // rather than time "lost between stages": the read-back (which waits for the GL work
  // before it) and the encoding.
  Profiler& profiler = pipeline_->profiler();
  auto read = profiler.section(profiler.host(), "read frame");
  const Extent e = extent();
  reference::ImageRgba8 image = readFramebuffer(shownFramebuffer(), e.width, e.height);
  read.end();
  if (comparesConfigurations(settings_.view.mode) && !options_.noLabels) labelComparison(image);
  auto timed = profiler.section(profiler.host(), "save png");
  writePng(path, image);
  std::printf("satdof: wrote %s\n", path.c_str());
}

int App::run() {
  auto last = std::chrono::steady_clock::now();
  float seconds = 0;
  // --screenshot is the last frame shown: frame N of --frames N, or, where the window closes
  // first (Esc, the script's quit, the close button, SIGINT or SIGTERM), a frame rendered as
  // it closes.
  bool screenshotOwed = !options_.headless && !options_.screenshot.empty();
  for (int frame = 0; options_.frames == 0 || frame < options_.frames; ++frame) {
    bool closing = false;  // this frame takes the screenshot owed, then the loop ends
    if (!options_.headless) {
      context_->pollEvents();  // (a signal ends glfw's waits too: no SA_RESTART)
      if (context_->shouldClose() || quit_ || files::interrupted()) {
        if (!screenshotOwed) break;
        closing = true;
      }
      const Extent fb = context_->framebufferExtent();
      if (fb.empty()) {  // minimised: nothing to render into
        if (closing) break;
        glfwWaitEventsTimeout(0.1);
        --frame;
        continue;
      }
      resize(imageExtent(fb));
      if (!closing) {
        handleInput();
        if (script_) script_->step(*this);  // a quit ends the loop after this frame is shown
      }
    } else if (files::interrupted()) {
      break;  // at a frame boundary: every PNG written so far is whole
    }
    // A script's frames, and headless ones, are 1/30 s apart whatever the machine's speed,
    // so that `wait N` means the same everywhere (a focus pull takes 9 frames) and the same
    // headless command writes the same images.
    const float step = script_ || options_.headless ? 1.0f / 30.0f : seconds;
    if (options_.animate) scene_.animate(step);
    updateFocus(step);
    if (ui_) ui_->lesson.advance(step);
    try {
      renderFrame();
    } catch (const std::runtime_error& e) {  // a backend that broke mid-run: the next one
      if (!switchToNextBackend(e.what())) throw;
      reallocate(extent(), pipeline_->targets().satFormat);
      renderFrame();
    }
    if (verifyRequested_) verify();  // this frame's targets, before anything draws over them
    followVerify();
    if (options_.headless) {
      const bool lastFrame = frame + 1 == options_.frames;
      if (options_.save == Options::Save::All || (options_.save == Options::Save::Last && lastFrame))
        saveHeadlessFrame(frame);
    } else {
      presentWindow();
      const bool lastFrame = closing || (options_.frames > 0 && frame + 1 == options_.frames);
      if (lastFrame && screenshotOwed) {
        pendingScreenshots_.push_back(options_.screenshot);
        screenshotOwed = false;
      }
      for (const std::string& path : pendingScreenshots_) writeScreenshot(path);
      pendingScreenshots_.clear();
      context_->swapBuffers();
    }
    endFrame();
    const auto now = std::chrono::steady_clock::now();
    seconds = std::chrono::duration<float>(now - last).count();
    if (frame > 0) pipeline_->history().add(kFrameSection, seconds * 1000.0f);
    last = now;
    if (closing) break;
  }
  // A race the window closed on (or a signal ended) gives the user's choices back before
  // the summary, and the settings file, read them.
  if (race_ && !race_->done()) race_->stop();
  drainProfilers();
  printSummary();
  if (screenshotOwed)  // closed while minimised: no frame to take
    throw std::runtime_error("--screenshot " + content::quotedPath(options_.screenshot) +
                             ": not written: the window closed while minimised, with no frame to save");
  return kExitOk;
}

void App::printSummary() const {
  const Pipeline& a = *pipeline_;
  const Pipeline* b = comparison_.pipeline();
  const ProfileHistory& history = a.history();
  std::printf("satdof: %dx%d, backend %s, median per-section times over the frames rendered:\n",
              extent().width, extent().height, std::string(a.backend().name()).c_str());
  const auto [labelA, labelB] = comparison_.labels(a.config(settings_.filter.implementation), settings_.filter.enabled);
  if (b) {  // A's and B's stages side by side, medians over the frames both ran
    std::printf("  %-12s %12s %12s   (%s | %s)\n", "section", "A ms", "B ms", labelA.c_str(), labelB.c_str());
    std::vector<std::string> names = history.names();
    for (const std::string& n : b->history().names())
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    auto cell = [](std::optional<float> ms) {
      char text[24];
      if (ms) std::snprintf(text, sizeof text, "%.3f", double(*ms));
      else std::snprintf(text, sizeof text, "-");
      return std::string(text);
    };
    for (const std::string& name : names)
      if (name != kFrameSection)
        std::printf("  %-12s %12s %12s\n", name.c_str(), cell(history.median(name)).c_str(),
                    cell(b->history().median(name)).c_str());
    std::printf("  %-12s %12s   (both configurations)\n", kFrameSection.c_str(),
                cell(history.median(kFrameSection)).c_str());
  } else {
    auto line = [&](const std::string& name) {
      if (const auto ms = history.median(name))
        std::printf("  %-11s %8.3f ms  (%zu samples)\n", name.c_str(), *ms, history.count(name));
    };
    for (const std::string& name : history.names())
      if (name != kFrameSection) line(name);
    line(kFrameSection);
  }
  // Host wall times that include waits for the GPU (the cpu backend's read back) make the
  // stages add up to more than the frame: then there is no gap to report.
  if (const auto gap = history.budget(kFrameSection, false); gap && gap->overhead() >= 0 && !b)
    std::printf("  stages' own work %.3f ms; frame - stages = %.3f ms lost between stages "
                "(the map/unmap sections, %.3f ms, also hold waits for the stages before them)\n",
                gap->stages, gap->overhead(), gap->handOvers);
  if (const auto c = a.bokeh().counts(); c && settings_.bokeh.enabled)
    std::printf("satdof: bokeh highlights: %u found, %u sprites drawn (cap %u)%s; sprite list: %s\n", c->found,
                c->drawn, settings_.bokeh.select.maxSprites, c->found > c->drawn ? ", capped: raise --bokeh-max" : "",
                std::string(a.backend().bokehMethod()).c_str());
  if (!a.backendPass().filterProblem().empty())
    std::printf("satdof: filter not applied: %s\n", a.backendPass().filterProblem().c_str());
  if (const std::string note = oneLayerNote(); !note.empty()) std::printf("satdof: %s\n", note.c_str());
  if (!comparison_.problem().empty()) std::printf("satdof: %s\n", comparison_.problem().c_str());
  if (b && !b->backendPass().filterProblem().empty())
    std::printf("satdof: B: filter not applied: %s\n", b->backendPass().filterProblem().c_str());
  if (settings_.view.mode == ViewMode::Difference && viewPass_->maxDifference())
    std::printf("satdof: max difference %s vs %s: %u grey levels\n", labelA.c_str(), labelB.c_str(),
                *viewPass_->maxDifference());
}

}  // namespace satdof

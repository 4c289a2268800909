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
#include "engine/renderer/run_summary.h"
#include "engine/image/image_io.h"
#include "satdof/reference/layered_dof.h"
#include "settings/cli_checks.h"
#include "settings/live_options.h"
#include "engine/scene/scenes.h"
#include "qa/race_runner.h"
#include "app/ui/ui.h"

namespace satdof {

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
  FrameSettings settings;
  reference::DofParams& params = settings.dof.params;
  // A file's content opens at its own focus (content.h); only the command line overrides it.
  // A built-in scene keeps the settings file's choices too.
  const bool ownFocus = content->kind != content::ContentKind::BuiltIn;
  const auto given = [&](const LiveOption& o) {
    return ownFocus ? options_.given.count(std::string(o.name)) > 0 : chosenByUser(options_, o);
  };
  params = dofParamsOf(options_, content->focalDistance);
  if (!given(opt::focal)) params.focalDistance = content->focalDistance;
  if (!given(opt::focalRange)) params.focalRange = content->focalRange;
  if (const char* why = reference::whyNotACamera(params)) throw UsageError(std::string("camera: ") + why);
  settings.filter = options_.filter;
  settings.view = options_.view;
  settings.bokeh = options_.bokeh;
  const std::string holes = describeHoles(content->depthSpan.holes, content->depthSpan.holeShare);

  BackendChoice choice = chooseBackend();
  if (!headless && context_->softwareRenderer()) adaptToSoftwareGl();
  const DofEntry* dof = options_.dof.empty() ? &defaultDofImplementation() : findDofImplementation(options_.dof);
  if (!dof) throw UsageError("no depth-of-field implementation '" + options_.dof + "'");
  if (auto why = dof->whyNot(*choice.backend)) {
    if (options_.given.count("dof")) throw UsageError("--dof " + options_.dof + ": " + *why);
    // The settings file's (saved by a run on another backend): dropped, said in one line.
    std::fprintf(stderr, "satdof: the settings file's dof=%s: %s; dropped\n", options_.dof.c_str(), why->c_str());
    dof = &defaultDofImplementation();
    options_.dof.clear();
  }
  RendererSetup setup;
  setup.dof = dof;
  setup.format = options_.satFormat.empty() ? defaultSatFormat().id : findSatFormat(options_.satFormat)->id;
  setup.selections = options_.selections;
  setup.msaa = options_.msaa;
  setup.isolateStages = options_.isolateStages;
  setup.blurScale = headless ? 1.0f : options_.renderScale;
  setup.stage = options_.stage;
  setup.compareChosen = options_.given.count("compare-b") || options_.given.count("compare");
  const bool photo = content->photo.has_value();
  const content::DepthSpan reach = content->depthSpan;
  try {
    renderer_ = std::make_unique<Renderer>(*context_, std::move(choice), setup, std::move(*content), settings);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  content.reset();  // on the GPU now
  controller_ = std::make_unique<Controller>(options_, *renderer_, reach);
  if (settings.view.mode == ViewMode::Holes)  // what the view will mark, or that it marks nothing
    std::printf("satdof: holes view: %s\n", holes.c_str());
  if (!headless) {
    ui_ = std::make_unique<Ui>(context_->window(), options_.uiScale);
    ui_->loadState(uiSettings);
    ui_->panelShown = options_.panel;
    controller_->setUi(ui_.get());
  }

  const Extent extent = headless ? options_.size : imageExtent(context_->framebufferExtent());
  try {
    FrameTargets::checkExtent(extent, setup.format);  // a size this GL cannot serve is a usage error
  } catch (const std::runtime_error& e) {
    if (photo && headless && !options_.given.count("size"))  // the photo's own size
      throw UsageError("the photo at its size: " + std::string(e.what()) + "; --size WxH renders it smaller");
    throw UsageError(e.what());
  }
  renderer_->comparison().fields = options_.compareB;
  try {
    renderer_->start(extent, options_.satMemory, options_.verbose || options_.given.count("sat-memory"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  controller_->keepStart();
}

// The backend --backend names (or `auto`'s first that runs), with the settings file's choices
// for it where the command line made none; its choices said in one line each.
BackendChoice App::chooseBackend() {
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
  return choice;
}

App::~App() {
  // GL and CUDA objects go before the context (declared first, destroyed last).
  race_.reset();
  controller_.reset();
  renderer_.reset();
}

void App::renderFrame() {
  renderer_->renderFrame(controller_->probes());  // the depths the focus and the panel need, a frame later
}

void App::labelComparison(reference::ImageRgba8& image) {
  // The window's labels, at its scale on a 1080p screen for a 1080p image (1x up to 810 rows).
  const int scale = std::max(1, int(std::lround(double(image.height) / 540.0)));
  if (!imageText_ || imageText_->scale() != scale) imageText_ = std::make_unique<ImageText>(scale);
  const Comparison& comparison = renderer_->comparison();
  const FrameSettings& settings = renderer_->settings();
  const Pipeline* b = comparison.pipeline();
  const bool filtering = settings.filter.enabled;
  const CompareCaption caption =
      comparison.caption(renderer_->pipeline().config(settings.filter.implementation), filtering,
                         b && filtering ? b->backendPass().filterProblem() : std::string());
  const auto max = renderer_->viewPass().maxDifference();
  drawCompareCaption(image, *imageText_, caption, settings.view.mode == ViewMode::Split, settings.view.divider,
                     max ? describeDifference(*max, renderer_->viewPass().gainUsed()) : std::string());
}

void App::saveHeadlessFrame(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%04d.png", index);
  const auto path = std::filesystem::path(options_.outDir) / name;
  // Part of the frame's wall time (the PNG encoder is slow), so sections of their own
  // rather than time "lost between stages": the read-back (which waits for the GL work
  // before it) and the encoding.
  Profiler& profiler = renderer_->pipeline().profiler();
  auto read = profiler.section(profiler.host(), "read frame");
  reference::ImageRgba8 image = renderer_->readShown();
  read.end();
  if (comparesConfigurations(renderer_->settings().view.mode) && !options_.noLabels) labelComparison(image);
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
      renderer_->resize(imageExtent(fb));
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
    if (options_.animate) renderer_->scene().animate(step);
    controller_->updateFocus(step);
    if (ui_) ui_->lesson.advance(step);
    renderFrame();
    controller_->afterFrame();
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
    renderer_->endFrame();
    const auto now = std::chrono::steady_clock::now();
    seconds = std::chrono::duration<float>(now - last).count();
    if (frame > 0) renderer_->addFrameTime(seconds * 1000.0f);
    last = now;
    if (closing) break;
  }
  // A race the window closed on (or a signal ended) gives the user's choices back before
  // the summary, and the settings file, read them.
  if (race_ && !race_->done()) race_->stop();
  renderer_->drainProfilers();
  printRunSummary(*renderer_);
  if (screenshotOwed)  // closed while minimised: no frame to take
    throw std::runtime_error("--screenshot " + content::quotedPath(options_.screenshot) +
                             ": not written: the window closed while minimised, with no frame to save");
  return kExitOk;
}

}  // namespace satdof

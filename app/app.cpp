// app/app.cpp — see app.h: set-up and the loop.
#include "app/app.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>

#include "app/startup.h"
#include "app/ui/ui.h"
#include "engine/content/content_error.h"
#include "engine/files/interrupt.h"
#include "engine/gl/debug.h"
#include "engine/renderer/run_summary.h"
#include "engine/scene/scenes.h"

namespace satdof {

App::App(const Options& options, const std::map<std::string, std::string>& uiSettings,
         std::optional<content::Content> content)
    : options_(options) {
  const bool headless = options_.headless || !displayAvailable();
  if (!options_.headless && headless)
    std::printf("satdof: no display found (DISPLAY unset): rendering headless\n");
  options_.headless = headless;
  if (headless && options_.frames == 0) options_.frames = 3;
  if (!options_.script.empty()) script_.emplace(options_.script, loadCheckedScript(options_));

  context_ = headless ? createHeadlessContext()
                      : createWindowContext(options_.size, "SATDoF", options_.vsync);
  gl::installDebugCallback(options_.verbose);
  std::printf("satdof: GL %s on %s (%s)\n", context_->version.c_str(), context_->renderer.c_str(),
              context_->vendor.c_str());

  if (!content) {
    if (!scene::findScene(options_.scene)) throw UsageError("no scene '" + options_.scene + "'");
    content = content::loadContent({options_.scene, {}, {}, {}});
  }
  const FrameSettings settings = startSettings(options_, *content);
  const std::string holes = describeHoles(content->depthSpan.holes, content->depthSpan.holeShare);

  BackendChoice choice = [&] {
    try {
      return chooseBackendFor(options_, *context_);
    } catch (const std::invalid_argument& e) {  // selections that cannot run together
      throw UsageError(e.what());
    }
  }();
  const std::string renderScaleNote =
      !headless && context_->softwareRenderer() ? adaptToSoftwareGl(options_, *context_) : std::string();
  const RendererSetup setup = rendererSetup(options_, *choice.backend);
  const bool photo = content->photo.has_value();
  const content::DepthSpan reach = content->depthSpan;
  try {
    renderer_ = std::make_unique<Renderer>(*context_, std::move(choice), setup, std::move(*content), settings);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  content.reset();  // on the GPU now
  race_ = std::make_unique<PanelRace>(*renderer_);
  controller_ = std::make_unique<Controller>(options_, *renderer_, reach);
  if (settings.view.mode == ViewMode::Holes)  // what the view will mark, or that it marks nothing
    std::printf("satdof: holes view: %s\n", holes.c_str());
  if (!headless) {
    ui_ = std::make_unique<Ui>(context_->window(), options_.uiScale);
    ui_->loadState(uiSettings);
    ui_->panelShown = options_.panel;
    controller_->setUi(ui_.get());
    panel_ = std::make_unique<PanelLink>(*ui_, *renderer_, *controller_, options_, *context_);
    panel_->renderScaleNote = renderScaleNote;
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

App::~App() {
  // GL and CUDA objects go before the context (declared first, destroyed last).
  race_.reset();
  panel_.reset();
  controller_.reset();
  renderer_.reset();
}

void App::renderFrame() {
  renderer_->renderFrame(controller_->probes());  // the depths the focus and the panel need, a frame later
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
    // --verify: the last frame (a window closing early: the frame it closes on).
    if (options_.verify && (closing || frame + 1 == options_.frames)) controller_->requestVerify();
    controller_->afterFrame();
    if (options_.headless) {
      const bool lastFrame = frame + 1 == options_.frames;
      if (options_.save == Options::Save::All || (options_.save == Options::Save::Last && lastFrame))
        frameFiles_.saveHeadless(*renderer_, options_.outDir, frame, !options_.noLabels);
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
  race_->stop();
  renderer_->drainProfilers();
  printRunSummary(*renderer_);
  if (screenshotOwed)  // closed while minimised: no frame to take
    throw std::runtime_error("--screenshot " + content::quotedPath(options_.screenshot) +
                             ": not written: the window closed while minimised, with no frame to save");
  if (options_.verify) {  // each line printed as it was checked (Controller::verify)
    const std::vector<VerifyLine>& lines = controller_->verdict().lines;
    if (lines.empty()) throw std::runtime_error("--verify: no frame was checked (the run ended before its last frame)");
    for (const VerifyLine& l : lines)
      if (!l.ok) {
        std::fprintf(stderr, "satdof: verify: the frame differs from the CPU reference (%s)\n", l.text.c_str());
        return kExitFailure;
      }
  }
  return kExitOk;
}

}  // namespace satdof

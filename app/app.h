// app/app.h — the shell: owns the GL context, the scene, configuration A's pipeline (and
// B's while a view compares: engine/pipeline/pipeline.h, one type for both), the passes that are
// no configuration's (scene, view, depth probe), and in window mode the panel, the input
// and the script. It runs frames:
//   scene (GL, into A's targets) -> A: filter + SAT + DoF + bokeh -> [B: the same on a copy
//   of A's scene] -> view (the other images, A | B, |A - B|) -> present.
// Each stage opens named profiler sections; the panel and the summary list what ran.
//
// app.cpp: set-up and the frame; app_window.cpp: the window side (the image beside the
// docked panel, input, presenting); app_actions.cpp: what the keys, the panel and the
// script ask for (options set by name, screenshots, reset, presets, verify);
// backend_fallback.cpp: a backend that fails mid-run handed over to the next.
// The tools (qa/tools.h: quality, precision, soak, resize-storm) drive the app's
// pipelines from outside through the public interface below.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "settings/cli.h"
#include "engine/content/content.h"
#include "engine/context/context.h"
#include "engine/focus/focus_controller.h"
#include "app/image_text.h"
#include "app/input.h"
#include "engine/passes/depth_probe.h"
#include "engine/passes/photo_pass.h"
#include "engine/passes/scene_pass.h"
#include "engine/passes/view_pass.h"
#include "engine/pipeline/comparison.h"
#include "engine/pipeline/pipeline.h"
#include "qa/precision_monitor.h"
#include "engine/scene/scene_state.h"
#include "app/script_runner.h"
#include "qa/verify.h"

namespace satdof {

class Ui;
struct LiveOption;  // settings/live_options.h
class Race;  // qa/race_runner.h
struct RaceDeleter {  // (defined with Race: app.cpp need not see it)
  void operator()(Race* race) const;
};

// What the last scan key (1-9) did: a line shown ~2 s on the image and in the panel (and
// said on stdout), then, a few frames later, the SAT time the new variant gave.
struct ScanNote {
  std::string text;
  std::chrono::steady_clock::time_point until;
  std::string variant;         // waiting for its SAT time (empty: not waiting)
  std::size_t satSamples = 0;  // the history's "sat" samples at the key press
};

// The panel's "time each variant" (a script's time-scans): each scan variant the backend
// runs here in turn, until the profiler holds a few SAT times of it (GPU timers, read a few
// frames late), then the user's own variant back and the times on stdout (app_window.cpp).
struct ScanTimes {
  std::vector<std::string> variants;
  std::string restore;         // the user's variant
  std::string backend;         // whose variants (a backend replaced mid-way ends it)
  std::size_t next = 0;        // the variant running now
  std::size_t before = 0;      // its SAT samples when it started
  int frames = -1;             // frames it has run (-1: none started yet)
};

// The settings every frame reads, as the user (command line, settings file, script, keys,
// panel) left them. The live options (settings/live_options.h) read and write these.
struct FrameSettings {
  DofSettings dof;
  FilterSettings filter;
  ViewSettings view;
  BokehSettings bokeh;
};

class App final : private ScriptHost {
 public:
  // Throws std::runtime_error (one-line reason), UsageError or BackendUnavailable.
  // `uiSettings`: the settings file's ui.* entries. `content`: what the frame shows
  // (engine/content/content.h, read before any window); none: the built-in scene --scene names.
  App(const Options& options, const std::map<std::string, std::string>& uiSettings = {},
      std::optional<content::Content> content = std::nullopt);
  ~App() override;
  int run();
  // The live options as they are now (for the settings file).
  Options currentOptions() const;
  std::map<std::string, std::string> uiSettings() const;

  // ---- What the tools drive (qa/tools.h).
  const Options& options() const { return options_; }
  Context& context() { return *context_; }
  Pipeline& pipeline() { return *pipeline_; }
  const Pipeline& pipeline() const { return *pipeline_; }
  Comparison& comparison() { return comparison_; }
  FrameSettings& settings() { return settings_; }
  scene::SceneState& scene() { return scene_; }
  ScenePass& scenePass() { return *scenePass_; }
  Extent extent() const { return pipeline_->extent(); }
  // The DoF and bokeh settings as this frame renders them: blur sizes are the window's
  // pixels, so a frame rendered smaller (--render-scale) blurs as many fewer of its own and
  // looks the same.
  struct BlurSettings {
    DofSettings dof;
    BokehSettings bokeh;
  };
  BlurSettings frameBlur() const;
  // The window's framebuffer less the docked panel: where the frame is shown.
  Extent imageArea(Extent framebuffer) const;
  // What the frame is rendered at: the image area times --render-scale.
  Extent imageExtent(Extent framebuffer) const;
  void resize(Extent extent);
  // Another scene (the quality tool's): the scene pass is rebuilt for it, same samples.
  void setScene(scene::Scene scene);
  // Other content (a file dropped on the window): the scene or photo pass made for it, the
  // focus at its suggestion, the panel's summary; the camera and settings otherwise kept.
  void setContent(content::Content content);
  // --stage switched: a glTF's stage added to or taken off its scene (the scene pass made
  // again), the camera and the focus kept; said in one line. Nothing for other content.
  void setStage(content::StageMode mode);
  void setSatFormat(const std::string& name);
  void setDof(const DofEntry& entry);
  // Applies the panel's choices of DoF implementation and backend options.
  void applyChoices(const std::string& dof, const BackendSelections& selections);
  void renderFrame();
  void endFrame();  // the profilers' frame (A's and B's) after a rendered frame
  void drainProfilers();
  void presentWindow();
  GLuint shownFramebuffer() const;  // the DoF output or the view pass's
  // The frame's SAT source image and depth, read back (after renderFrame).
  std::pair<reference::ImageRgba8, reference::ImageR32F> readBackColourAndDepth();

 private:
  // (Re)allocates A's targets and re-attaches every stage to them (re-registration).
  void reallocate(Extent extent, SatFormat format);
  // backend_fallback.cpp: the backend's attach, and on a failure (a registration the
  // driver refuses after a resize) the next backend in `auto`'s order, said in one line.
  void attachBackend(Pipeline& pipeline, const Targets& targets);
  // Replaces a backend that cannot run the frame by the next one that starts here, and the
  // passes bound to it; false when none is left. The caller re-attaches.
  bool switchToNextBackend(const std::string& failure);
  // Makes the live parts of `o` the app's state; the reason when something is refused.
  std::optional<std::string> applyOptions(const Options& o);
  void applyFocusAndScene(Autofocus autofocus, bool animate, int msaa);
  // A window on a software GL: MSAA 1 and a smaller render scale, where neither the
  // command line nor the settings file chose them; said in one line.
  void adaptToSoftwareGl();
  void saveHeadlessFrame(int index);
  // The split and difference views' labels drawn into a headless frame (image_text.h).
  void labelComparison(reference::ImageRgba8& image);
  void handleInput();
  // What the keys and the mouse (or the script's `key`) asked for.
  void applyInput(const InputActions& actions);
  void chooseScanVariant(int index);  // keys 1-9 (app_window.cpp)
  void updateScanNote();
  void runRaceSteps(bool start, std::optional<std::size_t> adopt);
  void runScanTimes(bool start);  // a step of the panel's "time each variant" a frame
  std::string scanTimesStatus() const;  // what it does now, for the panel (empty: not running)
  const BackendOption* scanOption() const;  // the backend's scan variants (keys 1-9), or null
  void updateFocus(float seconds);
  void printSummary() const;
  void reloadShaders();  // F5 or the panel's button; keeps the old programs on failure
  void reset();          // R: the camera and the settings as the run started
  // Files dropped on the window (or a script's `drop`): loaded and shown, or the one-line
  // problem in the panel and on stdout, the current content kept (app_window.cpp).
  void dropFiles(const std::vector<std::string>& files) override;
  void sayFocus() const;  // the focal distance and range in use, one line
  void sayShowing() const;  // "satdof: showing ..." the content's summary, one line
  void sayStage() const;    // "satdof: stage: ..." whether a stage is shown and why
  // The content's stage (a glTF's), taken when it is shown; and the scene pass made again
  // for scene_ (same samples, attached).
  void adoptStage(content::Content& content);
  void rebuildScenePass();
  // The see-through DoF's second layer for `p` (drawn once a frame, by the first pipeline
  // that needs it) into `dof`; nothing for a photo or another DoF.
  void withSecondLayer(Pipeline& p, DofSettings& dof);
  // Whether A's or B's DoF reads the second layer.
  bool secondLayerWanted() const;
  // Why a see-through DoF runs as layered now (a photo), or empty: stdout and the panel.
  std::string oneLayerNote() const;
  // Whether the command line or the settings file set the option (else the app may choose).
  bool chosenByUser(const LiveOption& option) const;
  void nextPreset();     // P
  void nextDof();        // D: the registry's next DoF that runs on A's backend, said in one line
  // V or the panel's button: this frame's outputs against the CPU reference (verify.h),
  // after the frame is rendered; the verdict goes to the panel and stdout.
  void verify();
  // What a verdict describes now (verify.h). followVerify: after each frame the last
  // verdict follows it, or goes stale for `why` (a reset, reloaded shaders); said on stdout.
  VerifySubject verifySubject() const;
  void followVerify(const std::optional<std::string>& why = std::nullopt);
  void writeScreenshot(const std::string& path);  // the window as PNG + settings beside it
  // Holds the max blur within the SAT format's exact box sums (whyNotMaxBlur), saying so
  // on stdout and in the panel when it lowers it (a format switched to with a larger blur).
  void limitMaxBlurToSatFormat();

  // ScriptHost: what --script (and the keys, the panel) ask for.
  std::optional<std::string> setOption(const std::string& name, const std::string& value) override;
  void focusAt(Pixel pixel) override;
  std::optional<std::string> applyPreset(const std::string& name) override;
  void screenshot(const std::string& path) override { pendingScreenshots_.push_back(path); }
  void quit() override { quit_ = true; }
  void resizeWindow(int width, int height) override;  // app_window.cpp
  void pressKey(const InputActions& actions) override { applyInput(actions); }
  void startRace() override { raceRequested_ = true; }  // app_window.cpp runs it, as the panel's
  bool raceRunning() const override;
  std::optional<std::string> adoptRaceRow(std::size_t row) override;
  void startScanTimes() override { scanTimesRequested_ = true; }  // started with the next frame's panel
  bool scanTimesRunning() const override { return scanTimesRequested_ || scanTimes_.has_value(); }
  void openSections(bool open) override;  // app_window.cpp

  Options options_;
  Options startOptions_;  // for reset
  std::unique_ptr<Context> context_;  // first: destroyed last, after every GL object
  scene::SceneState scene_;
  FrameSettings settings_;
  int backendSwitches_ = 0;  // how many times a failed backend was replaced
  // SATDOF_INJECT_ATTACH_FAILURE=BACKEND:N: that backend's N-th attach throws, as a refused
  // registration would; how the fallback is tested without a broken driver.
  struct AttachFault {
    std::string backend;
    int at = 0, seen = 0;
  } attachFault_;
  std::filesystem::path shaderDir_;
  std::string shaderError_;  // the last reload's error, shown in the panel
  std::unique_ptr<ScenePass> scenePass_;
  std::unique_ptr<PhotoPass> photoPass_;  // instead of the scene pass while a photo is shown
  std::vector<std::string> contentSummary_;  // the panel's lines on what is shown
  std::optional<content::Stage> stage_;  // a glTF's stage (engine/content/stage.h); none for other content
  bool stageShown_ = false;               // whether scene_ holds it now
  std::string stageNote_;                 // whether a stage is shown and why (content::stageNote)
  std::string contentProblem_;  // why the last drop (or preset) was refused; empty: none
  std::unique_ptr<Pipeline> pipeline_;  // configuration A
  Comparison comparison_;               // configuration B, while a view compares
  bool compareDefaultDone_ = false;     // B's default was considered (the first comparing frame)
  std::unique_ptr<ViewPass> viewPass_;
  std::unique_ptr<DepthProbe> depthProbe_;
  std::unique_ptr<Ui> ui_;
  InputController input_;
  FocusController focus_;
  std::optional<Pixel> hover_;
  std::optional<float> hoverDepth_;
  std::optional<ScriptRunner> script_;
  std::vector<std::string> pendingScreenshots_;
  bool quit_ = false;
  bool verifyRequested_ = false;
  int layoutCutSaid_ = 0;  // the panel's cut controls last said (app/ui/widgets.h)
  VerifyVerdict verify_;  // the last verify's lines, stale once they no longer describe the frame
  std::string maxBlurNote_;  // why the max blur was lowered (empty: it was not)
  PrecisionMonitor precision_;  // a float SAT format's error, measured while it is in use
  ScanNote scanNote_;
  std::string renderScaleNote_;  // the panel's word on a render scale the app chose
  bool raceRequested_ = false;   // a script's `race`, started with the next frame's panel
  bool scanTimesRequested_ = false;     // a script's `time-scans`, likewise
  std::optional<ScanTimes> scanTimes_;  // while the scan variants are timed
  std::unique_ptr<ImageText> imageText_;  // the headless frames' label font, made when first needed
  std::unique_ptr<Race, RaceDeleter> race_;  // the panel's race of the kernels, while and after it runs
};

}  // namespace satdof

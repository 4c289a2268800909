// app/app.h — the application: owns the GL context, the frame's targets, the stages and
// the UI, and runs frames:
//   scene (GL) -> filter + SAT (a compute backend) -> depth of field (a DoF entry)
//   -> [configuration B: its own filter, SAT and DoF (compare_pipeline.h), for the split
//   and diff views] -> view (the other images, A | B, |A - B|) -> present.
// Each stage opens named profiler sections; the panel and the summary list what ran.
//
// Window mode presents to a GLFW window with ImGui panels, reads the keys and mouse
// (input.h), focuses where clicked (focus_controller.h, passes/depth_probe.h), runs a
// --script (script_runner.h) and keeps settings between runs (settings_store.h).
// Headless mode (EGL) writes each frame as a PNG and prints per-stage times at the end.
// app_actions.cpp holds what the keys, the panel and the script ask for (options set by
// name, screenshots, reset, presets); app_window.cpp the window side (the image beside the
// docked panel, input, presenting).
#pragma once

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "compare_pipeline.h"
#include "precision.h"
#include "context/context.h"
#include "dof/dof_implementation.h"
#include "focus_controller.h"
#include "frame/frame_targets.h"
#include "input.h"
#include "passes/bokeh_pass.h"
#include "passes/compute_pass.h"
#include "passes/depth_probe.h"
#include "passes/scene_pass.h"
#include "passes/view_pass.h"
#include "profiling/profiler.h"
#include "scene/scene.h"
#include "script_runner.h"
#include "verify.h"

namespace satdof {

class Ui;

class App final : private ScriptHost {
 public:
  // Throws std::runtime_error (one-line reason), UsageError or BackendUnavailable.
  // `uiSettings`: the settings file's ui.* entries.
  App(const Options& options, const std::map<std::string, std::string>& uiSettings = {});
  ~App() override;
  int run();
  // The live options as they are now (for the settings file).
  Options currentOptions() const;
  std::map<std::string, std::string> uiSettings() const;
  // `satdof quality`: every DoF implementation against the scattering ground truth, on
  // every scene of the registry (quality.cpp).
  int runQuality();
  // `satdof precision`: each float SAT format's DoF image against the exact one
  // (precision.cpp).
  int runPrecision();
  // `satdof soak`: frames with every registry entry switched at random, memory and
  // fresh-render checks (soak.cpp).
  int runSoak();
  // `satdof resize-storm`: random window sizes, then a frame equal to a fresh start's
  // (resize_storm.cpp).
  int runResizeStorm();

 private:
  void resize(Extent extent);
  // The window's framebuffer less the docked panel: what the frame is rendered at.
  Extent imageExtent(Extent framebuffer) const;
  // (Re)allocates the targets and re-attaches every stage to them (re-registration).
  void reallocate(Extent extent, SatFormat format);
  // backend_fallback.cpp: the backend's attach, and on a failure (a registration the
  // driver refuses after a resize) the next backend in `auto`'s order, said in one line.
  void attachBackend(const Targets& targets);
  // Replaces a backend that failed mid-run by the next one that starts here, and the
  // passes bound to it; false when none is left. The caller re-attaches.
  bool switchToNextBackend(const std::string& failure);
  // Applies the panel's choices of DoF implementation and backend options.
  void applyChoices(const std::string& dof, const BackendSelections& selections);
  // Makes the live parts of `o` the app's state; the reason when something is refused.
  std::optional<std::string> applyOptions(const Options& o);
  void applyFocusAndScene(Autofocus autofocus, bool animate, int msaa);
  void renderFrame();
  void endFrame();  // the profilers' frame (A's and B's) after a rendered frame
  void presentWindow();
  void saveHeadlessFrame(int index);
  void handleInput();
  // What the keys and the mouse (or the script's `key`) asked for.
  void applyInput(const InputActions& actions);
  void updateFocus(float seconds);
  void animate(float seconds);
  GLuint shownFramebuffer() const;  // the DoF output or the view pass's
  void setDof(const DofEntry& entry);
  void printSummary() const;
  void printCompareSummary() const;  // A's and B's stage times side by side
  void reloadShaders();  // F5 or the panel's button; keeps the old programs on failure
  void reset();          // R: the camera and the settings as the run started
  void nextPreset();     // P
  // V or the panel's button: this frame's outputs against the CPU reference (verify.h),
  // after the frame is rendered; the verdict goes to the panel and stdout.
  void verify();
  void writeScreenshot(const std::string& path);  // the window as PNG + settings beside it

  // ScriptHost: what --script (and the keys, the panel) ask for.
  std::optional<std::string> setOption(const std::string& name, const std::string& value) override;
  void focusAt(Pixel pixel) override;
  std::optional<std::string> applyPreset(const std::string& name) override;
  void screenshot(const std::string& path) override { pendingScreenshots_.push_back(path); }
  void quit() override { quit_ = true; }
  void resizeWindow(int width, int height) override;  // app_window.cpp
  void pressKey(const InputActions& actions) override { applyInput(actions); }
  // The frame's SAT source image and depth, read back (after renderFrame).
  std::pair<reference::ImageRgba8, reference::ImageR32F> readBackColourAndDepth();
  // While a float SAT format is in use: every two seconds (or on the panel's button) the
  // frame is read back and measured against the exact format on a worker thread; the
  // result, when ready, becomes the panel's line and heatmap.
  void updatePrecision(bool requested);
  void showPrecision(const PrecisionReport& report);
  void setSatFormat(const std::string& name);
  // Holds the max blur within the SAT format's exact box sums (whyNotMaxBlur), saying so
  // on stdout and in the panel when it lowers it (a format switched to with a larger blur).
  void limitMaxBlurToSatFormat();
  // The app's own pipeline as a configuration (compare_config.h).
  PipelineConfig configA() const;
  // In the split and difference views: builds, resizes or rebuilds configuration B to
  // match compareFields_ and A (a failure becomes compareProblem_, tried again when
  // something changes); otherwise frees it.
  void updateCompare();
  // The two configurations' labels: "A: ..." and "B: ...".
  std::pair<std::string, std::string> compareLabels() const;

  Options options_;
  Options startOptions_;  // for reset
  std::unique_ptr<Context> context_;  // first: destroyed last, after every GL object
  scene::Scene scene_;
  scene::Camera startCamera_;
  std::vector<glm::mat4> baseModels_;  // the instances' models before the animation
  float animationTime_ = 0;
  int presetIndex_ = -1;
  Extent extent_;
  DofSettings dof_;
  FilterSettings filter_;
  ViewSettings view_;
  std::string backendReason_;
  int backendSwitches_ = 0;  // how many times a failed backend was replaced
  // SATDOF_INJECT_ATTACH_FAILURE=BACKEND:N: that backend's N-th attach throws, as a refused
  // registration would; how the fallback is tested without a broken driver.
  struct AttachFault {
    std::string backend;
    int at = 0, seen = 0;
  } attachFault_;
  std::filesystem::path shaderDir_;
  std::string shaderError_;  // the last reload's error, shown in the panel
  // The backend's choices, fixed for its lifetime: listed once, not every frame.
  std::vector<BackendOption> backendOptions_;
  std::vector<FilterImplementation> filterImplementations_;
  FrameTargets targets_;
  std::unique_ptr<ScenePass> scenePass_;
  std::unique_ptr<ComputePass> computePass_;
  const DofEntry* dofEntry_ = nullptr;
  std::unique_ptr<DofImplementation> dofImpl_;
  std::unique_ptr<ViewPass> viewPass_;
  std::unique_ptr<DepthProbe> depthProbe_;
  std::unique_ptr<BokehPass> bokehPass_;
  BokehSettings bokeh_;
  CompareFields compareFields_;  // configuration B: the fields set for it
  std::unique_ptr<ComparePipeline> compare_;  // built while a view compares
  std::string compareProblem_;                // why B is not running (empty: it is, or is not asked)
  std::optional<std::pair<PipelineConfig, Extent>> compareTried_;  // what the problem is about
  std::unique_ptr<Profiler> profiler_;
  ProfileHistory history_;
  std::unique_ptr<Ui> ui_;
  InputController input_;
  FocusController focus_;
  std::optional<Pixel> hover_;
  std::optional<float> hoverDepth_;
  std::optional<ScriptRunner> script_;
  std::vector<std::string> pendingScreenshots_;
  bool quit_ = false;
  bool verifyRequested_ = false;
  int layoutCutSaid_ = 0;  // the panel's cut controls last said (ui/widgets.h)
  std::vector<VerifyLine> verifyLines_;
  std::string maxBlurNote_;      // why the max blur was lowered (empty: it was not)
  std::string precisionLine_;    // the last precision measurement (a float format)
  gl::Texture precisionHeatmap_;  // and its heatmap
  std::future<PrecisionReport> precisionJob_;
  std::chrono::steady_clock::time_point precisionStarted_{};
};

}  // namespace satdof

// app/app.h — the application: owns the GL context, the frame's targets, the stages and
// the UI, and runs frames:
//   scene (GL) -> filter + SAT (a compute backend) -> depth of field (a DoF entry)
//   -> view (comparisons) -> present.
// Each stage opens named profiler sections; the panel and the summary list what ran.
//
// Window mode presents to a GLFW window with ImGui panels; headless mode (EGL) writes
// each frame as a PNG and prints per-stage times at the end.
#pragma once

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "precision.h"
#include "context/context.h"
#include "dof/dof_implementation.h"
#include "frame/frame_targets.h"
#include "passes/bokeh_pass.h"
#include "passes/compute_pass.h"
#include "passes/scene_pass.h"
#include "passes/view_pass.h"
#include "profiling/profiler.h"
#include "scene/scene.h"

namespace satdof {

class Ui;

class App {
 public:
  // Throws std::runtime_error (one-line reason) or BackendUnavailable.
  explicit App(const Options& options);
  ~App();
  int run();
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
  // (Re)allocates the targets and re-attaches every stage to them (re-registration).
  void reallocate(Extent extent, SatFormat format);
  // Applies the panel's choices of DoF implementation and backend options.
  void applyChoices(const std::string& dof, const BackendSelections& selections);
  void renderFrame();
  void presentWindow();
  void saveHeadlessFrame(int index);
  void handleInput();
  GLuint shownFramebuffer() const;  // the DoF output or the comparison view
  void setDof(const DofEntry& entry);
  void printSummary() const;
  void reloadShaders();  // F5 or the panel's button; keeps the old programs on failure
  // The frame's SAT source image and depth, read back (after renderFrame).
  std::pair<reference::ImageRgba8, reference::ImageR32F> readBackColourAndDepth();
  // While a float SAT format is in use: every two seconds (or on the panel's button) the
  // frame is read back and measured against the exact format on a worker thread; the
  // result, when ready, becomes the panel's line and heatmap.
  void updatePrecision(bool requested);
  void showPrecision(const PrecisionReport& report);
  void setSatFormat(const std::string& name);

  Options options_;
  std::unique_ptr<Context> context_;  // first: destroyed last, after every GL object
  scene::Scene scene_;
  Extent extent_;
  DofSettings dof_;
  FilterSettings filter_;
  ViewSettings view_;
  std::string backendReason_;
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
  std::unique_ptr<BokehPass> bokehPass_;
  BokehSettings bokeh_;
  std::unique_ptr<Profiler> profiler_;
  ProfileHistory history_;
  std::unique_ptr<Ui> ui_;
  double lastCursorX_ = 0, lastCursorY_ = 0;
  bool draggingDivider_ = false;
  bool f5WasDown_ = false;
  std::string precisionLine_;    // the last precision measurement (a float format)
  gl::Texture precisionHeatmap_;  // and its heatmap
  std::future<PrecisionReport> precisionJob_;
  std::chrono::steady_clock::time_point precisionStarted_{};
};

}  // namespace satdof

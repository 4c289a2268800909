// app/app.h — the application: owns the GL context, the passes and the UI, and runs
// frames:  scene (GL) -> filter + SAT (CUDA interop or CPU) -> depth of field (GL)
//          -> view (comparisons) -> present.
//
// Window mode presents to a GLFW window with ImGui panels; headless mode (EGL) writes
// each frame as a PNG and prints per-stage times at the end.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "context/context.h"
#include "passes/dof_pass.h"
#include "passes/compute_pass.h"
#include "passes/scene_pass.h"
#include "passes/view_pass.h"
#include "profiling/stage_times.h"
#include "scene/scene.h"

namespace satdof {

class Ui;

class App {
 public:
  // Throws std::runtime_error (one-line reason) or BackendUnavailable.
  explicit App(const Options& options);
  ~App();
  int run();

 private:
  void resize(Extent extent);
  void renderFrame();
  void presentWindow();
  void saveHeadlessFrame(int index);
  void handleInput();
  GLuint shownFramebuffer() const;  // the DoF output or the comparison view
  void printSummary() const;
  void reloadShaders();  // F5 or the panel's button; keeps the old programs on failure

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
  std::vector<std::string> scanVariants_;
  std::vector<FilterImplementation> filterImplementations_;
  std::unique_ptr<ScenePass> scenePass_;
  std::unique_ptr<ComputePass> computePass_;
  std::unique_ptr<DofPass> dofPass_;
  std::unique_ptr<ViewPass> viewPass_;
  std::unique_ptr<GlStageTimer> timer_;
  StageHistory history_;
  std::unique_ptr<Ui> ui_;
  double lastCursorX_ = 0, lastCursorY_ = 0;
  bool draggingDivider_ = false;
  bool f5WasDown_ = false;
};

}  // namespace satdof

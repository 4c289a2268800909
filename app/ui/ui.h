// app/ui/ui.h — Dear ImGui on the window: set-up and tear-down (GLFW + OpenGL3 backends
// from Debian's libimgui) and the panels, one function per concern (panels.cpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/compute_backend.h"
#include "dof/dof_implementation.h"
#include "passes/bokeh_pass.h"
#include "passes/filter_settings.h"
#include "passes/view_pass.h"
#include "profiling/profiler.h"

struct GLFWwindow;

namespace satdof {

// What the panels show and edit. The app owns it; panels change it in place and the app
// applies changes before the next frame.
struct UiState {
  DofSettings* dof = nullptr;
  std::string backendReason;
  std::string glRenderer;
  const ComputeBackend* backend = nullptr;
  std::span<const BackendOption> backendOptions;  // what the backend offers (its registries)
  BackendSelections selections;                   // current; a panel may change them
  std::string dofImplementation;                  // current; a panel may change it
  FilterSettings* filter = nullptr;
  ViewSettings* view = nullptr;
  std::span<const FilterImplementation> filterImplementations;
  std::string filterProblem;            // why the filter did not run (empty: it did)
  std::optional<unsigned> maxDifference;  // of the difference view, a frame late
  const ProfileHistory* history = nullptr;
  std::string shaderDir;
  std::string shaderError;     // the last reload's compile error
  bool reloadShaders = false;  // set by the panel's button
  int width = 0, height = 0;
  std::string satFormat;           // current; the panel may change it
  bool measurePrecision = false;   // set by the panel's button
  std::string precisionLine;       // the last measurement, for a float format
  GLuint precisionHeatmap = 0;     // its heatmap texture (0: none)
  BokehSettings* bokeh = nullptr;
  std::optional<std::string> bokehWhyNot;  // the backend cannot run the pass
  std::optional<BokehCounts> bokehCounts;  // a few frames late
};

class Ui {
 public:
  explicit Ui(GLFWwindow* window);
  ~Ui();
  Ui(const Ui&) = delete;
  Ui& operator=(const Ui&) = delete;

  void beginFrame();
  void draw(UiState& state);
  void endFrame();  // renders the draw data into the bound framebuffer
  bool wantsMouse() const;
};

namespace panels {
void pipeline(UiState& state);
void depthOfField(UiState& state);
void convolution(UiState& state);
void view(UiState& state);
void timings(const UiState& state);
void satTable(UiState& state);  // sat_panel.cpp
void bokeh(UiState& state);     // bokeh_panel.cpp
}  // namespace panels

}  // namespace satdof

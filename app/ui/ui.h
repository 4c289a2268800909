// app/ui/ui.h — Dear ImGui on the window: set-up and tear-down (GLFW + OpenGL3 backends
// from Debian's libimgui, scaled for HiDPI), the docked panel and what is drawn on the
// image (labels, the help overlay). One file per section of the panel:
//   panels.cpp        pipeline (backend, its registries' combos), scene (presets, animation)
//   sat_times_panel.cpp  under the scan variant: the SAT time of the current one, a table
//                     of each variant's last time, the button that times them all
//   focus_panel.cpp   focus: click-to-focus, autofocus, depth under the cursor, overlay
//   dof_panel.cpp     depth of field (implementation, the camera model's controls)
//   filter_panels.cpp convolution and view
//   compare_panel.cpp compare: off / split / difference, configuration B's fields
//   timings_panel.cpp per-stage times with rolling plots, FPS, SAT bandwidth
//   race_panel.cpp    the race of the backend's kernels: start, progress, a bar per entry
//   lesson_view.cpp   over the image: a scan, a SAT or a convolution step by step (L)
// The panel is docked: the app renders the image beside it (panelWidthFor), not under it.
//   overlay.cpp       on the image: the A | B configurations' labels, the difference's maximum, the depth
//                     range, the help overlay (F1)
//   widgets.h         a labelled row that never cuts its label, one-line tooltips
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/content/stage.h"
#include "engine/pipeline/pipeline_config.h"
#include "engine/dof/dof_implementation.h"
#include "engine/focus/focus_controller.h"
#include "engine/passes/bokeh_pass.h"
#include "engine/frame/filter_settings.h"
#include "engine/passes/view_pass.h"
#include "engine/profiling/profiler.h"
#include "settings/cli.h"
#include "app/ui/lesson_view.h"
#include "app/ui/widgets.h"
#include "qa/verify.h"

struct GLFWwindow;

namespace satdof {

class Race;  // qa/race_runner.h

// A scan variant's SAT time in the panel and the times "time each variant" prints: the
// median of its last this many samples (each one frame's GPU timer).
inline constexpr std::size_t kSatTimeSamples = 5;

// What the panels show and edit. The app owns it; panels change it in place and the app
// applies changes before the next frame.
struct UiState {
  // The settings as they are this frame (Controller::currentOptions), the one value the
  // command line, the settings file and scripts set too: the panels edit it in place
  // (the frame's part, B's fields, the backend's choices, the DoF, the SAT format, focus,
  // msaa, stage, render scale) and the app applies it after the frame (PanelLink).
  Options* settings = nullptr;
  std::string backendReason;
  std::string glRenderer;
  std::string tableMemory;  // where the SAT tables live (TableMemory::description)
  const ComputeBackend* backend = nullptr;
  std::span<const BackendOption> backendOptions;  // what the backend offers (its registries)
  std::span<const FilterImplementation> filterImplementations;
  std::string filterProblem;            // why the filter did not run (empty: it did)
  std::optional<unsigned> maxDifference;  // of the difference view, a frame late
  float gainUsed = 1;                     // the difference view's gain this frame
  std::optional<DepthRange> depthRange;   // of the depth view, a frame late
  const ProfileHistory* history = nullptr;
  std::string shaderDir;
  std::string shaderError;     // the last reload's compile error
  std::size_t satBytesPerPixel = 0;  // the SAT format's entry (for GB/s)
  int width = 0, height = 0;

  // Focus.
  std::optional<float> hoverDepth;       // depth under the cursor (nullopt: not over the image)
  bool focusAnimating = false;
  content::DepthSpan depthSpan;          // the content's distances: the focus sliders' reach
  // Scene: what is shown (engine/content/content.h), why a drop was refused (empty: it was not).
  std::span<const std::string> contentSummary;  // App::contentSummary_, for this frame
  std::string contentProblem;
  bool photo = false;    // a photo: no presets, nothing turns, nothing to anti-alias
  std::string oneLayerNote;  // why the see-through DoF runs as layered (App::oneLayerNote)
  std::string stageNote;         // whether a stage is shown and why (content::stageNote)
  bool stageSwitchable = false;  // a glTF's; built-in scenes and photos have none
  std::string renderScaleNote;  // why it is what it is, when the app chose it

  std::vector<VerifyLine> verifyLines;  // the last verify's verdict, a line per stage
  std::string verifyStale;              // why it no longer describes the frame (empty: it does)

  // Requests from the panel, carried out by the app after the frame.
  bool reloadShaders = false;
  bool reset = false;
  bool screenshot = false;
  bool verify = false;
  std::optional<std::string> preset;
  std::string maxBlurNote;         // why the max blur was lowered for the SAT format
  bool measurePrecision = false;   // set by the panel's button
  std::string precisionLine;       // the last measurement, for a float format
  GLuint precisionHeatmap = 0;     // its heatmap texture (0: none)
  std::string bokehMethod;                 // how this backend builds the sprite list
  std::optional<BokehCounts> bokehCounts;  // a few frames late

  // Compare: configuration A as it runs (B's own fields, which the panel edits, are
  // settings->compareB), B as they make it, the labels on the image; B's backend and
  // stage times while it runs, or why it does not.
  PipelineConfig compareA, compareB;
  std::string compareLabelA, compareLabelB;
  const ComputeBackend* compareBackend = nullptr;
  const ProfileHistory* compareHistory = nullptr;
  std::string compareProblem;
  std::string compareFilterProblem;  // B's convolution did not run (empty: it did)
  std::vector<std::string> compareNotes;  // the lines on the image under the labels (CompareCaption)

  // What the last scan key (1-9) did, for ~2 s (empty: nothing to say).
  std::string scanNote;
  // The race of the backend's kernels (race_panel.cpp; null: none started). The panel asks
  // for a start, or for a row to become the app's choice once the race is done.
  const Race* race = nullptr;
  bool raceStart = false;
  std::optional<std::size_t> raceAdopt;
  // The panel's "time each variant" (App::runScanTimes): asked for, and what it does now
  // (empty: not running).
  bool timeScans = false;
  std::string scanTimesStatus;
  LessonView* lesson = nullptr;  // the lesson view, which the panel's button shows or hides
};

class Ui {
 public:
  // `scale`: the panel's and labels' scale (HiDPI); 0: the window's content scale.
  explicit Ui(GLFWwindow* window, float scale = 0);
  ~Ui();
  Ui(const Ui&) = delete;
  Ui& operator=(const Ui&) = delete;

  void beginFrame();
  void draw(UiState& state);
  void endFrame();  // renders the draw data into the bound framebuffer
  bool wantsMouse() const;
  bool wantsKeyboard() const;
  // The controls of the last frame that did not fit the panel (cut at its right edge).
  const widgets::LayoutCheck& layout() const { return layout_; }

  // The panel's width in window coordinates for a window this wide (0 while hidden): the
  // image is rendered into the rest, so the panel never covers it.
  float panelWidthFor(float windowWidth) const;

  bool panelShown = true;
  bool helpShown = false;
  LessonView lesson;  // L: a scan, a SAT or a convolution step by step, over the image
  float panelWidth = 0;  // logical pixels before HiDPI scale; 0: the default
  // The panel's own settings for the settings file (ui.*: its width), and back.
  std::map<std::string, std::string> saveState() const;
  void loadState(const std::map<std::string, std::string>& values);
  // Every section of the panel opened (or folded) in the next frame (a script's `sections`).
  void openAllSections(bool open) { openAll_ = open; }

 private:
  void drawPanel(UiState& state);
  float scale_ = 1.0f;  // HiDPI content scale
  widgets::LayoutCheck layout_;
  std::optional<bool> openAll_;  // for the next frame's sections
};

namespace panels {
void pipeline(UiState& state);
void scene(UiState& state);
void focus(UiState& state);
void drawDofSection(UiState& state);  // dof_panel.cpp: the depth-of-field section
void convolution(UiState& state);
void view(UiState& state);
void timings(const UiState& state);
void compare(UiState& state);  // compare_panel.cpp
void satTable(UiState& state);  // sat_panel.cpp
void satTimes(UiState& state);  // sat_times_panel.cpp
// Drawn on the image, not in the panel.
void imageLabels(const UiState& state, float imageRight);  // the image's right edge
void helpOverlay();
void bokeh(UiState& state);     // bokeh_panel.cpp
void race(UiState& state);      // race_panel.cpp
void scanNote(const UiState& state);  // panels.cpp: on the image, what the last scan key did
}  // namespace panels

}  // namespace satdof

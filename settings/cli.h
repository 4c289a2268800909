// settings/cli.h — every command-line flag of satdof, registered in one place (cli.cpp).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/basic_types.h"
#include "engine/backends/compute_backend.h"
#include "engine/content/photo.h"
#include "engine/content/stage.h"
#include "engine/pipeline/pipeline_config.h"
#include "engine/focus/focus_controller.h"
#include "engine/renderer/frame_settings.h"
#include "satdof/reference/coc.h"

namespace satdof {

// What every frame reads (FrameSettings, the renderer's own value: the DoF's camera in
// dof.params, the filter, the view, bokeh) and what the run needs besides. The live
// options (live_options.h) read and write both; the renderer takes the frame's part as it
// is (Controller::applyOptions) and hands it back (optionsOf).
//   dof.params  --camera, --focal, --focal-range, --max-blur, --focal-length, --f-number,
//               --sensor-width, --aperture
//   filter      --filter, --radius, --sigma, --weights, --border, --conv
//   view        --view, --divider, --diff-gain
//   bokeh       --bokeh, --bokeh-threshold, --bokeh-blades, ...
struct Options : FrameSettings {
  // The live options' defaults come from their declarations (live_options.h).
  Options();

  bool headless = false;
  int frames = 0;            // 0: run until the window closes (headless: 3)
  Extent size{1280, 720};
  std::string outDir = "out";
  enum class Save { All, Last, None } save = Save::All;  // which headless frames become PNGs
  bool noLabels = false;  // --no-labels: split and diff PNGs without the A/B labels
  bool verify = false;    // --verify: the last frame against the CPU reference (exit 1 when it differs)
  std::string backend = "auto";         // a compute backend's name, or auto
  bool focusFromScene = true;  // --focal scene: dof.params.focalDistance is the content's suggestion
  BackendSelections selections;  // --scan, --sat, ...: the options backends offer
  // The settings file's backend options, per backend ("cuda" -> scan -> warp-shuffle):
  // applied to the backend that runs, where the command line did not choose.
  std::map<std::string, BackendSelections> savedSelections;
  std::string dofName;           // --dof: the implementation (empty: the registry's default)
  std::string satFormat;         // --sat-format: empty: the default format
  std::string scene = "teapots";  // --scene: engine/scene/scenes.h, or a .gltf / .glb file
  std::string photo, depth;       // --photo IMAGE --depth DEPTH: an RGB-D photo (engine/content/photo.h)
  content::DepthMapping depthMapping;  // --depth-encoding, --depth-range (a dropped photo's too)
  content::StageMode stage = content::StageMode::Auto;  // --stage: a lone glTF model's ground and lamps
  bool quality = false;           // `satdof quality`
  std::string qualityCsv;         // quality --csv FILE
  std::string qualityLensAperture;       // quality --lens-aperture disc|square (empty: --aperture's match)
  int qualityMaxRenders = 4096;          // quality --lens-renders N: at most N renders a truth
  bool precision = false;         // `satdof precision`
  bool soak = false;              // `satdof soak`
  unsigned soakSeed = 1;
  int soakCheckEvery = 1000;
  bool race = false;         // `satdof race`: every SAT and convolution of the backend, timed
  std::string raceCsv;       // --csv FILE
  int raceRepeats = 15;      // timed runs per entry (the median is reported)
  bool resizeStorm = false;  // `satdof resize-storm` (window; --frames sizes, --seed)
  int stormMaxSide = 2048;
  CompareFields compareB;    // --compare-b (--compare CONV: its conv): configuration B
  std::string screenshot;    // window mode: save the last presented frame (with the UI)
  Autofocus autofocus = Autofocus::Off;  // --autofocus off|centre|point
  bool animate = false;      // --animate: the teapots turn
  int msaa = 0;              // --msaa N: scene samples per pixel (1: none)
  float renderScale = 1;     // --render-scale S: the window's frame at S times its image area, scaled up
  bool panel = true;         // --panel shown|hidden (H toggles it)
  float uiScale = 0;         // --ui-scale S: the panel's scale (0: the window's content scale)
  std::string script;        // --script FILE: actions to run (script.h)
  bool noSettings = false;   // --no-settings: neither read nor write the settings file
  // The long names of the flags given on the command line (without "--"): the
  // settings file does not override them.
  std::set<std::string> given;
  // The live options the settings file set (a choice made in an earlier run).
  std::set<std::string> fromSettings;
  bool vsync = true;
  bool isolateStages = false;  // finish each stage before the next: per-stage times alone
  std::string satMemory = "auto";  // where the SAT tables live: auto, cuda, gl (chooseTableMemory)
  bool verbose = false;

  // `satdof bench <family>`: what the command line asks of the benchmarks, which main.cpp
  // hands to bench/bench.h (the options know no bench library).
  struct BenchRequest {
    std::string family;                 // empty: no bench
    std::string jsonPath, csvPath;      // --json, --csv (empty: none)
    std::vector<std::string> variants;  // --variant NAME (repeatable; empty: all)
    int warmup = 5, repeats = 30;       // --warmup, --repeats (the median of these)
    bool quick = false;                 // --quick: small sizes only
  } bench;

  // `satdof lesson scan|sat|conv`: a kernel followed step by step (lesson/lesson_tool.h).
  struct LessonRequest {
    std::string topic;    // empty: no lesson; "scan", "sat" or "conv"
    std::string variant;  // --variant NAME (scan, conv), --algorithm NAME (sat)
    int n = 16;           // --n N elements (sat: an N x N image)
    int blocks = 1;       // --blocks B
    int subgroupSize = 32;  // --subgroup-size W: the GL's subgroup width (scan subgroup)
    int radius = 3;       // --radius R (conv)
    std::string border = "zero";  // --border zero|clamp (conv)
    int seed = 1;         // --seed S: the input's values
    std::string outDir;   // --out FOLDER (empty: the steps printed only)
  } lesson;
};

// Exit codes: 0 success, 1 runtime failure, 2 bad command line, 3 the requested backend
// is not available here.
enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitBackendUnavailable = 3 };

// A setting that parsed but cannot be honoured (e.g. a convolution implementation the
// backend lacks): main() reports it like a parse error, with exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ParseOutcome {
  std::optional<Options> options;  // set when the program should run
  int exitCode = kExitOk;          // otherwise exit with this (help: 0, errors: 2)
};

// Parses argv. Errors print one line to stderr ("satdof: ..."); --help prints usage.
ParseOutcome parseCommandLine(int argc, char** argv);

}  // namespace satdof

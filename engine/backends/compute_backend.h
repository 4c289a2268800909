// engine/backends/compute_backend.h — who runs the compute part of the frame: the optional
// convolution of the scene colour (implementation A, and B for comparisons) and the
// summed-area table of the result, into the frame's targets (engine/frame/frame_targets.h).
//
// Backends are a registry (engine/backends/registry.cpp), in the order `--backend auto` tries
// them:
//   cuda        CUDA-GL interop (engine/interop/session.h), the library's registries on the
//               GPU, everything mapped in one call per frame, no host round trip (the
//               CUDA part registers it; a build without one lists it, unable to run);
//   gl-compute  GLSL compute shaders on any GL 4.3+ GPU (skipped by auto on a software
//               GL, where the CPU is faster);
//   cpu         read back, the reference library on every core, upload (the fallback).
// All write the same bytes, so the stages after them cannot tell them apart.
//
// What a backend offers the user (its scan variants, its SAT algorithms, its convolution
// implementations) it lists from its own registries as BackendOptions: the command line,
// --help and the panels are generated from those lists and know nothing of CUDA.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/context/context.h"
#include "engine/frame/frame_targets.h"
#include "engine/frame/filter_settings.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/bokeh.h"

namespace satdof {

// One entry of a registry a backend exposes (a scan variant, a SAT algorithm).
struct Choice {
  std::string name;
  std::string description;  // one line, shown by --help and as the panel's tooltip
};

// A setting a backend offers: a command-line flag (--<key>) and a panel combo.
struct BackendOption {
  std::string key;    // "scan", "sat"
  std::string label;  // "scan variant", "SAT algorithm"
  std::vector<Choice> choices;
  std::string defaultChoice;
  // The option the demo is about (the scan variant): the start line names its choice and
  // keys 1-9 pick its first nine choices.
  bool numberKeys = false;
  bool has(std::string_view name) const;
};

// key -> chosen name; a key not present means the option's default.
using BackendSelections = std::map<std::string, std::string>;

// The bokeh highlights' sprite list to build in the same frame (satdof/reference/bokeh.h),
// from the image the SAT reads and the depth: the sprites into targets.bokehSprites, the
// draw command (reference::BokehCommand) into slot `slot` of targets.bokehCommands.
struct BokehRequest {
  reference::BokehSettings select;  // maxSprites in 1..kMaxBokehSprites
  reference::CocRamp ramp;
  int slot = 0;  // 0..kBokehSlots-1
};

struct ComputeRequest {
  const FilterSettings& settings;
  const Filter* filter;  // null: no filtering (the SAT reads the scene colour)
  Profiler& profiler;
  const BokehRequest* bokeh = nullptr;  // null: no bokeh highlights this frame
};

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  virtual std::string_view name() const = 0;
  // After every (re)allocation of the targets: register what needs it.
  virtual void attach(const Targets& targets) = 0;
  // Before the targets are deleted: unregister them, finish pending work.
  virtual void detach() = 0;
  // Filters (when request.filter is set) into targets.filtered, with settings.compare
  // also into targets.compare, then builds the SAT of the filtered image or of the scene
  // colour. The filter is valid and supported by the chosen implementations. With
  // request.bokeh, also the bokeh sprite list of that image (after the SAT; on the cuda
  // backend inside the frame's one mapping).
  virtual void compute(const ComputeRequest& request) = 0;
  // How this backend builds the bokeh sprite list (one line, for the panel).
  virtual std::string_view bokehMethod() const = 0;

  // The layered DoF's two field SATs: targets.nearField -> nearSat, farField -> farSat, in
  // the uint32 format. The default reads the fields back, builds the tables with the CPU
  // reference and uploads them (correct everywhere); a backend with a faster path
  // overrides it.
  virtual void buildFieldSats(const Targets& targets, Profiler& profiler);

  virtual std::vector<FilterImplementation> filterImplementations() const = 0;
  virtual std::vector<BackendOption> options() const = 0;
  // The current choice for an option key.
  virtual std::string selected(const std::string& key) const = 0;
  // Applies from the next compute(); the reason when the name is not one of the key's.
  virtual std::optional<std::string> select(const std::string& key, const std::string& name) = 0;
  // Why the entry `name` of option `key` cannot run here (this GL lacks what it needs),
  // known without trying it; nullopt where it may. The panel greys such an entry out with
  // the reason, and keys 1-9 number only the entries that run (runnableChoices).
  virtual std::optional<std::string> whyNotHere(const std::string& /*key*/, const std::string& /*name*/) const {
    return std::nullopt;
  }
  // Why the current choice for `key` is not the one asked for (the default needs what this
  // GL lacks, or the name asked for is another backend's), for the start line that names
  // the choice; empty when it is the one asked for.
  virtual std::string choiceNote(const std::string& /*key*/) const { return {}; }

 protected:
  gl::BufferUploader hostUploads_;  // the CPU paths' tables into GL buffers (one staging buffer, kept)
};

// A backend as the registry knows it, before any GL context exists.
struct ComputeBackendInfo {
  std::string_view name;              // --backend NAME
  std::string_view label = {};        // "CUDA", as in "CUDA backend: ..."
  std::string_view description = {};  // one line for --help
  std::vector<BackendOption> (*options)();
  std::vector<FilterImplementation> (*filterImplementations)();
  // The backend for this GL context with these selections, or null. `reason` gets one
  // line: why it cannot run here and what the user can do, or (may stay empty) why it fits.
  // Selections that cannot run together on any machine throw std::invalid_argument.
  std::unique_ptr<ComputeBackend> (*create)(const Context& context, const BackendSelections& selections,
                                            std::string& reason);
  // Why it cannot run on this machine at all, known before any GL starts (empty: it may);
  // null where only the GL context can tell.
  std::string (*whyNotOnThisMachine)() = nullptr;
};

// The choices of `option` that `backend` can run here, in the option's order: what keys
// 1-9 pick (the first nine) and the panel numbers.
std::vector<const Choice*> runnableChoices(const ComputeBackend& backend, const BackendOption& option);

// The profiler's tag for the "sat" section: "<algorithm> / <scan variant>", or the algorithm
// alone where no scan variant is involved. One home for the format the panel reads back.
std::string satSectionTag(std::string_view algorithm, std::string_view scan);

// In the order `auto` tries them.
std::span<const ComputeBackendInfo> computeBackends();
const ComputeBackendInfo* findComputeBackend(std::string_view name);

struct BackendChoice {
  std::unique_ptr<ComputeBackend> backend;
  std::string reason;  // one line: which backend and why, shown in the log and the UI
};

struct BackendUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `requested` is a backend name or "auto" (the first that works with this GL context).
// Throws BackendUnavailable when a named backend cannot run here.
BackendChoice chooseComputeBackend(std::string_view requested, const Context& context,
                                   const BackendSelections& selections);
// When the backend `failed` broke mid-run: the first backend after it in `auto`'s order
// that starts here, with its one line; nullopt when none is left.
std::optional<BackendChoice> chooseBackendAfter(std::string_view failed, const Context& context,
                                                const BackendSelections& selections);

// The backends' own entries (each in its file).
std::vector<BackendOption> cpuBackendOptions();
std::vector<FilterImplementation> cpuFilterImplementations();
std::unique_ptr<ComputeBackend> createCpuBackend(const Context&, const BackendSelections&, std::string&);

// An optional part's backend (engine/parts/optional_parts.h; the CUDA part's cuda_backend.cpp):
// it replaces the entry listed under its name, whose label and description it keeps, or is
// appended. Only from registerOptionalParts().
void registerComputeBackend(ComputeBackendInfo part);

}  // namespace satdof

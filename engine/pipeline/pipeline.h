// engine/pipeline/pipeline.h — one configuration of the frame's image computation: a compute
// backend (filter + SAT, and the bokeh sprite list), a depth-of-field implementation, the
// bokeh pass that draws the sprites, the frame targets they hand each other, and the
// profiler that times them. The app owns configuration A's pipeline and, while a view
// compares, configuration B's: the same type. What is not a configuration's stays outside:
// the scene pass (drawn once, into A's targets; B copies A's scene), the view pass, the
// depth probe, the window, the panel and the tools (quality, precision, soak, ...), which
// drive pipelines through this interface.
//
//   scene colour + depth (A: the scene pass; B: copied from A's targets)
//     -> backend: filter, SAT (and the bokeh list)  -> DoF  -> bokeh sprites
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/dof/dof_implementation.h"
#include "engine/frame/frame_targets.h"
#include "engine/passes/bokeh_pass.h"
#include "engine/passes/backend_pass.h"
#include "engine/pipeline/pipeline_config.h"
#include "engine/profiling/profiler.h"

namespace satdof {

class Pipeline {
 public:
  // How the backend is attached to new targets: plainly (configuration B), or with the
  // fallback to the next backend when the driver refuses (configuration A, app.h).
  using AttachBackend = std::function<void(Pipeline&, const Targets&)>;

  // A pipeline on `backend`, running `dof` into targets in `format`. Allocates nothing:
  // reallocate() gives it targets. `dof` must be able to run on the backend.
  Pipeline(BackendChoice backend, const DofEntry& dof, SatFormat format, const std::filesystem::path& shaderDir);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // (Re)allocates the targets for `extent` and `format` and re-attaches every stage (the
  // backend first: it unregisters before the old targets are freed). Throws (one line,
  // before anything is freed) when this GL cannot serve the size in the format.
  void reallocate(Extent extent, SatFormat format, const AttachBackend& attach = {});
  // Another DoF implementation: the fields come and go with the one that needs them.
  void setDof(const DofEntry& entry);
  // Replaces a failed backend by `next` (the DoF moves to one that runs there); the caller
  // reallocates or attaches afterwards. Returns what the DoF became when it had to change.
  std::optional<std::string> replaceBackend(BackendChoice next);
  void reloadShaders();
  // With --isolate-stages the backend's work is finished before the DoF starts, so that
  // each stage's time is its own (configuration A's; B overlaps as it may).
  void setIsolateStages(bool isolate) { isolateStages_ = isolate; }
  bool isolateStages() const { return isolateStages_; }

  // One frame: with `sceneFrom`, that pipeline's scene colour and depth are copied in
  // first (GL copies; the scene is drawn once). Then the filter, the SAT (and the bokeh
  // list) on the backend, the DoF, the sprites. `behind`: the scene's second layer where
  // the DoF uses it ({}: none).
  void run(const Targets* sceneFrom, const FilterSettings& filter, const DofSettings& dof, const SecondLayerImages& behind,
           const BokehSettings& bokeh);
  // After the frame: the profiler's finished sections into history(); drain at the end.
  void endFrame() { profiler_->endFrame(history_); }
  void drain() { profiler_->drain(history_); }

  // This configuration, by name (the convolution as `filter` names it, else the backend's
  // first).
  PipelineConfig config(const std::string& filterImplementation = {}) const;

  const Targets& targets() const { return targets_.targets(); }
  // Where the SAT tables live (FrameTargets::setTableMemory), from the next reallocate on.
  void setTableMemory(TableMemory memory) { targets_.setTableMemory(std::move(memory)); }
  const TableMemory& tableMemory() const { return targets_.tableMemory(); }
  Extent extent() const { return targets().extent; }
  BackendPass& backendPass() { return *backendPass_; }
  const BackendPass& backendPass() const { return *backendPass_; }
  ComputeBackend& backend() { return backendPass_->backend(); }
  const ComputeBackend& backend() const { return backendPass_->backend(); }
  // The backend's choices, fixed for its lifetime: listed once, not every frame.
  const std::vector<BackendOption>& backendOptions() const { return backendOptions_; }
  const std::vector<FilterImplementation>& filterImplementations() const { return filterImplementations_; }
  const std::string& backendReason() const { return backendReason_; }
  const DofEntry& dofEntry() const { return *dofEntry_; }
  // Its DoF reads the scene's second layer (see-through).
  bool usesSecondLayer() const { return dofEntry_->fields >= DofFields::SeeThrough; }
  DofImplementation& dof() { return *dofImpl_; }
  BokehPass& bokeh() { return *bokehPass_; }
  const BokehPass& bokeh() const { return *bokehPass_; }
  Profiler& profiler() { return *profiler_; }
  ProfileHistory& history() { return history_; }
  const ProfileHistory& history() const { return history_; }
  // What the SAT was built from this frame (the filtered image or the scene colour).
  GLuint sourceImage() const { return backendPass_->filteredImage(targets()); }

 private:
  std::filesystem::path shaderDir_;
  SatFormat format_;
  FrameTargets targets_;  // first: freed last, after everything registered with it
  std::unique_ptr<BackendPass> backendPass_;
  std::vector<BackendOption> backendOptions_;
  std::vector<FilterImplementation> filterImplementations_;
  std::string backendReason_;
  const DofEntry* dofEntry_ = nullptr;
  std::unique_ptr<DofImplementation> dofImpl_;
  std::unique_ptr<BokehPass> bokehPass_;
  std::unique_ptr<Profiler> profiler_;
  ProfileHistory history_;
  bool isolateStages_ = false;
};

// Configuration B as its fields make it: the backend named, its options selected, the
// convolution and the DoF checked, for frames of `extent`, its tables where A's are. Throws BackendUnavailable when
// B's backend cannot run with this GL context, std::runtime_error (one line) when a field
// is not one B's backend offers or the DoF cannot run on it.
std::unique_ptr<Pipeline> buildPipeline(const PipelineConfig& config, const Context& context,
                                        const std::filesystem::path& shaderDir, Extent extent,
                                        const TableMemory& tables);

}  // namespace satdof

// app/compare_pipeline.h — configuration B of a comparison (compare_config.h), run beside
// the app's own pipeline in every split or difference frame. B owns everything it
// computes: its compute backend (a second instance of the registry's entry, so CPU beside
// CUDA or gl-compute, or two CUDA backends with their own interop sessions and streams),
// its DoF implementation, its bokeh pass and its targets. Per frame it copies A's scene
// colour and depth into its own targets (GL copies on the GPU; the scene is drawn once),
// then filters, builds the SAT and blurs as A does, into its own DoF output. So B costs a
// second filter, SAT and DoF, timed by a profiler and history of its own.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "compare_config.h"
#include "context/context.h"
#include "dof/dof_implementation.h"
#include "frame/frame_targets.h"
#include "passes/bokeh_pass.h"
#include "passes/compute_pass.h"
#include "profiling/profiler.h"

namespace satdof {

class ComparePipeline {
 public:
  // Builds B for frames of `extent`. Throws BackendUnavailable when B's backend cannot
  // run with this GL context, std::runtime_error (one line) when a field is not one B's
  // backend offers, its DoF implementation cannot run with it, or the SAT format cannot
  // be served at this size.
  ComparePipeline(const PipelineConfig& config, const Context& context, const std::filesystem::path& shaderDir,
                  Extent extent);
  ~ComparePipeline();
  ComparePipeline(const ComparePipeline&) = delete;
  ComparePipeline& operator=(const ComparePipeline&) = delete;

  // Reallocates B's targets (a resize of A's); throws like the constructor.
  void resize(Extent extent);
  void reloadShaders(const std::filesystem::path& shaderDir);
  // Scene from `a` (A's targets, this frame's scene drawn), then filter, SAT, DoF and the
  // bokeh highlights with A's settings and B's implementations.
  void run(const Targets& a, const FilterSettings& filter, DofSettings dof, const BokehSettings& bokeh);
  // After the frame: hands the profiler's finished sections to history().
  void endFrame() { profiler_->endFrame(history_); }
  void drain() { profiler_->drain(history_); }

  const PipelineConfig& config() const { return config_; }
  const Targets& targets() const { return targets_.targets(); }
  const ComputeBackend& backend() const { return computePass_->backend(); }
  const ProfileHistory& history() const { return history_; }
  const std::string& filterProblem() const { return computePass_->filterProblem(); }
  const std::string& backendReason() const { return backendReason_; }

 private:
  PipelineConfig config_;
  SatFormat format_;
  FrameTargets targets_;  // first: freed last, after everything registered with it
  std::unique_ptr<ComputePass> computePass_;
  const DofEntry* dofEntry_ = nullptr;
  std::unique_ptr<DofImplementation> dofImpl_;
  std::unique_ptr<BokehPass> bokehPass_;
  std::unique_ptr<Profiler> profiler_;
  ProfileHistory history_;
  std::string backendReason_;
};

}  // namespace satdof

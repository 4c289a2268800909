// app/compare_pipeline.cpp — see compare_pipeline.h.
#include "compare_pipeline.h"

#include <glad/gl.h>

#include <stdexcept>
#include <utility>

namespace satdof {

ComparePipeline::ComparePipeline(const PipelineConfig& config, const Context& context,
                                 const std::filesystem::path& shaderDir, Extent extent)
    : config_(config) {
  const SatFormatInfo* format = findSatFormat(config.satFormat);
  if (!format) throw std::runtime_error("no SAT format '" + config.satFormat + "'");
  format_ = format->id;
  dofEntry_ = findDofImplementation(config.dof);
  if (!dofEntry_) throw std::runtime_error("no depth-of-field implementation '" + config.dof + "'");
  FrameTargets::checkExtent(extent, format_);

  BackendChoice choice = chooseComputeBackend(config.backend, context, config.selections);
  backendReason_ = choice.reason;
  computePass_ = std::make_unique<ComputePass>(std::move(choice.backend));
  ComputeBackend& backend = computePass_->backend();
  for (const auto& [key, name] : config.selections)
    if (backend.selected(key) != name)
      if (auto why = backend.select(key, name)) throw std::runtime_error(*why);
  if (!config.conv.empty()) {
    bool offered = false;
    for (const FilterImplementation& f : backend.filterImplementations()) offered = offered || f.name == config.conv;
    if (!offered)
      throw std::runtime_error("no convolution implementation '" + config.conv + "' in the " + config.backend +
                               " backend");
  }
  if (auto why = dofEntry_->whyNot(backend)) throw std::runtime_error("dof " + config.dof + ": " + *why);
  dofImpl_ = dofEntry_->create(shaderDir, backend);
  bokehPass_ = std::make_unique<BokehPass>(shaderDir);
  profiler_ = std::make_unique<Profiler>();
  resize(extent);
}

ComparePipeline::~ComparePipeline() {
  if (!computePass_) return;
  glFinish();
  profiler_.reset();  // its pending marks may sit on the backend's clock
  bokehPass_.reset();
  dofImpl_.reset();   // may hand back what it asked of the backend
  computePass_.reset();  // unregisters the targets before they are freed
}

void ComparePipeline::resize(Extent extent) {
  FrameTargets::checkExtent(extent, format_);
  if (targets_.targets().extent.width > 0) glFinish();
  computePass_->backend().detach();
  targets_.allocate(extent, format_, dofEntry_->layers);
  const Targets& t = targets_.targets();
  computePass_->backend().attach(t);
  dofImpl_->attach(t);
  bokehPass_->attach(t);
}

void ComparePipeline::reloadShaders(const std::filesystem::path& shaderDir) {
  dofImpl_->reloadShaders(shaderDir);
  bokehPass_->reloadShaders(shaderDir);
}

void ComparePipeline::run(const Targets& a, const FilterSettings& filter, DofSettings dof,
                          const BokehSettings& bokeh) {
  const Targets& t = targets_.targets();
  {
    auto section = profiler_->section(profiler_->gl(), "copy scene");
    for (auto [from, to] : {std::pair{a.sceneColour, t.sceneColour}, std::pair{a.depth, t.depth}})
      glCopyImageSubData(from, GL_TEXTURE_2D, 0, 0, 0, 0, to, GL_TEXTURE_2D, 0, 0, 0, 0, t.extent.width,
                         t.extent.height, 1);
  }
  FilterSettings f = filter;
  f.implementation = config_.conv;
  f.compare = false;
  std::optional<BokehRequest> request;
  if (bokeh.enabled) request = bokehPass_->request(bokeh, reference::cocRamp(dof.params, t.extent.width));
  computePass_->run(f, request ? &*request : nullptr, *profiler_);
  dof.source = computePass_->filteredImage(t);
  dofImpl_->run(dof, *profiler_);
  if (request) bokehPass_->draw(bokeh, *profiler_);
}

}  // namespace satdof

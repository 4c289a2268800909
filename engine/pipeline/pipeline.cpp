// engine/pipeline/pipeline.cpp — see pipeline.h.
#include "engine/pipeline/pipeline.h"

#include <glad/gl.h>

#include <stdexcept>
#include <utility>

namespace satdof {

Pipeline::Pipeline(BackendChoice backend, const DofEntry& dof, SatFormat format,
                   const std::filesystem::path& shaderDir)
    : shaderDir_(shaderDir), format_(format), backendReason_(std::move(backend.reason)), dofEntry_(&dof) {
  backendPass_ = std::make_unique<BackendPass>(std::move(backend.backend));
  backendOptions_ = backendPass_->backend().options();
  filterImplementations_ = backendPass_->backend().filterImplementations();
  dofImpl_ = dof.create(shaderDir_, backendPass_->backend());
  bokehPass_ = std::make_unique<BokehPass>(shaderDir_);
  profiler_ = std::make_unique<Profiler>();
}

Pipeline::~Pipeline() {
  if (!backendPass_) return;
  if (targets().extent.width > 0) glFinish();
  profiler_.reset();     // its pending marks may sit on the backend's clock
  bokehPass_.reset();
  dofImpl_.reset();      // may hand back what it asked of the backend
  backendPass_.reset();  // unregisters the targets before they are freed
}

void Pipeline::reallocate(Extent extent, SatFormat format, const AttachBackend& attach) {
  if (extent.empty()) return;
  FrameTargets::checkExtent(extent, format);  // before anything is freed or allocated
  if (targets().extent.width > 0) glFinish();
  backendPass_->backend().detach();  // unregister before the targets are freed
  format_ = format;
  targets_.allocate(extent, format, dofEntry_->fields);
  const Targets& t = targets_.targets();
  if (attach) attach(*this, t);
  else backendPass_->backend().attach(t);
  dofImpl_->attach(t);
  bokehPass_->attach(t);
}

void Pipeline::setDof(const DofEntry& entry) {
  const bool layersChange = dofEntry_->fields != entry.fields;
  dofImpl_.reset();  // the old one first: it may hand back what it asked of the backend
  dofImpl_ = entry.create(shaderDir_, backendPass_->backend());
  dofEntry_ = &entry;
  if (targets().extent.empty()) return;
  if (layersChange)  // the fields come and go with the DoF that needs them
    reallocate(targets().extent, format_);
  else
    dofImpl_->attach(targets());
}

std::optional<std::string> Pipeline::replaceBackend(BackendChoice next) {
  glFinish();
  profiler_->forgetOtherClocks();  // the old backend's clock (CUDA events) goes with it
  try {
    backendPass_->backend().detach();
  } catch (const std::runtime_error&) {  // it has failed already; its resources go anyway
  }
  // The DoF implementation, bound to the old backend, goes before it (the bokeh pass is
  // bound to none: every backend builds its sprite list).
  dofImpl_.reset();
  backendPass_ = std::make_unique<BackendPass>(std::move(next.backend));
  ComputeBackend& backend = backendPass_->backend();
  backendReason_ = std::move(next.reason);
  // The DoF stays where it can; else the first that runs here and needs the same targets
  // (the fields come with the targets, which stay).
  std::optional<std::string> moved;
  const DofEntry* dof = dofEntry_;
  if (auto why = dof->whyNot(backend)) {
    for (const DofEntry& e : dofImplementations())
      if (e.fields == dofEntry_->fields && !e.whyNot(backend)) {
        dof = &e;
        break;
      }
    moved = "depth of field " + std::string(dofEntry_->name) + ": " + *why + "; now " + std::string(dof->name);
  }
  dofImpl_ = dof->create(shaderDir_, backend);
  dofEntry_ = dof;
  backendOptions_ = backend.options();
  filterImplementations_ = backend.filterImplementations();
  return moved;
}

void Pipeline::reloadShaders() {
  dofImpl_->reloadShaders(shaderDir_);
  bokehPass_->reloadShaders(shaderDir_);
}

void Pipeline::run(const Targets* sceneFrom, const FilterSettings& filter, const DofSettings& dof,
                   const SecondLayerImages& behind, const BokehSettings& bokeh) {
  const Targets& t = targets();
  if (sceneFrom) {
    auto section = profiler_->section(profiler_->gl(), "copy scene");
    for (auto [from, to] : {std::pair{sceneFrom->sceneColour, t.sceneColour}, std::pair{sceneFrom->depth, t.depth}})
      glCopyImageSubData(from, GL_TEXTURE_2D, 0, 0, 0, 0, to, GL_TEXTURE_2D, 0, 0, 0, 0, t.extent.width,
                         t.extent.height, 1);
  }
  // The bokeh sprite list is built by the backend with the SAT (on the cuda backend in
  // the same mapping) and drawn over the DoF output.
  std::optional<BokehRequest> request;
  if (bokeh.enabled) request = bokehPass_->request(bokeh, reference::cocRamp(dof.params, t.extent.width));
  if (!filter.enabled) {  // the DoF blurs the scene colour: its scene-only work goes first
    dofImpl_->beforeBackend(dof, {t.sceneColour, behind}, *profiler_);
    if (isolateStages_) glFinish();
  }
  backendPass_->run(filter, request ? &*request : nullptr, *profiler_);
  if (isolateStages_) glFinish();
  dofImpl_->run(dof, {backendPass_->filteredImage(t), behind}, *profiler_);
  if (request) bokehPass_->draw(bokeh, *profiler_);
}

PipelineConfig Pipeline::config(const std::string& filterImplementation) const {
  PipelineConfig c;
  c.backend = std::string(backend().name());
  for (const BackendOption& o : backendOptions_) c.selections[o.key] = backend().selected(o.key);
  c.satFormat = std::string(satFormatInfo(format_).name);
  c.conv = filterImplementation.empty() && !filterImplementations_.empty() ? filterImplementations_.front().name
                                                                           : filterImplementation;
  c.dof = std::string(dofEntry_->name);
  return c;
}

std::unique_ptr<Pipeline> buildPipeline(const PipelineConfig& config, const Context& context,
                                        const std::filesystem::path& shaderDir, Extent extent,
                                        const TableMemory& tables) {
  const SatFormatInfo* format = findSatFormat(config.satFormat);
  if (!format) throw std::runtime_error("no SAT format '" + config.satFormat + "'");
  const DofEntry* dof = findDofImplementation(config.dof);
  if (!dof) throw std::runtime_error("no depth-of-field implementation '" + config.dof + "'");
  FrameTargets::checkExtent(extent, format->id);

  BackendChoice choice = chooseComputeBackend(config.backend, context, config.selections);
  ComputeBackend& backend = *choice.backend;
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
  if (auto why = dof->whyNot(backend)) throw std::runtime_error("dof " + config.dof + ": " + *why);
  auto pipeline = std::make_unique<Pipeline>(std::move(choice), *dof, format->id, shaderDir);
  pipeline->setTableMemory(tables);
  pipeline->reallocate(extent, format->id);
  return pipeline;
}

}  // namespace satdof

// engine/renderer/renderer.cpp — see renderer.h: the content shown, the frame, and the
// end-of-run summary. The backend fallback is in renderer_fallback.cpp.
#include "engine/renderer/renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "engine/gl/program.h"
#include "engine/image/image_io.h"
#include "satdof/reference/layered_dof.h"

namespace satdof {

Renderer::Renderer(Context& context, BackendChoice backend, const RendererSetup& setup, content::Content content,
                   const FrameSettings& settings)
    : context_(context),
      shaderDir_(gl::findShaderDir()),
      fallback_(context, setup.selections),
      compareChosen_(setup.compareChosen),
      blurScale_(setup.blurScale),
      startFormat_(setup.format),
      settings_(settings),
      shown_(shaderDir_, std::move(content), setup.msaa, setup.stage) {
  sayFocus();
  pipeline_ = std::make_unique<Pipeline>(std::move(backend), *setup.dof, setup.format, shaderDir_);
  pipeline_->setIsolateStages(setup.isolateStages);
  if (auto why = pipeline_->backendPass().check(settings_.filter)) throw std::invalid_argument(*why);
  viewPass_ = std::make_unique<ViewPass>(shaderDir_);
  depthProbe_ = std::make_unique<DepthProbe>();
}

Renderer::~Renderer() {
  // GL and CUDA objects go before the context: B, then A.
  comparison_.reset();
  pipeline_.reset();
}

void Renderer::start(Extent extent, const std::string& satMemory, bool verbose) {
  try {
    pipeline_->setTableMemory(chooseTableMemory(satMemory));
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(e.what());
  }
  // Said where it matters (CUDA writes the tables) or where asked.
  if (verbose || pipeline_->backend().name() == "cuda")
    std::printf("satdof: SAT tables in %s\n", pipeline_->tableMemory().description.c_str());
  reallocate(extent, startFormat_);
  if (comparesConfigurations(settings_.view.mode) && compareChosen_) {  // B as named must run, as A must
    comparison_.apertureA = settings_.dof.params.aperture;
    comparison_.buildAsNamed(*pipeline_, settings_.filter, context_, shaderDir_);
  }
}

// ---- The content shown ------------------------------------------------------------------

void Renderer::setContent(content::Content c) {
  const std::vector<std::string> warnings = c.warnings;
  settings_.dof.params.focalDistance = c.focalDistance;
  settings_.dof.params.focalRange = c.focalRange;  // dropped content: its own
  shown_.setContent(std::move(c), pipeline_->targets());
  sayFocus();
  for (const std::string& w : warnings) std::fprintf(stderr, "satdof: warning: %s\n", w.c_str());
}

void Renderer::sayFocus() const {
  const reference::DofParams& p = settings_.dof.params;
  std::printf("satdof: focus at %g, focal range %g\n", double(p.focalDistance), double(p.focalRange));
}

bool Renderer::secondLayerWanted() const {
  const Pipeline* b = comparison_.pipeline();
  return pipeline_->usesSecondLayer() || (b && b->usesSecondLayer());
}

std::string Renderer::oneLayerNote() const {
  if (!shown_.isPhoto() || !secondLayerWanted()) return {};
  const bool linear = pipeline_->dofEntry().fields == DofFields::SeeThroughLinear;
  return std::string("see-through: a photo is one layer, nothing is drawn behind it: it runs as the layered DoF") +
         (linear ? " in linear light" : "");
}

// ---- Configuration A --------------------------------------------------------------------

void Renderer::setDof(const DofEntry& entry) {
  const bool layersChange = pipeline_->dofEntry().fields != entry.fields;
  pipeline_->setDof(entry);
  if (layersChange && !extent().empty()) {  // new targets: the passes outside the pipeline follow
    shown_.attach(pipeline_->targets());
    viewPass_->attach(pipeline_->targets());
  }
}

void Renderer::resize(Extent extent) {
  if (extent.empty() || extent == this->extent()) return;
  reallocate(extent, pipeline_->targets().satFormat);
}

void Renderer::reallocate(Extent extent, SatFormat format) {
  if (extent.empty()) return;
  pipeline_->reallocate(extent, format, [this](Pipeline& p, const Targets& t) { fallback_.attach(p, t); });
  shown_.attach(pipeline_->targets());
  viewPass_->attach(pipeline_->targets());
}

void Renderer::applyChoices(const std::string& dof, const BackendSelections& selections) {
  if (dof != pipeline_->dofEntry().name) {
    if (const DofEntry* e = findDofImplementation(dof); e && !e->whyNot(pipeline_->backend())) {
      glFinish();
      setDof(*e);
    }
  }
  for (const auto& [key, name] : selections)
    if (name != pipeline_->backend().selected(key)) {
      if (auto why = pipeline_->backend().select(key, name)) std::fprintf(stderr, "satdof: %s\n", why->c_str());
    }
}

std::optional<std::string> Renderer::reloadShaders() {
  try {
    shown_.reloadShaders();
    pipeline_->reloadShaders();
    if (Pipeline* b = comparison_.pipeline()) b->reloadShaders();
    viewPass_->reloadShaders(shaderDir_);
    shaderError_.clear();
    std::printf("satdof: shaders reloaded from %s\n", shaderDir_.c_str());
    return std::nullopt;
  } catch (const std::exception& e) {
    shaderError_ = e.what();
    std::fprintf(stderr, "satdof: %s\n", shaderError_.c_str());
    return shaderError_;
  }
}

bool Renderer::setSatFormat(const std::string& name) {
  const SatFormatInfo* f = findSatFormat(name);
  const SatFormat previous = pipeline_->targets().satFormat;
  if (!f || f->id == previous) return false;
  try {
    reallocate(extent(), f->id);
    maxBlurNote_.clear();
    return true;
  } catch (const std::exception& e) {  // e.g. too large for GL, or a SAT algorithm that lacks it
    std::fprintf(stderr, "satdof: --sat-format %s: %s\n", f->name.data(), e.what());
    shaderError_ = std::string("SAT format ") + std::string(f->name) + ": " + e.what();
    reallocate(extent(), previous);
    return false;
  }
}

void Renderer::limitMaxBlurToSatFormat() {
  const SatFormatInfo& format = satFormatInfo(pipeline_->targets().satFormat);
  const auto why = whyNotMaxBlur(format, settings_.dof.params.maxRadius);
  if (!why) return;
  maxBlurNote_ = "max blur lowered to " + std::to_string(format.maxBoxRadius) + " px: " + *why;
  std::printf("satdof: %s\n", maxBlurNote_.c_str());
  settings_.dof.params.maxRadius = float(format.maxBoxRadius);
}

// ---- The frame --------------------------------------------------------------------------

Renderer::BlurSettings Renderer::frameBlur() const {
  BlurSettings s{settings_.dof, settings_.bokeh};
  const float k = blurScale_;
  if (k == 1.0f) return s;
  s.dof.params.maxRadius *= k;
  s.bokeh.select.minRadius = std::max(1, int(std::lround(float(s.bokeh.select.minRadius) * k)));
  return s;
}

void Renderer::renderFrame(const std::vector<Pixel>& probes) {
  try {
    renderOnce(probes);
  } catch (const std::runtime_error& e) {  // a backend that broke mid-run: the next one
    if (!fallback_.switchToNext(*pipeline_, e.what())) throw;
    reallocate(extent(), pipeline_->targets().satFormat);
    renderOnce(probes);
  }
}

void Renderer::renderOnce(const std::vector<Pixel>& probes) {
  Pipeline& a = *pipeline_;
  shown_.run(a.profiler());
  limitMaxBlurToSatFormat();
  const BlurSettings frame = frameBlur();
  const SecondLayerImages behindA = secondLayerFor(a, frame.dof);
  // With --isolate-stages nothing overlaps: the map does not wait for the scene, and so
  // the map/unmap time is the interop cost alone. Normal frames let the stages overlap.
  if (a.isolateStages()) glFinish();
  a.run(nullptr, settings_.filter, frame.dof, behindA, frame.bokeh);

  // Configuration B, for the views that compare: its own filter, SAT and DoF of this
  // frame's scene. Where it cannot run, A stands on both sides and the panel says why.
  const Targets& t = a.targets();
  const ViewSettings& view = settings_.view;
  comparison_.apertureA = frame.dof.params.aperture;
  if (comparesConfigurations(view.mode) && !compareDefaultDone_) {
    // The first comparing frame of the run: without a B of the user's (none on the command
    // line, the settings file, a script or the panel), B = the other DoF family, said once.
    compareDefaultDone_ = true;
    if (!compareChosen_)
      if (auto b = comparison_.chooseDefaultB(a.config(settings_.filter.implementation)))
        std::printf("satdof: compare: no B was set: B = A with %s; --compare-b or the panel's Compare section sets "
                    "another\n",
                    b->c_str());
  }
  comparison_.update(comparesConfigurations(view.mode), a, settings_.filter.implementation,
                     frame.dof.params.maxRadius, context_, shaderDir_, settings_.filter.enabled);
  Pipeline* b = comparison_.pipeline();
  if (b) {
    FilterSettings filterB = settings_.filter;
    filterB.implementation = comparison_.configB(a.config(settings_.filter.implementation)).conv;
    filterB.compare = false;
    DofSettings dofB = frame.dof;
    dofB.params.aperture = comparison_.apertureB();
    b->run(&t, filterB, dofB, secondLayerFor(*b, dofB), frame.bokeh);
  }
  if (!secondLayerWanted()) shown_.scenePass().releaseSecondLayer();  // 8 B a pixel, kept only while used
  if (comparesConfigurations(view.mode))
    viewPass_->run(view, {t.dofOutput, b ? b->targets().dofOutput : t.dofOutput, settings_.dof.params.focalDistance});
  else if (view.mode != ViewMode::Final)
    viewPass_->run(view, {a.sourceImage(), 0, settings_.dof.params.focalDistance,
                          shown_.holesImage()});
  // The depths the focus and the panel need, collected a frame later.
  depthProbe_->request(t.depth, t.extent, probes);
}

SecondLayerImages Renderer::secondLayerFor(Pipeline& p, const DofSettings& dof) {
  if (shown_.isPhoto() || !p.usesSecondLayer()) return {};  // a photo has one layer
  ScenePass& scene = shown_.scenePass();
  if (!scene.secondLayer().colour)  // once a frame
    scene.drawSecondLayer(shown_.scene().scene,
                          reference::secondLayerFrom(reference::cocRamp(dof.params, extent().width)), p.profiler());
  return {scene.secondLayer().colour, scene.secondLayer().depth, ScenePass::kSkyDepth};
}

void Renderer::endFrame() {
  pipeline_->endFrame();
  if (Pipeline* b = comparison_.pipeline()) b->endFrame();
}

void Renderer::addFrameTime(float ms) { pipeline_->history().add(std::string(kFrameSection), ms); }

void Renderer::drainProfilers() {
  pipeline_->drain();
  if (Pipeline* b = comparison_.pipeline()) b->drain();
  viewPass_->drain();
}

GLuint Renderer::shownFramebuffer() const {
  return settings_.view.mode == ViewMode::Final ? pipeline_->targets().dofFramebuffer : viewPass_->framebuffer();
}

reference::ImageRgba8 Renderer::readShown() {
  const Extent e = extent();
  return readFramebuffer(shownFramebuffer(), e.width, e.height);
}

std::pair<reference::ImageRgba8, reference::ImageR32F> Renderer::readBackColourAndDepth() {
  glFinish();
  const Extent e = extent();
  auto colour = readTexture(pipeline_->sourceImage(), e.width, e.height);
  return {std::move(colour), readDepthTexture(pipeline_->targets().depth, e.width, e.height)};
}

}  // namespace satdof

// app/panel_link.cpp — see panel_link.h.
#include "app/panel_link.h"

#include <cstdio>

#include "app/ui/ui.h"

namespace satdof {

PanelLink::PanelLink(Ui& ui, Renderer& renderer, Controller& controller, Options& options, const Context& context)
    : ui_(ui), renderer_(renderer), controller_(controller), options_(options), context_(context) {}

PanelLink::Asked PanelLink::drawAndApply(const std::string& scanNote, const std::string& scanTimesStatus,
                                         const Race* race) {
  const Pipeline& a = renderer_.pipeline();
  const Extent extent = renderer_.extent();
  const Pipeline* b = renderer_.comparison().pipeline();
  UiState state;
  state.dof = &renderer_.settings().dof;
  state.backendReason = a.backendReason();
  state.glRenderer = context_.renderer;
  state.tableMemory = a.tableMemory().description;
  state.backend = &a.backend();
  state.backendOptions = a.backendOptions();
  for (const BackendOption& o : a.backendOptions()) state.selections[o.key] = a.backend().selected(o.key);
  state.dofImplementation = std::string(a.dofEntry().name);
  state.filter = &renderer_.settings().filter;
  state.view = &renderer_.settings().view;
  state.filterImplementations = a.filterImplementations();
  state.filterProblem = a.backendPass().filterProblem();
  state.maxDifference = renderer_.viewPass().maxDifference();
  state.gainUsed = renderer_.viewPass().gainUsed();
  state.depthRange = renderer_.viewPass().depthRange();
  state.history = &a.history();
  state.shaderDir = renderer_.shaderDir().string();
  state.shaderError = renderer_.shaderError();
  state.satBytesPerPixel = satFormatInfo(a.targets().satFormat).bytesPerPixel;
  state.width = extent.width;
  state.height = extent.height;
  state.autofocus = controller_.focus().autofocus();
  state.hoverDepth = controller_.hoverDepth();
  state.focusAnimating = controller_.focus().animating();
  state.depthSpan = controller_.focus().reach();
  state.animate = options_.animate;
  state.msaa = options_.msaa;
  state.stage = options_.stage;
  state.stageNote = renderer_.shown().stageNote();
  state.stageSwitchable = renderer_.shown().stageSwitchable();
  state.renderScale = options_.renderScale;
  state.renderScaleNote = renderScaleNote;
  state.verifyLines = controller_.verdict().lines;
  state.verifyStale = controller_.verdict().stale;
  const float focalBefore = renderer_.settings().dof.params.focalDistance;
  state.satFormat = std::string(satFormatInfo(a.targets().satFormat).name);
  state.maxBlurNote = renderer_.maxBlurNote();
  state.precisionLine = controller_.precision().line();
  state.precisionHeatmap = controller_.precision().heatmap();
  state.bokeh = &renderer_.settings().bokeh;
  state.bokehMethod = std::string(a.backend().bokehMethod());
  state.bokehCounts = a.bokeh().counts();
  state.compareA = a.config(renderer_.settings().filter.implementation);
  state.compareB = renderer_.comparison().configB(state.compareA);
  state.compareFields = &renderer_.comparison().fields;
  state.compareFilterProblem = b && renderer_.settings().filter.enabled ? b->backendPass().filterProblem() : std::string();
  const CompareCaption caption =
      renderer_.comparison().caption(state.compareA, renderer_.settings().filter.enabled, state.compareFilterProblem);
  state.compareLabelA = caption.labelA;
  state.compareLabelB = caption.labelB;
  state.compareNotes = caption.notes;
  state.compareBackend = b ? &b->backend() : nullptr;
  state.compareHistory = b ? &b->history() : nullptr;
  state.compareProblem = renderer_.comparison().problem();
  state.scanNote = scanNote;
  state.race = race;
  state.scanTimesStatus = scanTimesStatus;
  state.contentSummary = renderer_.shown().summary();
  state.contentProblem = controller_.contentProblem();
  state.photo = renderer_.showsPhoto();
  state.oneLayerNote = renderer_.oneLayerNote();
  ui_.beginFrame();
  ui_.draw(state);
  ui_.endFrame();
  // A control cut at the panel's edge is a layout bug: said once per change.
  const widgets::LayoutCheck& layout = ui_.layout();
  if (layout.cut != layoutCutSaid_) {
    if (layout.cut > 0)
      std::printf("satdof: panel: %d control(s) cut at the right edge, first '%s'\n", layout.cut, layout.first.c_str());
    layoutCutSaid_ = layout.cut;
  }
  if (renderer_.settings().dof.params.focalDistance != focalBefore) controller_.focus().cancel();  // moved by hand
  controller_.applyFocusAndScene(state.autofocus, state.animate, state.msaa);
  controller_.setStage(state.stage);
  if (state.renderScale != options_.renderScale) {  // the next frame is rendered at the new size
    options_.renderScale = state.renderScale;
    renderer_.setBlurScale(state.renderScale);
    renderScaleNote.clear();
  }
  if (state.reloadShaders) controller_.reloadShaders();
  if (state.reset) controller_.reset();
  if (state.verify) controller_.requestVerify();
  if (state.preset)
    if (auto why = controller_.applyPreset(*state.preset)) controller_.contentProblem() = *why;
  controller_.precision().update(state.measurePrecision, renderer_.pipeline().targets().satFormat, renderer_.extent(),
                                 renderer_.frameBlur().dof.params, [this] { return renderer_.readBackColourAndDepth(); });
  controller_.setSatFormat(state.satFormat);
  renderer_.limitMaxBlurToSatFormat();
  renderer_.applyChoices(state.dofImplementation, state.selections);  // from the next frame
  return {state.raceStart, state.raceAdopt, state.timeScans};
}

}  // namespace satdof

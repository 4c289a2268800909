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
  Options settings = controller_.currentOptions();  // what the panels edit
  UiState state;
  state.settings = &settings;
  state.backendReason = a.backendReason();
  state.glRenderer = context_.renderer;
  state.tableMemory = a.tableMemory().description;
  state.backend = &a.backend();
  state.backendOptions = a.backendOptions();
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
  state.hoverDepth = controller_.hoverDepth();
  state.focusAnimating = controller_.focus().animating();
  state.depthSpan = controller_.focus().reach();
  state.stageNote = renderer_.shown().stageNote();
  state.stageSwitchable = renderer_.shown().stageSwitchable();
  state.renderScaleNote = renderScaleNote;
  state.verifyLines = controller_.verdict().lines;
  state.verifyStale = controller_.verdict().stale;
  state.maxBlurNote = renderer_.maxBlurNote();
  state.precisionLine = controller_.precision().line();
  state.precisionHeatmap = controller_.precision().heatmap();
  state.bokehMethod = std::string(a.backend().bokehMethod());
  state.bokehCounts = a.bokeh().counts();
  state.compareA = a.config(renderer_.settings().filter.implementation);
  state.compareB = renderer_.comparison().configB(state.compareA);
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
  BackendSelections choices;  // the running backend's (the options may hold another's too)
  for (const BackendOption& o : a.backendOptions()) choices[o.key] = settings.selections[o.key];
  // A control cut at the panel's edge is a layout bug: said once per change.
  const widgets::LayoutCheck& layout = ui_.layout();
  if (layout.cut != layoutCutSaid_) {
    if (layout.cut > 0)
      std::printf("satdof: panel: %d control(s) cut at the right edge, first '%s'\n", layout.cut, layout.first.c_str());
    layoutCutSaid_ = layout.cut;
  }
  controller_.applyFrame(settings, settings.dof.params);  // as the panels left it
  if (settings.renderScale != options_.renderScale) {  // the next frame is rendered at the new size
    options_.renderScale = settings.renderScale;
    renderer_.setBlurScale(settings.renderScale);
    renderScaleNote.clear();
  }
  if (state.reloadShaders) controller_.reloadShaders();
  if (state.reset) controller_.reset();
  if (state.verify) controller_.requestVerify();
  if (state.preset)
    if (auto why = controller_.applyPreset(*state.preset)) controller_.contentProblem() = *why;
  controller_.precision().update(state.measurePrecision, renderer_.pipeline().targets().satFormat, renderer_.extent(),
                                 renderer_.frameBlur().dof.params, [this] { return renderer_.readBackColourAndDepth(); });
  controller_.setSatFormat(settings.satFormat);
  renderer_.limitMaxBlurToSatFormat();
  renderer_.applyChoices(settings.dofName, choices);  // from the next frame
  return {state.raceStart, state.raceAdopt, state.timeScans};
}

}  // namespace satdof

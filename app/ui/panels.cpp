// app/ui/panels.cpp — the pipeline section (backend and the options it offers, from its
// registries, each entry's description as its tooltip: the scan variant directly under
// the SAT algorithm it feeds, greyed with the reason where the backend has none; what the
// last scan key did), the scan key's note on the image, and the scene section (what is
// shown, the stage, presets, animation, anti-aliasing).
#include <imgui.h>

#include <string>
#include <vector>

#include "settings/live_options.h"
#include "engine/scene/presets.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

// A backend option's combo, each entry's description its tooltip. The scan variants: those
// this backend runs here numbered as keys 1-9 pick them, then those it cannot, greyed out
// with the reason.
void backendOption(UiState& s, const BackendOption& o) {
  std::string& current = s.settings->selections[o.key];
  widgets::label(o.label.c_str(), ("--" + o.key + ": " + o.label).c_str());
  if (ImGui::BeginCombo(("##" + o.key).c_str(), current.c_str())) {
    std::vector<const Choice*> runs = s.backend ? runnableChoices(*s.backend, o) : std::vector<const Choice*>{};
    int index = 0;
    for (const Choice* c : runs) {
      const bool selected = c->name == current;
      const std::string text = o.numberKeys && index < 9 ? std::to_string(index + 1) + "  " + c->name : c->name;
      if (ImGui::Selectable(text.c_str(), selected)) current = c->name;
      widgets::tooltip(c->description.c_str());
      if (selected) ImGui::SetItemDefaultFocus();
      ++index;
    }
    for (const Choice& c : o.choices) {
      const auto why = s.backend ? s.backend->whyNotHere(o.key, c.name) : std::nullopt;
      if (!why) continue;
      ImGui::BeginDisabled();
      ImGui::Selectable((o.numberKeys ? "   " + c.name : c.name).c_str(), false);
      ImGui::EndDisabled();
      widgets::tooltip(("cannot run here: " + *why).c_str());
    }
    ImGui::EndCombo();
  }
  for (const Choice& c : o.choices)
    if (c.name == current) widgets::tooltip(c.description.c_str());
}

// Where the backend has no scan variants (the cpu backend): one plain line saying what its
// SAT is instead, from its SAT algorithm's own description.
void noScanVariants(const UiState& s, const BackendOption& sat) {
  const std::string backend = s.backend ? std::string(s.backend->name()) : std::string("this");
  const auto current = s.settings->selections.find(sat.key);
  const std::string& name = current != s.settings->selections.end() ? current->second : sat.defaultChoice;
  std::string what = name;
  for (const Choice& c : sat.choices)
    if (c.name == name) what = c.description;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("No scan variants on the %s backend: its SAT is %s.", backend.c_str(), what.c_str());
  ImGui::PopTextWrapPos();
  widgets::tooltip("This backend builds the table on the host with the reference library: there is no GPU scan "
                   "to choose");
}

}  // namespace

void pipeline(UiState& s) {
  if (!widgets::header("Pipeline", "Pipeline", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushTextWrapPos(0.0f);
  // The backend and the first reason (why the faster one cannot run) in one line; all of
  // them, as on stdout, in its tooltip.
  ImGui::TextUnformatted(s.backendReason.substr(0, s.backendReason.find("; ")).c_str());
  if (s.backendReason.find("; ") != std::string::npos) widgets::tooltip(s.backendReason.c_str());
  ImGui::TextDisabled("GL: %s, %dx%d", s.glRenderer.c_str(), s.width, s.height);
  ImGui::TextDisabled("SAT tables: %s", s.tableMemory.c_str());
  widgets::tooltip("CUDA writes large tables faster into its own memory (2 MiB pages) than into GL's buffers; "
                   "--sat-memory gl keeps GL's, to compare");
  ImGui::TextDisabled("F1: keys and mouse, H: hide this panel");
  ImGui::PopTextWrapPos();
  if (widgets::smallButton("reload shaders (F5)", "F5")) s.reloadShaders = true;
  widgets::tooltip(("Recompile the shaders from " + s.shaderDir).c_str());
  const ImGuiStyle& style = ImGui::GetStyle();
  if (ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x >
      ImGui::CalcTextSize("reset (R)").x + 2 * style.FramePadding.x + style.ItemSpacing.x)
    ImGui::SameLine();  // else on a line of its own, never cut
  if (widgets::smallButton("reset (R)", "R")) s.reset = true;
  widgets::tooltip("Camera and settings back to how the run started");
  if (widgets::smallButton("verify (V)", "V")) s.verify = true;
  widgets::tooltip("Check this frame's SAT, filter and DoF outputs against the CPU reference");
  ImGui::PushTextWrapPos(0.0f);
  if (!s.verifyStale.empty() && !s.verifyLines.empty())
    ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "stale (%s); V verifies again", s.verifyStale.c_str());
  for (const VerifyLine& l : s.verifyLines)
    if (!s.verifyStale.empty()) ImGui::TextDisabled("%s", l.text.c_str());
    else ImGui::TextColored(l.ok ? ImVec4(0.4f, 0.9f, 0.4f, 1) : ImVec4(1, 0.4f, 0.3f, 1), "%s", l.text.c_str());
  ImGui::PopTextWrapPos();
  if (!s.shaderError.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", s.shaderError.c_str());
  // One combo per option the backend offers; each entry's description is its tooltip.
  // The scan variant (the option keys 1-9 pick) sits directly under the first option, the
  // SAT algorithm it feeds; where the backend has none, a greyed combo says why.
  std::vector<const BackendOption*> order;
  const BackendOption* scan = nullptr;
  for (const BackendOption& o : s.backendOptions)
    if (o.numberKeys) scan = &o;
    else order.push_back(&o);
  if (scan) order.insert(order.begin() + (order.empty() ? 0 : 1), scan);
  for (std::size_t i = 0; i < order.size(); ++i) {
    backendOption(s, *order[i]);
    if (i == 0 && !scan) noScanVariants(s, *order[i]);
  }
  if (!s.scanNote.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1, 0.85f, 0.4f, 1), "%s", s.scanNote.c_str());
    ImGui::PopTextWrapPos();
  }
  satTimes(s);
}

void scanNote(const UiState& s) {
  if (s.scanNote.empty()) return;
  const ImVec2 at(12.0f, 12.0f);
  const ImVec2 size = ImGui::CalcTextSize(s.scanNote.c_str());
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(ImVec2(at.x - 6, at.y - 4), ImVec2(at.x + size.x + 6, at.y + size.y + 4), IM_COL32(0, 0, 0, 180),
                      4.0f);
  draw->AddText(at, IM_COL32(255, 220, 110, 255), s.scanNote.c_str());
}

namespace {

void sceneControls(UiState& s) {
  widgets::label("preset", "A camera pose and focus that make a classic picture (P cycles them)");
  if (ImGui::BeginCombo("##preset", "choose...")) {
    for (const scene::Preset& p : scene::presets()) {
      if (ImGui::Selectable(std::string(p.name).c_str())) s.preset = std::string(p.name);
      widgets::tooltip(std::string(p.description).c_str());
    }
    ImGui::EndCombo();
  }
  widgets::checkbox("turn the teapots", &s.settings->animate);
  widgets::tooltip("Animation: each teapot turns about its own axis");
  widgets::label("anti-aliasing", "Scene samples per pixel, resolved before the SAT (1: none)");
  int samples = s.settings->msaa;
  if (ImGui::BeginCombo("##msaa", (std::to_string(samples) + "x").c_str())) {
    for (int n : {1, 2, 4, 8})
      if (ImGui::Selectable((std::to_string(n) + "x").c_str(), n == samples)) s.settings->msaa = n;
    ImGui::EndCombo();
  }
  widgets::tooltip("Scene samples per pixel, resolved before the SAT (1: none)");
}

// The stage under a lone glTF model (opt::stage): greyed for content that has its own
// surroundings; the line under it says what is shown and why.
void stageControl(UiState& s) {
  const std::string help(opt::stage.help);
  ImGui::BeginDisabled(!s.stageSwitchable);
  widgets::label("stage", help.c_str());
  if (ImGui::BeginCombo("##stage", std::string(content::toString(s.settings->stage)).c_str())) {
    for (const char* name : content::kStageModeNames) {
      const content::StageMode mode = *content::stageModeFromName(name);
      if (ImGui::Selectable(name, mode == s.settings->stage)) s.settings->stage = mode;
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  widgets::tooltip(help.c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("stage: %s", s.stageNote.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

void scene(UiState& s) {
  if (!widgets::header("Scene", "Scene")) return;
  constexpr const char* kContentTip = "What is shown: drop a glTF file, or a photo with its depth map beside it, on "
                                      "the window to show another";
  for (const std::string& line : s.contentSummary) widgets::label(line.c_str(), kContentTip);
  if (!s.contentProblem.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", s.contentProblem.c_str());
    ImGui::PopStyleColor();
  }
  stageControl(s);
  if (!s.photo) sceneControls(s);  // presets, the animation and MSAA are for drawn scenes
  widgets::optionSlider(opt::renderScale, &s.settings->renderScale);
  if (!s.renderScaleNote.empty()) ImGui::TextDisabled("%s", s.renderScaleNote.c_str());
}

}  // namespace satdof::panels

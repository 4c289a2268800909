// app/ui/panels.cpp — the pipeline section (backend and the options it offers, from its
// registries, each entry's description as its tooltip) and the scene section (presets,
// animation, anti-aliasing).
#include <imgui.h>

#include <string>

#include "scene/presets.h"
#include "ui/ui.h"
#include "ui/widgets.h"

namespace satdof::panels {

void pipeline(UiState& s) {
  if (!widgets::header("Pipeline", "Pipeline", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushTextWrapPos(0.0f);
  // The backend and the first reason (why the faster one cannot run) in one line; all of
  // them, as on stdout, in its tooltip.
  ImGui::TextUnformatted(s.backendReason.substr(0, s.backendReason.find("; ")).c_str());
  if (s.backendReason.find("; ") != std::string::npos) widgets::tooltip(s.backendReason.c_str());
  ImGui::TextDisabled("GL: %s, %dx%d", s.glRenderer.c_str(), s.width, s.height);
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
  for (const VerifyLine& l : s.verifyLines)
    ImGui::TextColored(l.ok ? ImVec4(0.4f, 0.9f, 0.4f, 1) : ImVec4(1, 0.4f, 0.3f, 1), "%s", l.text.c_str());
  ImGui::PopTextWrapPos();
  if (!s.shaderError.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", s.shaderError.c_str());
  // One combo per option the backend offers; each entry's description is its tooltip.
  for (const BackendOption& o : s.backendOptions) {
    std::string& current = s.selections[o.key];
    widgets::label(o.label.c_str(), ("--" + o.key + ": " + o.label).c_str());
    if (ImGui::BeginCombo(("##" + o.key).c_str(), current.c_str())) {
      int index = 0;
      for (const Choice& c : o.choices) {
        const bool selected = c.name == current;
        const std::string text = o.key == "scan" && index < 9 ? std::to_string(index + 1) + "  " + c.name : c.name;
        if (ImGui::Selectable(text.c_str(), selected)) current = c.name;
        widgets::tooltip(c.description.c_str());
        if (selected) ImGui::SetItemDefaultFocus();
        ++index;
      }
      ImGui::EndCombo();
    }
    for (const Choice& c : o.choices)
      if (c.name == current) widgets::tooltip(c.description.c_str());
  }
}

void scene(UiState& s) {
  if (!widgets::header("Scene", "Scene")) return;
  widgets::label("preset", "A camera pose and focus that make a classic picture (P cycles them)");
  if (ImGui::BeginCombo("##preset", "choose...")) {
    for (const scene::Preset& p : scene::presets()) {
      if (ImGui::Selectable(std::string(p.name).c_str())) s.preset = std::string(p.name);
      widgets::tooltip(std::string(p.description).c_str());
    }
    ImGui::EndCombo();
  }
  widgets::checkbox("turn the teapots", &s.animate);
  widgets::tooltip("Animation: each teapot turns about its own axis");
  widgets::label("anti-aliasing", "Scene samples per pixel, resolved before the SAT (1: none)");
  int samples = s.msaa;
  if (ImGui::BeginCombo("##msaa", (std::to_string(samples) + "x").c_str())) {
    for (int n : {1, 2, 4, 8})
      if (ImGui::Selectable((std::to_string(n) + "x").c_str(), n == samples)) s.msaa = n;
    ImGui::EndCombo();
  }
  widgets::tooltip("Scene samples per pixel, resolved before the SAT (1: none)");
}

}  // namespace satdof::panels

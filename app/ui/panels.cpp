// app/ui/panels.cpp — the panels: pipeline (backend and the options it offers, from its
// registries), depth of field (implementation, focal settings), timings (per section).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/ui.h"

namespace satdof::panels {

void pipeline(UiState& s) {
  if (!ImGui::CollapsingHeader("Pipeline", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextWrapped("%s", s.backendReason.c_str());
  ImGui::TextDisabled("drag: orbit, wheel: zoom, F5: reload shaders");
  ImGui::TextDisabled("GL: %s, %dx%d", s.glRenderer.c_str(), s.width, s.height);
  if (ImGui::SmallButton("reload shaders (F5)")) s.reloadShaders = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("from %s", s.shaderDir.c_str());
  if (!s.shaderError.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", s.shaderError.c_str());
  // One combo per option the backend offers; each entry's description is its tooltip.
  for (const BackendOption& o : s.backendOptions) {
    std::string& current = s.selections[o.key];
    if (ImGui::BeginCombo(o.key.c_str(), current.c_str())) {
      for (const Choice& c : o.choices) {
        const bool selected = c.name == current;
        if (ImGui::Selectable(c.name.c_str(), selected)) current = c.name;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.description.c_str());
        if (selected) ImGui::SetItemDefaultFocus();
      }
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.label.c_str());
  }
}

void depthOfField(UiState& s) {
  if (!ImGui::CollapsingHeader("Depth of field", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::BeginCombo("implementation", s.dofImplementation.c_str())) {
    for (const DofEntry& e : dofImplementations()) {
      const auto why = e.whyNot(*s.backend);
      ImGui::BeginDisabled(why.has_value());
      if (ImGui::Selectable(std::string(e.name).c_str(), e.name == s.dofImplementation))
        s.dofImplementation = std::string(e.name);
      ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", why ? why->c_str() : std::string(e.description).c_str());
    }
    ImGui::EndCombo();
  }
  auto& p = s.dof->params;
  int model = p.model == reference::CocModel::ThinLens ? 1 : 0;
  ImGui::RadioButton("linear", &model, 0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("blur grows linearly with distance from focus, maximal at the focal range");
  ImGui::SameLine();
  ImGui::RadioButton("thin lens", &model, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("a real lens: focal length, f-number and sensor width set the blur");
  p.model = model == 1 ? reference::CocModel::ThinLens : reference::CocModel::Linear;
  ImGui::SliderFloat("focus (m)", &p.focalDistance, 0.2f, 60.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the view distance that is sharp");
  if (p.model == reference::CocModel::Linear) {
    ImGui::SliderFloat("focal range", &p.focalRange, 0.1f, 40.0f, "%.2f");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("distance from focus at which the blur reaches its maximum");
  } else {
    ImGui::SliderFloat("focal length (mm)", &p.focalLengthMm, 12.0f, 300.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("longer lenses blur the background more");
    ImGui::SliderFloat("f-number", &p.fNumber, 0.95f, 22.0f, "f/%.1f", ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("aperture: smaller numbers, wider aperture, more blur");
    ImGui::SliderFloat("sensor (mm)", &p.sensorWidthMm, 4.0f, 54.0f, "%.1f");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("sensor width: 36 is full frame, 23.5 APS-C, 6.2 a phone");
    // A lens cannot focus closer than its focal length.
    p.focalDistance = std::max(p.focalDistance, p.focalLengthMm / 1000.0f * 1.01f);
  }
  ImGui::SliderFloat("max blur (px)", &p.maxRadius, 0.0f, 64.0f, "%.1f");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the largest box half-size either model may reach");
  if (const char* why = reference::whyNotACamera(p)) ImGui::TextColored({1, 0.4f, 0.3f, 1}, "%s", why);
  ImGui::Checkbox("show blur radius", &s.dof->showCoc);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("draw each pixel's circle of confusion: green sharp, red at max blur");
}

void timings(const UiState& s) {
  if (!ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (const auto frame = s.history->smoothed("frame"))
    ImGui::Text("frame %.2f ms (%.0f fps)", *frame, 1000.0f / std::max(*frame, 1e-3f));
  for (const std::string& name : s.history->names()) {
    if (name == "frame") continue;
    if (const auto ms = s.history->smoothed(name)) ImGui::Text("  %-10s %7.3f ms", name.c_str(), *ms);
  }
  if (const auto b = s.history->budget("frame", true); b && b->overhead() >= 0)
    ImGui::Text("lost between stages %.3f ms", b->overhead());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("frame time minus the stages' own work: interop map/unmap, hand-overs, waits");
  ImGui::TextDisabled(s.backend->name() == "cpu" ? "GL timer queries (scene, dof); host wall times (cpu backend)"
                                                 : "GPU times: GL timer queries, CUDA events");
  const auto& sat = s.history->tagTimes("sat");
  if (!sat.empty()) {
    ImGui::Separator();
    ImGui::Text("SAT time by algorithm / scan variant (as used so far)");
    for (const auto& [name, ms] : sat) ImGui::Text("  %-40s %7.3f ms", name.c_str(), ms);
  }
}

}  // namespace satdof::panels

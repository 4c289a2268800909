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
  ImGui::SliderFloat("focal distance", &p.focalDistance, 0.5f, 60.0f, "%.2f");
  ImGui::SliderFloat("focal range", &p.focalRange, 0.1f, 40.0f, "%.2f");
  ImGui::SliderFloat("max blur (px)", &p.maxRadius, 0.0f, 64.0f, "%.1f");
  ImGui::Checkbox("show blur radius", &s.dof->showCoc);
}

void timings(const UiState& s) {
  if (!ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (const auto frame = s.history->smoothed("frame"))
    ImGui::Text("frame %.2f ms (%.0f fps)", *frame, 1000.0f / std::max(*frame, 1e-3f));
  for (const std::string& name : s.history->names()) {
    if (name == "frame") continue;
    if (const auto ms = s.history->smoothed(name)) ImGui::Text("  %-10s %7.3f ms", name.c_str(), *ms);
  }
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

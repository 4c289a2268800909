// app/ui/panels.cpp — the panels: pipeline (backend, scan variant), depth of field
// (focal settings), timings (per-stage GPU times).
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
  if (s.scanVariants.empty()) return;
  if (ImGui::BeginCombo("scan", s.scanVariant.c_str())) {
    for (const std::string& name : s.scanVariants) {
      const bool selected = name == s.scanVariant;
      if (ImGui::Selectable(name.c_str(), selected)) s.scanVariant = name;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
}

void depthOfField(UiState& s) {
  if (!ImGui::CollapsingHeader("Depth of field", ImGuiTreeNodeFlags_DefaultOpen)) return;
  auto& p = s.dof->params;
  ImGui::SliderFloat("focal distance", &p.focalDistance, 0.5f, 60.0f, "%.2f");
  ImGui::SliderFloat("focal range", &p.focalRange, 0.1f, 40.0f, "%.2f");
  ImGui::SliderFloat("max blur (px)", &p.maxRadius, 0.0f, 64.0f, "%.1f");
  ImGui::Checkbox("show blur radius", &s.dof->showCoc);
}

void timings(const UiState& s) {
  if (!ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (const auto frame = s.history->smoothed(Stage::Frame))
    ImGui::Text("frame %.2f ms (%.0f fps)", *frame, 1000.0f / std::max(*frame, 1e-3f));
  for (Stage st : {Stage::Scene, Stage::Filter, Stage::MapUnmap, Stage::Sat, Stage::Dof}) {
    if (const auto ms = s.history->smoothed(st))
      ImGui::Text("  %-10s %7.3f ms", std::string(stageName(st)).c_str(), *ms);
  }
  ImGui::TextDisabled("GPU times: GL timer queries (scene, dof), CUDA events (map, sat)");
  if (!s.scanVariants.empty()) {
    ImGui::Separator();
    ImGui::Text("SAT time by scan variant (as used so far)");
    for (const auto& [name, ms] : s.history->variantTimes(Stage::Sat))
      ImGui::Text("  %-24s %7.3f ms%s", name.c_str(), ms, name == s.scanVariant ? "  <" : "");
  }
}

}  // namespace satdof::panels

// app/ui/sat_panel.cpp — the SAT format (the table the DoF reads), the bound of an exact
// format that has one (uint21x3), and, for a float format, what it costs the image: the
// last precision measurement (precision.h) as a line and a heatmap, and a button to
// measure the current frame.
#include <imgui.h>

#include "satdof/sat_format.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {

void satTable(UiState& s) {
  if (!widgets::header("Summed-area table", "SAT", ImGuiTreeNodeFlags_DefaultOpen)) return;
  widgets::label("format", "how the table stores its sums: exact integers or floats");
  std::string& current = s.settings->satFormat;
  if (ImGui::BeginCombo("##satformat", current.c_str())) {
    for (const SatFormatInfo& f : satFormats()) {
      if (ImGui::Selectable(std::string(f.name).c_str(), f.name == current)) current = std::string(f.name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(f.description).c_str());
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("how the table stores its sums: exact integers or floats");
  const SatFormatInfo* format = findSatFormat(current);
  if (format && format->exact && format->maxBoxRadius != kNoRadiusLimit)
    ImGui::TextWrapped("exact for blur radii up to %d px (the max blur is held there): the image is uint32's, "
                       "byte for byte; nothing to measure",
                       format->maxBoxRadius);
  if (!format || format->exact) return;
  if (ImGui::Button("measure now")) s.measurePrecision = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the DoF from the float table against the exact uint32 one; measured on the CPU every "
                      "two seconds while a float format is in use");
  if (s.precisionLine.empty()) {
    ImGui::TextDisabled("measuring...");
    return;
  }
  ImGui::TextWrapped("%s", s.precisionLine.c_str());
  if (s.precisionHeatmap) {
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = s.width > 0 ? w * float(s.height) / float(s.width) : w;
    // GL rows run bottom-up: flip the thumbnail's v so it reads like the image.
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(s.precisionHeatmap)), ImVec2(w, h),
                 ImVec2(0, 1), ImVec2(1, 0));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("black: exact; blue to yellow: 1 to the maximum error");
  }
}

}  // namespace satdof::panels

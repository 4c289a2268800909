// app/ui/widgets.cpp — see widgets.h.
#include "ui/widgets.h"

#include <imgui.h>

namespace satdof::widgets {

void tooltip(const char* tip) {
  if (tip && *tip && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
}

void label(const char* text, const char* tip) {
  const float font = ImGui::GetFontSize();
  const float column = 8.5f * font;  // the label column: fits "focal distance"
  const float avail = ImGui::GetContentRegionAvail().x;
  const float textWidth = ImGui::CalcTextSize(text).x;
  const bool beside = textWidth + ImGui::GetStyle().ItemSpacing.x <= column && avail - column >= 6.0f * font;
  ImGui::AlignTextToFramePadding();
  ImGui::PushTextWrapPos(0.0f);  // wrap at the panel's edge rather than cut
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  tooltip(tip);
  if (beside) ImGui::SameLine(column + ImGui::GetStyle().WindowPadding.x);
  ImGui::SetNextItemWidth(-1.0f);
}

}  // namespace satdof::widgets

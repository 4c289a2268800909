// app/ui/widgets.cpp — see widgets.h.
#include "app/ui/widgets.h"

#include <imgui.h>

#include <cmath>
#include <string>

#include "settings/live_options.h"

namespace satdof::widgets {

void checkLayout(LayoutCheck* check) { ImGui::GetIO().UserData = check; }

namespace {
void noteIfCut(bool cut, const char* what) {
  auto* check = static_cast<LayoutCheck*>(ImGui::GetIO().UserData);
  if (check && cut && check->cut++ == 0) check->first = what ? what : "";
}
}  // namespace

void tooltip(const char* tip) {
  if (tip && *tip && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  noteIfCut(ImGui::GetItemRectMax().x > right + 1.0f, tip);
}

namespace {
// The width of a checkbox or radio button labelled `text`.
float boxWidth(const char* text) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(text).x;
}
}  // namespace

void sameLineIfFits(const char* text) {
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x;
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (used + ImGui::GetStyle().ItemSpacing.x + boxWidth(text) <= right) ImGui::SameLine();
}

// `draw(label)` draws the box; where `text` does not fit beside it, it wraps there.
template <typename Draw>
bool boxWithLabel(const char* text, Draw draw) {
  if (boxWidth(text) <= ImGui::GetContentRegionAvail().x) return draw(text);
  ImGui::PushID(text);
  const bool changed = draw("##box");
  ImGui::PopID();
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  return changed;
}

bool checkbox(const char* text, bool* value) {
  return boxWithLabel(text, [&](const char* label) { return ImGui::Checkbox(label, value); });
}

bool radio(const char* text, int* value, int choice) {
  return boxWithLabel(text, [&](const char* label) { return ImGui::RadioButton(label, value, choice); });
}

bool header(const char* text, const char* shortText, int flags) {
  const ImGuiStyle& style = ImGui::GetStyle();
  auto fits = [&](const char* t) {  // the arrow, the paddings around it and the text
    return ImGui::GetFontSize() + 4 * style.FramePadding.x + ImGui::CalcTextSize(t).x <=
           ImGui::GetContentRegionAvail().x;
  };
  const char* shown = fits(text) ? text : shortText;
  if (const auto* check = static_cast<const LayoutCheck*>(ImGui::GetIO().UserData); check && check->openAll)
    ImGui::SetNextItemOpen(*check->openAll);
  const bool open = ImGui::CollapsingHeader((std::string(shown) + "###" + text).c_str(), flags);
  noteIfCut(!fits(shown), text);
  return open;
}

bool smallButton(const char* text, const char* shortText) {
  const float needed = ImGui::CalcTextSize(text).x + 2 * ImGui::GetStyle().FramePadding.x;
  return ImGui::SmallButton(needed <= ImGui::GetContentRegionAvail().x ? text : shortText);
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

namespace {
std::string optionLabel(const LiveOption& option) {
  return option.panel.label ? option.panel.label : std::string(option.name);
}
}  // namespace

bool optionSlider(const LiveOption& option, float* value, float hi) {
  const std::string help(option.help), id = "##" + std::string(option.name);
  label(optionLabel(option).c_str(), help.c_str());
  const PanelRange& r = option.panel;
  const bool changed = ImGui::SliderFloat(id.c_str(), value, r.lo, std::isnan(hi) ? r.hi : hi, r.format,
                                          (r.logarithmic ? ImGuiSliderFlags_Logarithmic : 0) |
                                              (std::isnan(hi) ? 0 : ImGuiSliderFlags_AlwaysClamp));
  tooltip(help.c_str());
  return changed;
}

bool optionSlider(const LiveOption& option, int* value) {
  const std::string help(option.help), id = "##" + std::string(option.name);
  label(optionLabel(option).c_str(), help.c_str());
  const PanelRange& r = option.panel;
  const bool changed = ImGui::SliderInt(id.c_str(), value, int(r.lo), int(r.hi), r.format);
  tooltip(help.c_str());
  return changed;
}

}  // namespace satdof::widgets

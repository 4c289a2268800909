// app/ui/bokeh_panel.cpp — bokeh highlights: on/off, how this backend builds the sprite
// list, what counts as a highlight, the sprites' shape and brightness, the cap, how many
// there were (three frames late) and the time of each of the pass's steps.
#include <imgui.h>

#include <cmath>

#include "engine/frame/frame_targets.h"
#include "settings/live_options.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {

void bokeh(UiState& s) {
  if (!ImGui::CollapsingHeader("Bokeh highlights")) return;
  BokehSettings& b = s.settings->bokeh;
  ImGui::Checkbox("bokeh sprites", &b.enabled);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("bright out-of-focus pixels drawn as the lens's aperture: compaction, then a stable sort");
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("sprite list: %s", s.bokehMethod.c_str());
  ImGui::PopTextWrapPos();
  int threshold = int(b.select.threshold);
  widgets::optionSlider(opt::bokehThreshold, &threshold);
  b.select.threshold = std::uint32_t(threshold);
  float contrast = float(b.select.contrast) / float(reference::kBokehContrastOne);
  if (widgets::optionSlider(opt::bokehContrast, &contrast))
    b.select.contrast = std::uint32_t(std::lround(contrast * float(reference::kBokehContrastOne)));
  widgets::label("min radius (px)", nullptr);
  ImGui::SliderInt("##minradius", &b.select.minRadius, 1, 32);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("pixels blurred less than this stay points (no sprite)");
  // 1 and 2 blades make no aperture: the slider steps over them (0 round, then 3).
  const int blades = b.blades;
  if (widgets::optionSlider(opt::bokehBlades, &b.blades) && b.blades > 0 && b.blades < kMinBlades)
    b.blades = blades == 0 ? kMinBlades : 0;
  widgets::label("intensity", nullptr);
  ImGui::SliderFloat("##intensity", &b.intensity, 0.0f, 200.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("how much of each highlight's excess brightness its sprite carries");
  int cap = int(b.select.maxSprites);
  widgets::label("max sprites", nullptr);
  ImGui::SliderInt("##maxsprites", &cap, 64, kMaxBokehSprites, "%d", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("a cap, so a bright scene cannot stall the frame");
  b.select.maxSprites = std::uint32_t(cap);
  if (!b.enabled) return;
  if (s.bokehCounts) {
    ImGui::Text("%u sprites drawn of %u highlights (cap %u)", s.bokehCounts->drawn, s.bokehCounts->found,
                b.select.maxSprites);
    if (s.bokehCounts->found > s.bokehCounts->drawn)
      ImGui::TextColored({1, 0.7f, 0.3f, 1}, "capped at %u: raise max sprites", s.bokehCounts->drawn);
  }
  if (!s.history) return;
  // The pass's own steps, as this backend names them (the timings section lists them too).
  for (const std::string& name : s.history->names())
    if (name.rfind("bokeh ", 0) == 0)
      if (const auto ms = s.history->smoothed(name)) ImGui::Text("%-22s %7.3f ms", name.c_str(), *ms);
}

}  // namespace satdof::panels

// app/ui/filter_panels.cpp — the convolution section (filter, radius, border, custom
// matrix, the implementation, per-implementation times) and the view section (which image
// is shown; the depth range). Comparisons have their own section (compare_panel.cpp).
#include <imgui.h>

#include <algorithm>
#include <map>
#include <string>

#include "engine/profiling/profiler.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

// Resizes a custom (2r+1)^2 matrix to a new radius, keeping the values around the centre.
void resizeCustom(std::vector<float>& w, int oldRadius, int newRadius) {
  const int oldN = 2 * oldRadius + 1, newN = 2 * newRadius + 1;
  std::vector<float> out(std::size_t(newN) * newN, 0.0f);
  if (w.size() == std::size_t(oldN) * oldN)
    for (int i = 0; i < newN; ++i)
      for (int j = 0; j < newN; ++j) {
        const int oi = i - newRadius + oldRadius, oj = j - newRadius + oldRadius;
        if (oi >= 0 && oj >= 0 && oi < oldN && oj < oldN) out[std::size_t(i) * newN + j] = w[std::size_t(oi) * oldN + oj];
      }
  else
    out[std::size_t(newRadius) * newN + newRadius] = 1.0f;  // identity to start from
  w = std::move(out);
}

// A combo of implementations; those that cannot run `filter` are greyed out with why.
void implementationCombo(const char* label, const char* tip, std::string& choice, const UiState& s,
                         const Filter* filter) {
  const std::string shown = choice.empty() ? s.filterImplementations.front().name : choice;
  widgets::label(label, tip);
  const bool open = ImGui::BeginCombo((std::string("##") + label).c_str(), shown.c_str());
  for (const FilterImplementation& impl : s.filterImplementations)
    if (!open && impl.name == shown) widgets::tooltip(impl.description.c_str());
  if (!open) return;
  for (const FilterImplementation& impl : s.filterImplementations) {
    const auto why = filter ? impl.whyNot(*filter) : std::nullopt;
    ImGui::BeginDisabled(why.has_value());
    if (ImGui::Selectable(impl.name.c_str(), impl.name == shown)) choice = impl.name;
    ImGui::EndDisabled();
    widgets::tooltip(why ? why->c_str() : impl.description.c_str());
  }
  ImGui::EndCombo();
}

}  // namespace

void convolution(UiState& s) {
  FilterSettings& f = s.settings->filter;
  if (!widgets::header("Convolution (before the SAT)", "Convolution", f.enabled ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    return;
  widgets::checkbox("filter the scene", &f.enabled);
  widgets::tooltip("Convolve the scene colour before the SAT is built");
  const auto& names = filterKindNames();
  int kind = int(std::find(names.begin(), names.end(), std::string(toString(f.kind))) - names.begin());
  widgets::label("filter", "The convolution kernel");
  if (ImGui::BeginCombo("##filter", names[kind].c_str())) {
    for (int i = 0; i < int(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == kind)) f.kind = *filterKindFromName(names[i]);
    ImGui::EndCombo();
  }
  widgets::tooltip("The convolution kernel");
  int radius = f.radius;
  widgets::label("radius", "Kernel half-size: (2r+1) x (2r+1) taps");
  if (ImGui::SliderInt("##radius", &radius, kMinFilterRadius, kMaxFilterRadius)) {
    if (f.kind == FilterKind::Custom || !f.customWeights.empty()) resizeCustom(f.customWeights, f.radius, radius);
    f.radius = radius;
  }
  widgets::tooltip("Kernel half-size: (2r+1) x (2r+1) taps");
  if (f.kind == FilterKind::Gaussian) {
    widgets::label("sigma", "Gaussian width in pixels; 0: radius / 2");
    ImGui::SliderFloat("##sigma", &f.sigma, 0.0f, 16.0f, "%.2f");
    widgets::tooltip("Gaussian width in pixels; 0: radius / 2");
  }
  int border = f.border == Border::Zero ? 0 : 1;
  widgets::radio("zero border", &border, 0);
  widgets::tooltip("Pixels outside the image count as zero (ghost cells)");
  widgets::sameLineIfFits("clamp");
  widgets::radio("clamp", &border, 1);
  widgets::tooltip("Pixels outside the image repeat the nearest edge pixel");
  f.border = border == 0 ? Border::Zero : Border::Clamp;

  if (f.kind == FilterKind::Custom) {
    const int n = 2 * f.radius + 1;
    if (f.customWeights.size() != std::size_t(n) * n) resizeCustom(f.customWeights, f.radius, f.radius);
    ImGui::BeginChild("matrix", ImVec2(0, std::min(30.0f * n + 10, 220.0f)), true,
                      ImGuiWindowFlags_HorizontalScrollbar);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        ImGui::PushID(i * n + j);
        ImGui::SetNextItemWidth(48);
        ImGui::DragFloat("##w", &f.customWeights[std::size_t(i) * n + j], 0.01f, -100.0f, 100.0f, "%.2f");
        widgets::tooltip("A weight of the custom kernel: drag, or double-click to type");
        ImGui::PopID();
        if (j + 1 < n) ImGui::SameLine();
      }
    ImGui::EndChild();
  }

  std::optional<Filter> filter;
  try {
    filter = f.build();
  } catch (const std::exception& e) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", e.what());
  }
  implementationCombo("implementation", "Its output feeds the SAT (configuration B's: the Compare section)",
                      f.implementation, s, filter ? &*filter : nullptr);
  if (f.enabled && !s.filterProblem.empty())
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "not filtering: %s", s.filterProblem.c_str());

  std::map<std::string, float> times = s.history->tagTimes("filter A");
  for (const auto& [name, ms] : s.history->tagTimes("filter B")) times.try_emplace(name, ms);
  if (!times.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("filter time by implementation (smoothed)");
    for (const auto& [name, ms] : times) ImGui::Text("  %8.3f ms  %s", ms, name.c_str());
    ImGui::PopTextWrapPos();
  }
}

void view(UiState& s) {
  ViewSettings& v = s.settings->view;
  if (!widgets::header("View", "View", ImGuiTreeNodeFlags_DefaultOpen)) return;
  widgets::label("show", describe(v.mode));
  if (ImGui::BeginCombo("##view", toString(v.mode))) {
    for (ViewMode m : viewModes()) {
      if (ImGui::Selectable(toString(m), m == v.mode)) v.mode = m;
      widgets::tooltip(describe(m));
    }
    ImGui::EndCombo();
  }
  widgets::tooltip(describe(v.mode));
  if (showsFilterOutput(v.mode) && !s.settings->filter.enabled) ImGui::TextDisabled("(turn the filter on)");
  if (comparesConfigurations(v.mode)) ImGui::TextDisabled("(A and B: the Compare section)");
  if ((v.mode == ViewMode::Depth || v.mode == ViewMode::Holes) && s.depthRange)
    ImGui::Text("near %.2f, far %.2f", s.depthRange->nearest, s.depthRange->farthest);
  if (v.mode == ViewMode::Holes) {  // a photo's count (content/depth_span.h); a drawn scene has none
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(describeHoles(s.depthSpan.holes, s.depthSpan.holeShare).c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace satdof::panels

// app/ui/sat_times_panel.cpp — the SAT stage's time where the scan variant is chosen (the
// pipeline section, under its combo): the current variant's time, large, from the
// profiler's samples tagged with it (GPU timers: GL timer queries or CUDA events; host wall
// time on the cpu backend); a table of the time each variant the backend runs here last
// measured in this run, with the current SAT algorithm (a click picks that variant); and a
// button that times every one of them for a few frames (App::runScanTimes). Nothing here is
// estimated: a variant not run yet shows "-".
#include <imgui.h>

#include <string>
#include <vector>

#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

constexpr std::size_t kRecent = kSatTimeSamples;
const ImVec4 kAmber(1.0f, 0.85f, 0.4f, 1.0f);  // as the scan key's note

// The window's own font scale (ui.cpp shrinks it in a narrow HiDPI panel), to draw one line
// larger and go back.
float windowFontScale() { return ImGui::GetFontSize() / (ImGui::GetFont()->FontSize * ImGui::GetIO().FontGlobalScale); }

void variantTable(UiState& s, const BackendOption& scan, const std::string& algorithm, const std::string& current) {
  const std::vector<const Choice*> runs = runnableChoices(*s.backend, scan);
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
  if (!ImGui::BeginTable("##sat-times", 3, kFlags)) return;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("scan variant", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("SAT ms", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Choice& c = *runs[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", i < 9 ? std::to_string(i + 1).c_str() : "");
    ImGui::TableSetColumnIndex(1);
    if (ImGui::Selectable((c.name + "##sat-time").c_str(), c.name == current, ImGuiSelectableFlags_SpanAllColumns))
      s.selections[scan.key] = c.name;
    widgets::tooltip((c.description + "; click: use it").c_str());
    ImGui::TableSetColumnIndex(2);
    if (const auto ms = s.history->tagRecentMedian("sat", satSectionTag(algorithm, c.name), kRecent))
      ImGui::Text("%.3f", double(*ms));
    else
      ImGui::TextDisabled("-");
  }
  ImGui::EndTable();
}

}  // namespace

void satTimes(UiState& s) {
  if (!s.history || !s.backend) return;
  const BackendOption* scan = nullptr;
  for (const BackendOption& o : s.backendOptions)
    if (o.numberKeys) scan = &o;
  const auto sat = s.selections.find("sat");
  const std::string algorithm = sat == s.selections.end() ? std::string() : sat->second;
  const std::string current = scan ? s.selections[scan->key] : std::string();
  const std::string backend(s.backend->name());
  const char* clock = backend == "cpu" ? "host wall time" : backend == "cuda" ? "CUDA events" : "GL timer queries";
  const std::string tag = satSectionTag(algorithm, current);

  ImGui::Separator();
  if (const auto ms = s.history->tagRecentMedian("sat", tag, kRecent)) {
    const float scale = windowFontScale();
    ImGui::SetWindowFontScale(scale * 1.5f);
    ImGui::TextColored(kAmber, "SAT %.3f ms", double(*ms));
    ImGui::SetWindowFontScale(scale);
  } else {
    ImGui::TextDisabled("SAT: measuring...");
  }
  const std::string what = tag + ": the SAT stage, median of its last " + std::to_string(kRecent) + " frames (" +
                           clock + ")";
  widgets::tooltip(what.c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", tag.c_str());
  ImGui::PopTextWrapPos();
  widgets::tooltip(what.c_str());
  if (!scan) return;  // the cpu backend: one SAT, said above the times

  variantTable(s, *scan, algorithm, current);
  if (s.scanTimesStatus.empty()) {
    if (ImGui::Button("time each variant")) s.timeScans = true;
    widgets::tooltip(("Runs each scan variant this backend runs here until it has " + std::to_string(kRecent) +
                      " SAT times (" + clock + "), then gives yours back; the times fill the table and stdout")
                         .c_str());
  } else {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kAmber, "%s", s.scanTimesStatus.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace satdof::panels

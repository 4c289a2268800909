// app/ui/sat_times_panel.cpp — the SAT stage's time where the scan variant is chosen (the
// pipeline section, under its combo): the current variant's time, large, from the
// profiler's samples tagged with it (GPU timers: GL timer queries or CUDA events; host wall
// time on the cpu backend); a table of the time each variant the backend runs here last
// measured in this run, with the current SAT algorithm (a click picks that variant); and a
// button that times every one of them for a few frames (App::runScanTimes). Nothing here is
// estimated: a variant not run yet shows "-".
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

constexpr std::size_t kRecent = kSatTimeSamples;
// Light blue: apart from the amber of the notes and the image's labels.
const ImVec4 kTimeColour(0.6f, 0.85f, 1.0f, 1.0f);

// The window's own font scale (ui.cpp shrinks it in a narrow HiDPI panel), to draw one line
// larger and go back.
float windowFontScale() { return ImGui::GetFontSize() / (ImGui::GetFont()->FontSize * ImGui::GetIO().FontGlobalScale); }

// A variant's SAT time as measured last ("-": not run yet in this run).
std::string lastTime(const UiState& s, const std::string& algorithm, const std::string& variant) {
  char text[32] = "-";
  if (const auto ms = s.history->tagRecentMedian("sat", satSectionTag(algorithm, variant), kRecent))
    std::snprintf(text, sizeof text, "%.3f", double(*ms));
  return text;
}

// The variants the backend runs here as a table (key, name, ms) where the panel is wide
// enough for the longest name, else as rows that put the time under the name: never cut.
void variantTable(UiState& s, const BackendOption& scan, const std::string& algorithm, const std::string& current) {
  const std::vector<const Choice*> runs = runnableChoices(*s.backend, scan);
  const ImGuiStyle& style = ImGui::GetStyle();
  float longest = 0;
  for (const Choice* c : runs) longest = std::max(longest, ImGui::CalcTextSize(c->name.c_str()).x);
  const float needed = ImGui::CalcTextSize("key").x + longest + ImGui::CalcTextSize("000.000").x +
                       6 * style.CellPadding.x + 2 * style.ItemSpacing.x;
  // The row as wide as the space left: a name longer than that (a HiDPI scale in a small
  // window) is clipped as a combo clips it, the row never reaching past the edge.
  const auto pick = [&](const Choice& c, const std::string& label) {
    if (ImGui::Selectable(label.c_str(), c.name == current, ImGuiSelectableFlags_SpanAllColumns,
                          ImVec2(ImGui::GetContentRegionAvail().x, 0)))
      s.settings->selections[scan.key] = c.name;
    widgets::tooltip((c.description + "; click: use it").c_str());
  };
  if (needed > ImGui::GetContentRegionAvail().x) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      pick(*runs[i], (i < 9 ? std::to_string(i + 1) + " " : "") + runs[i]->name + "##sat-time");
      ImGui::Indent();
      ImGui::TextDisabled("%s ms", lastTime(s, algorithm, runs[i]->name).c_str());
      ImGui::Unindent();
    }
    return;
  }
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
  if (!ImGui::BeginTable("##sat-times", 3, kFlags)) return;
  ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("scan variant", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("SAT ms", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextDisabled("%s", i < 9 ? std::to_string(i + 1).c_str() : "");
    ImGui::TableSetColumnIndex(1);
    pick(*runs[i], runs[i]->name + "##sat-time");
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(lastTime(s, algorithm, runs[i]->name).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void satTimes(UiState& s) {
  if (!s.history || !s.backend) return;
  const BackendOption* scan = nullptr;
  for (const BackendOption& o : s.backendOptions)
    if (o.numberKeys) scan = &o;
  const auto sat = s.settings->selections.find("sat");
  const std::string algorithm = sat == s.settings->selections.end() ? std::string() : sat->second;
  const std::string current = scan ? s.settings->selections[scan->key] : std::string();
  const std::string backend(s.backend->name());
  const char* clock = backend == "cpu" ? "host wall time" : backend == "cuda" ? "CUDA events" : "GL timer queries";
  const std::string tag = satSectionTag(algorithm, current);

  ImGui::Separator();
  if (const auto ms = s.history->tagRecentMedian("sat", tag, kRecent)) {
    // Half as large again where the panel is wide enough, never cut.
    char text[48];
    std::snprintf(text, sizeof text, "SAT %.3f ms", double(*ms));
    const float scale = windowFontScale();
    const float grow = std::clamp(0.95f * ImGui::GetContentRegionAvail().x / ImGui::CalcTextSize(text).x, 1.0f, 1.5f);
    ImGui::SetWindowFontScale(scale * grow);
    ImGui::PushStyleColor(ImGuiCol_Text, kTimeColour);
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
    ImGui::SetWindowFontScale(scale);
  } else {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("SAT: measuring...");
    ImGui::PopTextWrapPos();
  }
  const std::string what = tag + ": the SAT stage, median of its last " + std::to_string(kRecent) + " frames (" +
                           clock + ")";
  widgets::tooltip(what.c_str());
  if (ImGui::CalcTextSize(tag.c_str()).x <= ImGui::GetContentRegionAvail().x) {  // else in the tooltip alone
    ImGui::TextDisabled("%s", tag.c_str());
    widgets::tooltip(what.c_str());
  }
  if (s.lesson && widgets::smallButton(s.lesson->shown() ? "hide the lesson (L)" : "the scans step by step (L)",
                                      "lesson (L)"))
    s.lesson->toggle(current);
  widgets::tooltip("A scan variant, the look-back, a SAT algorithm or a convolution block traced at a small size from "
                   "its kernel's index arithmetic, one step at a time over the image: the threads, the memory each "
                   "access goes to, the counts");
  if (!scan) return;  // the cpu backend: one SAT, said above the times

  variantTable(s, *scan, algorithm, current);
  if (s.scanTimesStatus.empty()) {
    if (widgets::smallButton("time each variant", "time all")) s.timeScans = true;
    widgets::tooltip(("Runs each scan variant this backend runs here until it has " + std::to_string(kRecent) +
                      " SAT times (" + clock + "), then gives yours back; the times fill the table and stdout")
                         .c_str());
  } else {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kTimeColour, "%s", s.scanTimesStatus.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace satdof::panels

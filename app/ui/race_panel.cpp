// app/ui/race_panel.cpp — the race section: a button that starts a race of the backend's
// kernels on the current frame (qa/race_runner.h; the app runs a few timed runs per
// frame), its progress (the bar, and what runs now in words that wrap, never cut), a Stop
// button that ends it and gives the user's own choices back, and the result as one bar per
// entry (bandwidth, the fastest the full bar; the copy of the same size in its line and
// each row's tooltip), the current choice highlighted, differing results in red. A click on
// a row makes it the app's choice. A race that starts opens the section and scrolls the
// panel to it (kept there while it runs).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "qa/race_runner.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

std::string printed(const char* format, double value) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string rowTip(const Race& race, const RaceEntry& e) {
  std::string tip = e.stage + " " + e.label() + ": " + printed("%.4f ms", e.ms ? double(*e.ms) : 0.0) +
                    printed(", %.1f GB/s", e.gbps(race.width(), race.height()));
  if (const auto pct = race.percentOfCopy(e)) tip += printed(", %.0f%% of a copy", *pct);
  if (const auto cub = race.timesCub(e)) tip += printed(", %.2fx CUB", *cub);
  tip += !e.checked ? "; not yet checked (after every row is timed)"
         : e.sameBytes ? "; the reference's bytes" : "; DIFFERS from the reference";
  return tip + "; click: use it";
}

void rows(UiState& s, const Race& race) {
  double full = 0;  // the fastest row the full bar
  for (const RaceEntry& e : race.entries()) full = std::max(full, e.gbps(race.width(), race.height()));
  std::string stage;
  for (std::size_t i = 0; i < race.entries().size(); ++i) {
    const RaceEntry& e = race.entries()[i];
    if (e.stage != stage) {
      stage = e.stage;
      ImGui::TextDisabled(stage == "sat" ? "SAT (algorithm / scan, format)" : "convolution");
    }
    if (!e.skipped.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s: skipped", e.label().c_str());
      ImGui::PopTextWrapPos();
      widgets::tooltip(e.skipped.c_str());
      continue;
    }
    const double gbps = e.gbps(race.width(), race.height());
    const ImVec4 colour = e.checked && !e.sameBytes ? ImVec4(0.9f, 0.3f, 0.25f, 1)
                          : e.current  ? ImVec4(0.95f, 0.75f, 0.2f, 1)
                                       : ImVec4(0.35f, 0.55f, 0.85f, 1);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, colour);
    const std::string tip = rowTip(race, e);
    ImGui::PushTextWrapPos(0.0f);  // the label above its bar: long names wrap, never cut
    ImGui::TextUnformatted(((e.current ? "* " : "") + e.label()).c_str());
    ImGui::PopTextWrapPos();
    bool clicked = ImGui::IsItemClicked();
    widgets::tooltip(tip.c_str());
    const std::string overlay = printed("%.3f ms", e.ms ? double(*e.ms) : 0.0) + printed(", %.1f GB/s", gbps);
    ImGui::ProgressBar(full > 0 ? float(gbps / full) : 0.0f, ImVec2(-FLT_MIN, 0), overlay.c_str());
    ImGui::PopStyleColor();
    clicked = ImGui::IsItemClicked() || clicked;
    widgets::tooltip(tip.c_str());
    if (clicked) s.raceAdopt = i;
  }
}

}  // namespace

void race(UiState& s) {
  const Race* race = s.race;
  // A race just started (the button, the script's race) opens its section, and the panel
  // keeps the section at its top while the race runs and for two frames after (a scroll
  // is clamped to the content of the frame before), so that its bars are in view; ImGui's
  // storage for the panel remembers which race that was.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID shownId = ImGui::GetID("race shown"), scrollId = ImGui::GetID("race scroll frames");
  if (race && storage->GetVoidPtr(shownId) != race) {
    ImGui::SetNextItemOpen(true);
    storage->SetVoidPtr(shownId, const_cast<Race*>(race));
    storage->SetInt(scrollId, 3);
  }
  if (!widgets::header("Race of the kernels", "Race")) return;
  if (const int frames = storage->GetInt(scrollId); race && frames > 0) {
    ImGui::SetScrollHereY(0.0f);
    if (race->done()) storage->SetInt(scrollId, frames - 1);
  }
  const bool running = race && !race->done();
  if (!running) {
    if (ImGui::Button(race ? "race again" : "start race")) s.raceStart = true;
    widgets::tooltip("Every SAT algorithm x scan variant x format and every convolution of this backend on the "
                     "current frame: timed a few runs per frame, each checked against the CPU reference");
  }
  if (!race) return;
  if (running) {
    // The bar carries the share alone; what runs is a line of its own that wraps, so that a
    // long combination's name is never cut at the bar's end.
    const std::string percent = printed("%.0f%%", 100.0 * double(race->progress()));
    ImGui::ProgressBar(race->progress(), ImVec2(-FLT_MIN, 0), percent.c_str());
    widgets::tooltip("a few timed runs per frame; the frame shows each choice while it runs");
    if (ImGui::Button("Stop")) race->requestStop();
    widgets::tooltip("Ends the race now and gives back the SAT format and choices from before it");
  }
  ImGui::PushTextWrapPos(0.0f);
  if (running) ImGui::TextUnformatted(race->status().c_str());
  if (race->stopped())
    ImGui::TextDisabled("%s; the choices from before it are back", race->status().c_str());
  if (race->copyMs())
    ImGui::TextDisabled("bars: GB/s, the fastest the full bar; a copy of the same size: %.1f GB/s (%s)",
                        race->copyGbps(), race->copyMethod().c_str());
  if (!running && race->differing() > 0)
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%d results differ from the reference", race->differing());
  ImGui::PopTextWrapPos();
  if (!race->entries().empty()) rows(s, *race);
}

}  // namespace satdof::panels

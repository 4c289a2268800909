// app/ui/timings_panel.cpp — per-stage times with a rolling plot each (the last kPlotted
// samples, ImGui::PlotLines), the frame rate, the SAT stage's bandwidth, and per
// implementation times. The labels say what was measured: GPU timer queries and CUDA
// events, or host wall times on the CPU backend.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

constexpr std::size_t kPlotted = 120;

void plot(const UiState& s, const std::string& name) {
  const std::vector<float> v = s.history->recent(name, kPlotted);
  if (v.size() < 2) return;
  const float top = *std::max_element(v.begin(), v.end());
  ImGui::PlotLines(("##plot" + name).c_str(), v.data(), int(v.size()), 0, nullptr, 0.0f, top * 1.1f,
                   ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 1.6f));
  widgets::tooltip(("The last " + std::to_string(v.size()) + " frames of '" + name + "', 0 to " +
                    std::to_string(top) + " ms").c_str());
}

}  // namespace

void timings(const UiState& s) {
  if (!widgets::header("Timings", "Timings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const bool cpu = s.backend->name() == "cpu";
  if (const auto frame = s.history->smoothed("frame")) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("frame %.2f ms  (%.0f fps)", *frame, 1000.0f / std::max(*frame, 1e-3f));
    ImGui::PopTextWrapPos();
    widgets::tooltip("Host time from one frame's start to the next (smoothed)");
    plot(s, "frame");
  }
  const double pixels = double(s.width) * double(s.height);
  ImGui::PushTextWrapPos(0.0f);  // a narrow panel wraps a row rather than cut it
  for (const std::string& name : s.history->names()) {
    if (name == "frame") continue;
    const auto ms = s.history->smoothed(name);
    if (!ms) continue;
    if (name == "sat" && s.satBytesPerPixel > 0 && *ms > 0) {
      // Written once (the table) and the image read once (4 B/px): the least it must move.
      const double bytes = pixels * double(s.satBytesPerPixel + 4);
      ImGui::Text("%-10s %8.3f ms  %.3g GB/s", name.c_str(), *ms, bytes / (*ms * 1e-3) / 1e9);
      widgets::tooltip("GB/s: (table bytes per pixel + 4 B/px read) x pixels / time");
    } else {
      ImGui::Text("%-10s %8.3f ms", name.c_str(), *ms);
    }
    plot(s, name);
  }
  ImGui::PopTextWrapPos();
  const bool cuda = s.backend->name() == "cuda";
  if (const auto b = s.history->budget("frame", true); b && b->overhead() >= 0) {
    ImGui::PushTextWrapPos(0.0f);
    const float share = b->frame > 0 ? 100.0f * b->overhead() / b->frame : 0.0f;
    ImGui::Text("%s %.3f ms (%.0f %% of the frame)", cuda ? "GL-CUDA hand-over" : "lost between stages",
                b->overhead(), share);
    ImGui::PopTextWrapPos();
    widgets::tooltip(cuda ? "frame time minus the stages' own work. On the cuda backend it is the GPU switching "
                            "from the GL context to the CUDA context and back, twice a frame (docs/PERFORMANCE.md: "
                            "the hand-over's timeline); the gl-compute backend has none"
                          : "frame time minus the stages' own work: gaps between the stages");
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", cpu    ? "scene, copy sat, dof: GPU times (GL timer queries); the CPU backend's "
                                     "other stages: host wall times (wait for GL: the GPU work before the read "
                                     "back, mostly the scene; read back: the transfer alone)"
                            : cuda ? "GPU times: GL timer queries and CUDA events"
                                   : "GPU times: GL timer queries");
  ImGui::PopTextWrapPos();
  if (s.compareHistory) {  // a line a stage, wrapped rather than cut in a narrow panel
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted("stage: A ms | B ms (smoothed)");
    widgets::tooltip("Each configuration's stages; B copies A's scene and runs its own filter, SAT and DoF");
    std::vector<std::string> names = s.history->names();
    for (const std::string& n : s.compareHistory->names())
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    auto cell = [](const ProfileHistory& h, const std::string& name) {
      char text[24] = "-";
      if (const auto ms = h.smoothed(name)) std::snprintf(text, sizeof text, "%.3f", double(*ms));
      return std::string(text);
    };
    for (const std::string& name : names)
      if (name != "frame")
        ImGui::Text("%s: %s | %s", name.c_str(), cell(*s.history, name).c_str(), cell(*s.compareHistory, name).c_str());
    ImGui::PopTextWrapPos();
  }
  const auto& sat = s.history->tagTimes("sat");
  if (!sat.empty() && ImGui::TreeNode("SAT time by algorithm / scan variant")) {
    for (const auto& [name, ms] : sat) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::Text("%.3f ms  %s", ms, name.c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::TreePop();
  }
}

}  // namespace satdof::panels

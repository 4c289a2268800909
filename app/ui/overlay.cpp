// app/ui/overlay.cpp — what is drawn on the image rather than in the panel: the split
// view's configuration labels (A: ..., B: ...) beside the divider, the difference view's
// maximum and gain with both labels, why B does not run or does not filter (when so), the
// depth view's range, the focus view's legend; the frame time and rate at the image's
// bottom-left corner (always in sight, whatever the panel shows or scrolls; also with the
// panel hidden); and the F1 help over everything.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/input.h"
#include "app/ui/ui.h"

namespace satdof::panels {
namespace {

// Text on a dark box at (x, y), its top-left corner (or top-right when alignRight); the
// labels in yellow, the frame time in grey (not a label of what the image shows).
constexpr ImU32 kLabelColour = IM_COL32(255, 235, 120, 255), kTimeColour = IM_COL32(210, 210, 210, 255);
void tag(float x, float y, const std::string& text, bool alignRight = false, ImU32 colour = kLabelColour) {
  ImDrawList* d = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float pad = 4.0f;
  if (alignRight) x -= size.x + 2 * pad;
  d->AddRectFilled(ImVec2(x, y), ImVec2(x + size.x + 2 * pad, y + size.y + 2 * pad), IM_COL32(0, 0, 0, 170), 3.0f);
  d->AddText(ImVec2(x + pad, y + pad), colour, text.c_str());
}

}  // namespace

void imageLabels(const UiState& s, float imageRight) {
  const float margin = 10.0f;
  if (const auto frame = s.history ? s.history->smoothed("frame") : std::nullopt) {
    char text[64];
    std::snprintf(text, sizeof text, "frame %.1f ms  %.1f fps", *frame, 1000.0f / std::max(*frame, 1e-3f));
    tag(margin, ImGui::GetIO().DisplaySize.y - margin - ImGui::GetFontSize() - 8.0f, text, false, kTimeColour);
  }
  switch (s.settings->view.mode) {
    case ViewMode::Split: {
      // Each label on its side of the divider, moved inwards rather than cut at the edges.
      const float x = s.settings->view.divider * imageRight;
      const float pad = 8.0f;
      const float widthA = ImGui::CalcTextSize(s.compareLabelA.c_str()).x + pad;
      const float widthB = ImGui::CalcTextSize(s.compareLabelB.c_str()).x + pad;
      tag(std::max(x - margin, margin + widthA), margin, s.compareLabelA, true);
      tag(std::min(x + margin, imageRight - margin - widthB), margin + (x + margin + widthB > imageRight - margin ||
                                                                       x - margin - widthA < margin
                                                                   ? 2.5f * ImGui::GetFontSize()
                                                                   : 0.0f),
          s.compareLabelB);
      for (std::size_t i = 0; i < s.compareNotes.size(); ++i)
        tag(margin, (5.0f + 2.5f * float(i)) * ImGui::GetFontSize(), s.compareNotes[i]);
      break;
    }
    case ViewMode::Difference: {
      if (s.maxDifference) tag(margin, margin, describeDifference(*s.maxDifference, s.gainUsed));
      const float line = 2.5f * ImGui::GetFontSize();
      tag(margin, margin + line, s.compareLabelA + "   " + s.compareLabelB);
      for (std::size_t i = 0; i < s.compareNotes.size(); ++i)
        tag(margin, margin + float(2 + i) * line, s.compareNotes[i]);
      break;
    }
    case ViewMode::Depth:
      if (s.depthRange) {
        char text[96];
        std::snprintf(text, sizeof text, "depth: white %.2f (near) .. black %.2f (far)", s.depthRange->nearest,
                      s.depthRange->farthest);
        tag(margin, margin, text);
      }
      break;
    case ViewMode::Holes: tag(margin, margin, describeHoles(s.depthSpan.holes, s.depthSpan.holeShare)); break;
    case ViewMode::Focus: {
      char text[96];
      std::snprintf(text, sizeof text, "green: within 5%% of the focal distance %.2f",
                    s.settings->dof.params.focalDistance);
      tag(margin, margin, text);
      break;
    }
    case ViewMode::Sat: tag(margin, margin, "SAT / its total, per channel (origin bottom-left)"); break;
    case ViewMode::Scene: tag(margin, margin, "scene colour (before the blur)"); break;
    default: break;
  }
}

void helpOverlay() {
  const ImVec2 window = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(window.x * 0.5f, window.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(window.x * 0.95f, window.y * 0.95f));
  ImGui::Begin("Keys and mouse (F1 closes)", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const KeyBinding& b : keyBindings()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(b.keys.data(), b.keys.data() + b.keys.size());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(b.action.data(), b.action.data() + b.action.size());
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace satdof::panels

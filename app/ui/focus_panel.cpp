// app/ui/focus_panel.cpp — the focus section: how to focus (click, autofocus), the depth
// under the cursor, the content's depths (their span, a photo's filled holes) and the focus
// overlay (the view that tints the focal plane).
#include <imgui.h>

#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {

void focus(UiState& s) {
  if (!widgets::header("Focus", "Focus", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("click the image to focus there");
  if (s.hoverDepth)
    ImGui::Text("depth under cursor: %.2f", *s.hoverDepth);
  else
    ImGui::TextDisabled("depth under cursor: (move over the image)");
  widgets::tooltip("The linear view depth of the pixel under the mouse, scene units");
  ImGui::Text("focal distance: %.2f%s", s.settings->dof.params.focalDistance, s.focusAnimating ? " (pulling)" : "");
  if (s.depthSpan.known()) {
    ImGui::Text("content depths: %.3g..%.3g %s", double(s.depthSpan.nearest), double(s.depthSpan.farthest),
                s.depthSpan.unit.c_str());
    widgets::tooltip("The nearest and farthest distance of what is shown: the focus sliders span them");
  }
  if (s.depthSpan.holes > 0) {
    ImGui::TextColored({1.0f, 0.75f, 0.3f, 1.0f}, "depth holes: %zu px (%.1f %%), filled", s.depthSpan.holes,
                       100.0 * double(s.depthSpan.holeShare));
    widgets::tooltip("Pixels the depth map has no reading for (a sensor's 0, NaN): each takes the depth of the "
                     "surfaces around it of its own colour, so it blurs as they do and makes no bokeh");
  }
  ImGui::PopTextWrapPos();
  widgets::label("autofocus", "Keep a point in focus while the camera moves");
  int mode = int(s.settings->autofocus);
  const char* names[] = {"off", "centre", "clicked point"};
  if (ImGui::Combo("##autofocus", &mode, names, 3)) s.settings->autofocus = Autofocus(mode);
  widgets::tooltip("off; centre: the image centre stays sharp; clicked point: the last pixel clicked");
  ViewMode& view = s.settings->view.mode;
  bool overlay = view == ViewMode::Focus;
  if (widgets::checkbox("tint the focal plane", &overlay)) view = overlay ? ViewMode::Focus : ViewMode::Final;
  widgets::tooltip("The focus view: pixels within 5% of the focal distance tinted green");
}

}  // namespace satdof::panels

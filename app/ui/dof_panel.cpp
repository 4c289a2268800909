// app/ui/dof_panel.cpp — the panel's depth-of-field section: the implementation (greyed
// out with the reason where the backend cannot run it) and the focus model's settings.
// This file is the home of the DoF model's controls: the camera model (thin lens,
// f-number, focal length) and the circle-of-confusion view belong here, beside the
// linear model's sliders (see the marked spot below).
#include <imgui.h>

#include <string>

#include "ui/ui.h"
#include "ui/widgets.h"

namespace satdof::panels {

void drawDofSection(UiState& s) {
  if (!ImGui::CollapsingHeader("Depth of field", ImGuiTreeNodeFlags_DefaultOpen)) return;
  widgets::label("implementation", "Which depth-of-field implementation blurs the image");
  if (ImGui::BeginCombo("##dof", s.dofImplementation.c_str())) {
    for (const DofEntry& e : dofImplementations()) {
      const auto why = e.whyNot(*s.backend);
      ImGui::BeginDisabled(why.has_value());
      if (ImGui::Selectable(std::string(e.name).c_str(), e.name == s.dofImplementation))
        s.dofImplementation = std::string(e.name);
      ImGui::EndDisabled();
      widgets::tooltip(why ? why->c_str() : std::string(e.description).c_str());
    }
    ImGui::EndCombo();
  }
  auto& p = s.dof->params;
  widgets::label("focal distance", "The view depth that is sharp (scene units); click the image to set it");
  ImGui::SliderFloat("##focal", &p.focalDistance, 0.5f, 60.0f, "%.2f");
  widgets::tooltip("The view depth that is sharp (scene units); click the image to set it");
  widgets::label("focal range", "How far from the focal plane the blur reaches its maximum");
  ImGui::SliderFloat("##range", &p.focalRange, 0.1f, 40.0f, "%.2f");
  widgets::tooltip("How far from the focal plane the blur reaches its maximum");
  widgets::label("max blur (px)", "The largest blur radius, in pixels");
  ImGui::SliderFloat("##maxblur", &p.maxRadius, 0.0f, 64.0f, "%.1f");
  widgets::tooltip("The largest blur radius, in pixels");
  ImGui::Checkbox("show blur radius", &s.dof->showCoc);
  widgets::tooltip("Draw each pixel's blur radius instead of the image");

  // ---- Camera model (thin lens: f-number, focal length) and the circle-of-confusion
  // ---- view's legend: the DoF work adds its controls here.
}

}  // namespace satdof::panels

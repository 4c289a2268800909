// app/ui/dof_panel.cpp — the panel's depth-of-field section: the implementation (greyed
// out with the reason where the backend cannot run it) and the focus model's settings.
// This file is the home of the DoF model's controls: the aperture (box or disc), the
// linear model and the camera model (thin lens: focal length, f-number, sensor), the
// circle-of-confusion view. The focal distance's and range's sliders span the content's
// own distances, in its units (engine/content/depth_span.h); the
// DoF work extends it (see the marked spot below).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "engine/content/depth_span.h"
#include "settings/live_options.h"
#include "satdof/sat_format.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

// A distance's slider over the content's own distances (engine/content/depth_span.h), labelled
// with its unit; the declared range where the content has none (a built-in scene). It
// always reaches the value it shows, wherever that was set.
void distanceSlider(const LiveOption& option, const char* name, float* value, const content::DepthSpan& span,
                    content::SliderSpan (*slider)(const content::DepthSpan&)) {
  if (!span.known()) {
    widgets::optionSlider(option, value);
    return;
  }
  const content::SliderSpan r = content::reaching(slider(span), *value);
  const std::string help(option.help), id = "##" + std::string(option.name), format = content::sliderFormat(r.hi, span.unit);
  widgets::label((std::string(name) + " (" + span.unit + ")").c_str(), help.c_str());
  ImGui::SliderFloat(id.c_str(), value, r.lo, r.hi, format.c_str(), ImGuiSliderFlags_Logarithmic);
  widgets::tooltip(help.c_str());
}

}  // namespace

void drawDofSection(UiState& s) {
  if (!widgets::header("Depth of field", "DoF", ImGuiTreeNodeFlags_DefaultOpen)) return;
  widgets::label("implementation", "Which depth-of-field implementation blurs the image");
  if (ImGui::BeginCombo("##dof", s.settings->dofName.c_str())) {
    for (const DofEntry& e : dofImplementations()) {
      const auto why = e.whyNot(*s.backend);
      ImGui::BeginDisabled(why.has_value());
      if (ImGui::Selectable(std::string(e.name).c_str(), e.name == s.settings->dofName))
        s.settings->dofName = std::string(e.name);
      ImGui::EndDisabled();
      widgets::tooltip(why ? why->c_str() : std::string(e.description).c_str());
    }
    ImGui::EndCombo();
  }
  for (const DofEntry& e : dofImplementations())
    if (e.name == s.settings->dofName) widgets::tooltip(std::string(e.description).c_str());
  if (!s.oneLayerNote.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", s.oneLayerNote.c_str());
    ImGui::PopTextWrapPos();
  }
  auto& p = s.settings->dof.params;
  // The blur's shape (opt::aperture): every implementation reads it from the same table.
  widgets::label("aperture", std::string(opt::aperture.help).c_str());
  const struct {
    reference::Aperture aperture;
    const char* name;
    const char* tip;
  } shapes[] = {{reference::Aperture::Box, "box", "each pixel the mean of its (2r+1)^2 square: 4 SAT reads"},
                {reference::Aperture::Disc, "disc", "the mean of the disc of radius r, as 5 boxes: 20 SAT reads"}};
  if (ImGui::BeginCombo("##aperture", shapes[p.aperture == reference::Aperture::Disc ? 1 : 0].name)) {
    for (const auto& shape : shapes) {
      if (ImGui::Selectable(shape.name, p.aperture == shape.aperture)) p.aperture = shape.aperture;
      widgets::tooltip(shape.tip);
    }
    ImGui::EndCombo();
  }
  widgets::tooltip(shapes[p.aperture == reference::Aperture::Disc ? 1 : 0].tip);
  int model = p.model == reference::CocModel::ThinLens ? 1 : 0;
  widgets::radio("linear", &model, 0);
  widgets::tooltip("blur grows linearly with distance from focus, maximal at the focal range");
  widgets::sameLineIfFits("thin lens");
  widgets::radio("thin lens", &model, 1);
  widgets::tooltip("a real lens: focal length, f-number and sensor width set the blur");
  p.model = model == 1 ? reference::CocModel::ThinLens : reference::CocModel::Linear;
  distanceSlider(opt::focal, "focus", &p.focalDistance, s.depthSpan, content::focalSlider);
  if (p.model == reference::CocModel::Linear) {
    distanceSlider(opt::focalRange, "focal range", &p.focalRange, s.depthSpan, content::focalRangeSlider);
  } else {
    widgets::optionSlider(opt::focalLength, &p.focalLengthMm);
    widgets::optionSlider(opt::fNumber, &p.fNumber);
    widgets::optionSlider(opt::sensorWidth, &p.sensorWidthMm);
    // A lens cannot focus closer than its focal length.
    p.focalDistance = std::max(p.focalDistance, p.focalLengthMm / 1000.0f * 1.01f);
  }
  // A SAT format with a bound on its exact box sums (uint21x3) limits the slider.
  const SatFormatInfo* format = findSatFormat(s.settings->satFormat);
  const bool limited = format && format->maxBoxRadius != kNoRadiusLimit && format->maxBoxRadius < opt::maxBlur.panel.hi;
  widgets::optionSlider(opt::maxBlur, &p.maxRadius, limited ? float(format->maxBoxRadius) : opt::maxBlur.panel.hi);
  if (limited) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("up to %d px with the %s SAT format: its box sums are exact up to that radius",
                        format->maxBoxRadius, std::string(format->name).c_str());
    if (!s.maxBlurNote.empty()) ImGui::TextColored({1, 0.4f, 0.3f, 1}, "%s", s.maxBlurNote.c_str());
    ImGui::PopTextWrapPos();
  }
  if (const char* why = reference::whyNotACamera(p)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored({1, 0.4f, 0.3f, 1}, "%s", why);
    ImGui::PopTextWrapPos();
  }
  widgets::checkbox("show blur radius", &s.settings->dof.showCoc);
  widgets::tooltip("draw each pixel's circle of confusion: green sharp, red at max blur");

  // ---- More of the camera model and the circle-of-confusion view's legend: the DoF
  // ---- work adds its controls here.
}

}  // namespace satdof::panels

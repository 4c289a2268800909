// app/ui/compare_panel.cpp — the compare section: off, split or difference (C cycles
// them); configuration A is the pipeline the other sections set, B a copy whose fields are
// edited here with the same registries (each entry's description as its tooltip, entries
// that cannot run greyed out with the reason); the split divider, the difference's gain
// and maximum; why B does not run, in one line, when it does not.
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "satdof/sat_format.h"
#include "app/ui/ui.h"
#include "app/ui/widgets.h"

namespace satdof::panels {
namespace {

struct Entry {
  std::string name, description;
  std::optional<std::string> whyNot;  // greyed out with this reason
};

// One field of B: "as A (name)" follows A (the field is not B's own), or an entry.
void field(UiState& s, const std::string& key, const char* label, const char* tip, const std::string& current,
           const std::string& aValue, const std::vector<Entry>& entries) {
  CompareFields& fields = s.settings->compareB;
  const bool own = fields.count(key) > 0;
  widgets::label(label, tip);
  const std::string shown = own ? current : current + " (as A)";
  if (ImGui::BeginCombo(("##compare-" + key).c_str(), shown.c_str())) {
    if (ImGui::Selectable(("as A (" + aValue + ")").c_str(), !own)) fields.erase(key);
    widgets::tooltip("B follows A's choice");
    for (const Entry& e : entries) {
      ImGui::BeginDisabled(e.whyNot.has_value());
      if (ImGui::Selectable(e.name.c_str(), own && e.name == current)) fields[key] = e.name;
      ImGui::EndDisabled();
      widgets::tooltip(e.whyNot ? e.whyNot->c_str() : e.description.c_str());
    }
    ImGui::EndCombo();
  }
  for (const Entry& e : entries)
    if (e.name == current) widgets::tooltip(e.description.c_str());
}

void fieldsOfB(UiState& s) {
  const PipelineConfig& a = s.compareA;
  const PipelineConfig& b = s.compareB;
  std::vector<Entry> backends;
  for (const ComputeBackendInfo& info : computeBackends()) {
    Entry e{std::string(info.name), std::string(info.description), std::nullopt};
    if (info.options().empty() && info.filterImplementations().empty()) e.whyNot = "not in this build";
    backends.push_back(e);
  }
  field(s, "backend", "backend", "B's compute backend (filter + SAT); beside A's, with its own targets", b.backend,
        a.backend, backends);
  const ComputeBackendInfo* info = findComputeBackend(b.backend);
  if (info)
    for (const BackendOption& o : info->options()) {
      std::vector<Entry> choices;
      for (const Choice& c : o.choices) choices.push_back({c.name, c.description, std::nullopt});
      const auto current = b.selections.find(o.key);
      const auto ofA = a.selections.find(o.key);
      field(s, o.key, o.label.c_str(), ("B's " + o.label).c_str(), current == b.selections.end() ? "" : current->second,
            ofA == a.selections.end() ? "-" : ofA->second, choices);
    }
  std::vector<Entry> formats;
  for (const SatFormatInfo& f : satFormats()) formats.push_back({std::string(f.name), std::string(f.description), {}});
  field(s, "sat-format", "SAT format", "How B's table stores its sums", b.satFormat, a.satFormat, formats);
  if (info && s.settings->filter.enabled) {
    std::optional<Filter> filter;
    try {
      filter = s.settings->filter.build();
    } catch (const std::exception&) {
    }
    std::vector<Entry> convs;
    for (const FilterImplementation& f : info->filterImplementations())
      convs.push_back({f.name, f.description, filter ? f.whyNot(*filter) : std::nullopt});
    field(s, "conv", "convolution", "B's implementation of the same filter", b.conv, a.conv, convs);
  }
  // The DoF entries B's backend cannot run: known from its live backend (or A's, the same).
  const ComputeBackend* backend =
      s.compareBackend ? s.compareBackend : (s.backend && s.backend->name() == b.backend ? s.backend : nullptr);
  std::vector<Entry> dofs;
  for (const DofEntry& e : dofImplementations())
    dofs.push_back({std::string(e.name), std::string(e.description), backend ? e.whyNot(*backend) : std::nullopt});
  field(s, "dof", "depth of field", "B's depth-of-field implementation", b.dof, a.dof, dofs);
  const std::string apertureA = reference::apertureName(s.settings->dof.params.aperture);
  const auto apertureB = s.settings->compareB.find("aperture");
  field(s, "aperture", "aperture", "B's blur shape: the same tables, read as A's box or as the disc's five boxes",
        apertureB == s.settings->compareB.end() ? apertureA : apertureB->second, apertureA,
        {{reference::apertureName(reference::Aperture::Box), "each pixel the mean of its (2r+1)^2 square", {}},
         {reference::apertureName(reference::Aperture::Disc), "the mean of the disc of radius r, as 5 boxes", {}}});
}

}  // namespace

void compare(UiState& s) {
  ViewSettings& v = s.settings->view;
  if (!widgets::header("Compare", "Compare", comparesConfigurations(v.mode) ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  int mode = v.mode == ViewMode::Split ? 1 : v.mode == ViewMode::Difference ? 2 : 0;
  const int before = mode;
  widgets::radio("off", &mode, 0);
  widgets::tooltip("Show configuration A only (C cycles off, split, difference)");
  widgets::sameLineIfFits("split");
  widgets::radio("split", &mode, 1);
  widgets::tooltip("A left of the divider, B right of it, labelled on the image");
  widgets::sameLineIfFits("difference");
  widgets::radio("difference", &mode, 2);
  widgets::tooltip("|A - B| with automatic gain; the maximum is printed on the image");
  if (mode != before) v.mode = mode == 1 ? ViewMode::Split : mode == 2 ? ViewMode::Difference : ViewMode::Final;

  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("A: the pipeline as set above. B: a copy; a field set here is B's own.");
  ImGui::PopTextWrapPos();
  fieldsOfB(s);
  if (ImGui::SmallButton("B = A")) s.settings->compareB.clear();
  widgets::tooltip("Every field of B follows A again");

  ImGui::PushTextWrapPos(0.0f);
  if (comparesConfigurations(v.mode)) {
    ImGui::TextUnformatted(s.compareLabelA.c_str());
    ImGui::TextUnformatted(s.compareLabelB.c_str());
  }
  if (!s.compareProblem.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", s.compareProblem.c_str());
  if (!s.compareFilterProblem.empty())
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "B not filtering: %s", s.compareFilterProblem.c_str());
  ImGui::PopTextWrapPos();

  if (v.mode == ViewMode::Split) {
    widgets::label("divider", "Where A ends and B begins; or drag it on the image");
    ImGui::SliderFloat("##divider", &v.divider, 0.0f, 1.0f);
    widgets::tooltip("Where A ends and B begins; or drag it on the image");
  }
  if (v.mode == ViewMode::Difference) {
    widgets::checkbox("automatic gain", &v.autoGain);
    widgets::tooltip("Scale the largest difference to full brightness");
    if (!v.autoGain) {
      widgets::label("gain", "Difference amplification");
      ImGui::SliderFloat("##gain", &v.gain, 1.0f, 255.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
      widgets::tooltip("Difference amplification");
    }
    if (s.maxDifference) ImGui::Text("max difference: %u grey levels (gain %.0f)", *s.maxDifference, s.gainUsed);
  }
}

}  // namespace satdof::panels

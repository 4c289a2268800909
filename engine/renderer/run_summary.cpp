// engine/renderer/run_summary.cpp — see run_summary.h.
#include "engine/renderer/run_summary.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace satdof {

void printRunSummary(const Renderer& renderer) {
  const Pipeline& a = renderer.pipeline();
  const Comparison& comparison = renderer.comparison();
  const FrameSettings& settings = renderer.settings();
  const ViewPass& view = renderer.viewPass();
  const Pipeline* b = comparison.pipeline();
  const std::string kFrameSection(Renderer::kFrameSection);
  const ProfileHistory& history = a.history();
  std::printf("satdof: %dx%d, backend %s, median per-section times over the frames rendered:\n",
              renderer.extent().width, renderer.extent().height, std::string(a.backend().name()).c_str());
  const auto [labelA, labelB] = comparison.labels(a.config(settings.filter.implementation), settings.filter.enabled);
  if (b) {  // A's and B's stages side by side, medians over the frames both ran
    std::printf("  %-12s %12s %12s   (%s | %s)\n", "section", "A ms", "B ms", labelA.c_str(), labelB.c_str());
    std::vector<std::string> names = history.names();
    for (const std::string& n : b->history().names())
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    auto cell = [](std::optional<float> ms) {
      char text[24];
      if (ms) std::snprintf(text, sizeof text, "%.3f", double(*ms));
      else std::snprintf(text, sizeof text, "-");
      return std::string(text);
    };
    for (const std::string& name : names)
      if (name != kFrameSection)
        std::printf("  %-12s %12s %12s\n", name.c_str(), cell(history.median(name)).c_str(),
                    cell(b->history().median(name)).c_str());
    std::printf("  %-12s %12s   (both configurations)\n", kFrameSection.c_str(),
                cell(history.median(kFrameSection)).c_str());
  } else {
    auto line = [&](const std::string& name) {
      if (const auto ms = history.median(name))
        std::printf("  %-11s %8.3f ms  (%zu samples)\n", name.c_str(), *ms, history.count(name));
    };
    for (const std::string& name : history.names())
      if (name != kFrameSection) line(name);
    line(kFrameSection);
  }
  // Host wall times that include waits for the GPU (the cpu backend's read back) make the
  // stages add up to more than the frame: then there is no gap to report.
  if (const auto gap = history.budget(kFrameSection, false); gap && gap->overhead() >= 0 && !b)
    std::printf("  stages' own work %.3f ms; frame - stages = %.3f ms lost between stages "
                "(the map/unmap sections, %.3f ms, also hold waits for the stages before them)\n",
                gap->stages, gap->overhead(), gap->handOvers);
  if (const auto c = a.bokeh().counts(); c && settings.bokeh.enabled)
    std::printf("satdof: bokeh highlights: %u found, %u sprites drawn (cap %u)%s; sprite list: %s\n", c->found,
                c->drawn, settings.bokeh.select.maxSprites, c->found > c->drawn ? ", capped: raise --bokeh-max" : "",
                std::string(a.backend().bokehMethod()).c_str());
  if (!a.backendPass().filterProblem().empty())
    std::printf("satdof: filter not applied: %s\n", a.backendPass().filterProblem().c_str());
  if (const std::string note = renderer.oneLayerNote(); !note.empty()) std::printf("satdof: %s\n", note.c_str());
  if (!comparison.problem().empty()) std::printf("satdof: %s\n", comparison.problem().c_str());
  if (b && !b->backendPass().filterProblem().empty())
    std::printf("satdof: B: filter not applied: %s\n", b->backendPass().filterProblem().c_str());
  if (settings.view.mode == ViewMode::Difference && view.maxDifference())
    std::printf("satdof: max difference %s vs %s: %u grey levels\n", labelA.c_str(), labelB.c_str(),
                *view.maxDifference());
}

}  // namespace satdof

// lesson/sat_trace.cpp — see sat_trace.h. The scans are the plain reference's
// (satdof/reference/scan.h), one row or column at a time.
#include "lesson/sat_trace.h"

#include <sstream>
#include <stdexcept>

#include "lesson/canvas.h"
#include "satdof/reference/scan.h"

namespace satdof::lesson {
namespace {

using Grid = std::vector<std::uint32_t>;

void scanRows(Grid& g, int w, int h) {
  for (int y = 0; y < h; ++y) {
    std::span<std::uint32_t> row(g.data() + std::size_t(y) * w, std::size_t(w));
    reference::inclusiveScan<std::uint32_t>(row, row);
  }
}

void scanColumns(Grid& g, int w, int h) {
  std::vector<std::uint32_t> column(static_cast<std::size_t>(h));
  for (int x = 0; x < w; ++x) {
    for (int y = 0; y < h; ++y) column[y] = g[std::size_t(y) * w + x];
    reference::inclusiveScan<std::uint32_t>(column, column);
    for (int y = 0; y < h; ++y) g[std::size_t(y) * w + x] = column[y];
  }
}

Grid transposed(const Grid& g, int w, int h) {
  Grid t(g.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) t[std::size_t(x) * h + y] = g[std::size_t(y) * w + x];
  return t;
}

}  // namespace

std::vector<std::string> tracedSatAlgorithms() { return {"rows-columns", "rows-transpose-rows"}; }

SatTrace traceSat(std::string_view algorithm, std::span<const std::uint32_t> image, int width, int height) {
  if (algorithm != "rows-columns" && algorithm != "rows-transpose-rows")
    throw std::invalid_argument("'" + std::string(algorithm) +
                                "': no step-by-step trace (traced: rows-columns, rows-transpose-rows)");
  if (width < 1 || height < 1 || image.size() != std::size_t(width) * height)
    throw std::invalid_argument("a SAT needs a non-empty image of width x height values");
  SatTrace t;
  t.algorithm = std::string(algorithm);
  t.width = width;
  t.height = height;
  t.formulaAdditions = static_cast<long long>(height) * (width - 1) + static_cast<long long>(width) * (height - 1);
  Grid g(image.begin(), image.end());
  auto push = [&](std::string phase, std::string what, int w, int h, SatStep::Along along, long long adds) {
    t.steps.push_back({std::move(phase), std::move(what), w, h, g, along, adds});
    t.additions += adds;
  };
  push("image", "the image: one value a pixel", width, height, SatStep::Along::None, 0);
  scanRows(g, width, height);
  push("rows", "every row scanned, left to right: each cell now holds the sum of its row up to it", width, height,
       SatStep::Along::Rows, static_cast<long long>(height) * (width - 1));
  if (algorithm == "rows-columns") {
    scanColumns(g, width, height);
    push("columns", "every column of that scanned, top to bottom: each cell holds the sum of the rectangle above-left of it",
         width, height, SatStep::Along::Columns, static_cast<long long>(width) * (height - 1));
  } else {
    g = transposed(g, width, height);
    push("transpose", "transposed: the columns are rows now, so the second scan also reads along rows", height, width,
         SatStep::Along::None, 0);
    scanRows(g, height, width);
    push("rows", "every row of the transposed grid scanned (the original columns)", height, width, SatStep::Along::Rows,
         static_cast<long long>(width) * (height - 1));
    g = transposed(g, height, width);
    push("transpose back", "transposed back: the summed-area table", width, height, SatStep::Along::None, 0);
  }
  t.result = g;
  return t;
}

void drawSatStep(Canvas& c, const SatTrace& t, int index) {
  const SatStep& s = t.steps.at(index);
  constexpr int kCell = 40, kLeft = 16, kTop = 96;
  const int width = std::max(kLeft * 2 + s.width * kCell, 900), height = kTop + s.height * kCell + 30;
  long long so = 0;
  for (int k = 0; k <= index; ++k) so += t.steps[k].additions;
  c.page(width, height);
  c.text(kLeft, 24,
                 t.algorithm + " — step " + std::to_string(index + 1) + " of " + std::to_string(t.steps.size()) + ": " +
                     s.phase,
                 18, "start", "bold");
  c.text(kLeft, 46, s.what, 13, "start");
  std::ostringstream counts;
  counts << t.width << " x " << t.height << " image. Additions this step " << s.additions << ", so far " << so << " of "
         << t.additions << " (rows h(w-1) + columns w(h-1) = " << t.formulaAdditions << ").";
  c.text(kLeft, 66, counts.str(), 12, "start", "normal", "#444");
  for (int y = 0; y < s.height; ++y)
    for (int x = 0; x < s.width; ++x) {
      const int px = kLeft + x * kCell, py = kTop + y * kCell;
      c.rect(px + 1, py + 1, kCell - 2, kCell - 2, (s.along == SatStep::Along::Rows ? y : x) % 2 ? "#e3f2fd" : "#fff8e1",
             "#90a4ae");
      c.text(px + kCell / 2, py + kCell / 2 + 5, std::to_string(s.values[std::size_t(y) * s.width + x]),
                     s.values[std::size_t(y) * s.width + x] >= 1000 ? 10 : 12);
    }
  // The scan's direction: an arrow along the first row or column.
  if (s.along == SatStep::Along::Rows)
    c.line(kLeft, kTop - 10, kLeft + s.width * kCell - 6, kTop - 10, "#c62828", 2, false, true);
  if (s.along == SatStep::Along::Columns)
    c.line(kLeft + s.width * kCell + 8, kTop, kLeft + s.width * kCell + 8, kTop + s.height * kCell - 6, "#c62828", 2,
           false, true);
}

std::string satStepSvg(const SatTrace& t, int step) {
  return svgOf([&](Canvas& c) { drawSatStep(c, t, step); });
}

std::vector<std::filesystem::path> writeSatLesson(const SatTrace& t, const std::filesystem::path& folder) {
  return writeStepPictures(folder, t.algorithm, static_cast<int>(t.steps.size()),
                           [&](Canvas& c, int k) { drawSatStep(c, t, k); });
}

std::string satLessonText(const SatTrace& t) {
  std::ostringstream o;
  for (int k = 0; k < static_cast<int>(t.steps.size()); ++k)
    o << "  step " << k + 1 << " of " << t.steps.size() << ": " << t.steps[k].phase << ": " << t.steps[k].what << "; "
      << t.steps[k].additions << " additions\n";
  o << "satdof: lesson: " << t.algorithm << ", " << t.width << " x " << t.height << ": " << t.additions
    << " additions in all, two scans: rows h(w-1) + columns w(h-1) = " << t.formulaAdditions << "\n";
  return o.str();
}

}  // namespace satdof::lesson

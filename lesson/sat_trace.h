// lesson/sat_trace.h — a summed-area table built step by step on a small one-channel image,
// the way the two-pass SAT algorithms build it: why a SAT is two scans.
//   rows-columns          every row scanned (inclusive), then every column
//   rows-transpose-rows   every row scanned, the image transposed, every row of that scanned,
//                         transposed back (the chapter's way: both scans run along rows)
// Each step keeps the grid as it stands, the direction the step works in, and its
// additions against the counts that follow from the scans: h(w-1) for the rows, w(h-1)
// for the columns, 0 for a transpose (it only moves values).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lesson/canvas.h"

namespace satdof::lesson {

struct SatStep {
  std::string phase;  // "image", "rows", "columns", "transpose", "transpose back"
  std::string what;
  int width = 0, height = 0;           // of the grid as it stands (a transpose swaps them)
  std::vector<std::uint32_t> values;   // row by row
  enum class Along { None, Rows, Columns } along = Along::None;
  long long additions = 0;
};

struct SatTrace {
  std::string algorithm;
  int width = 0, height = 0;
  std::vector<SatStep> steps;
  std::vector<std::uint32_t> result;  // the table, row by row: S(x, y) = sum over x' <= x, y' <= y
  long long additions = 0;
  long long formulaAdditions = 0;     // h(w-1) + w(h-1)
};

std::vector<std::string> tracedSatAlgorithms();
// Throws std::invalid_argument for another algorithm or an empty image.
SatTrace traceSat(std::string_view algorithm, std::span<const std::uint32_t> image, int width, int height);

// One SVG a step (FOLDER/ALGORITHM-step-NN.svg, each written whole); the paths.
std::vector<std::filesystem::path> writeSatLesson(const SatTrace& trace, const std::filesystem::path& folder);
// Step `step` (0-based) drawn on `canvas` (canvas.h); the SVG text of it.
void drawSatStep(Canvas& canvas, const SatTrace& trace, int step);
std::string satStepSvg(const SatTrace& trace, int step);
std::string satLessonText(const SatTrace& trace);

}  // namespace satdof::lesson

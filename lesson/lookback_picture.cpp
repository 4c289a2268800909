// lesson/lookback_picture.cpp — a look-back trace's steps as pictures (lookback_trace.h).
// Layout: the title and the counts; a box a tile, left to right: its id and work time, its
// status word (X not ready grey, A aggregate amber, P inclusive prefix green), its elements
// and, once stored, their scan; outlined in red when it acted in this step; under each box
// what it does, in a few short lines.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "lesson/lookback_trace.h"

namespace satdof::lesson {
namespace {

constexpr int kLeft = 16, kTop = 96, kCell = 18;

}  // namespace

void drawLookbackStep(Canvas& c, const LookbackTrace& t, int index) {
  const LookbackStep& s = t.steps.at(static_cast<std::size_t>(index));
  const int box = std::max(132, t.tileItems * kCell + 12), gap = 8;
  const int width = std::max(kLeft * 2 + t.tiles * (box + gap), 1000), height = kTop + 210;
  c.page(width, height);
  c.text(kLeft, 24, "decoupled-lookback — step " + std::to_string(index + 1) + " of " + std::to_string(t.steps.size()) +
                        " (time " + std::to_string(s.time) + ")", 18, "start", "bold");
  c.text(kLeft, 46, s.what, 13, "start");
  std::ostringstream counts;
  counts << "n = " << t.n << " in " << t.tiles << " tiles of " << t.tileItems << ", one pass: each element read once and "
         << "written once (reduce-then-scan reads it twice). In all: " << t.statusReads << " status words read, "
         << t.waits << " windows read again.";
  c.text(kLeft, 66, counts.str(), 12, "start", "normal", "#444");
  c.text(kLeft, 84, "Status: X not ready, A the tile's own total (aggregate), P everything up to and including it (prefix).",
         11, "start", "normal", "#6a1b9a");

  for (int b = 0; b < t.tiles; ++b) {
    const LookbackTile& tile = s.tiles[static_cast<std::size_t>(b)];
    const bool acted = std::find(s.acted.begin(), s.acted.end(), b) != s.acted.end();
    const int x = kLeft + b * (box + gap), y = kTop;
    c.rect(x, y, box, 118, "#fafafa", acted ? "#c62828" : "#b0bec5", acted ? 3 : 1, 6);
    c.text(x + 8, y + 16, "tile " + std::to_string(b) + " (work " + std::to_string(t.workTime[std::size_t(b)]) + ")", 11,
           "start", "bold", "#37474f");
    const char* fill = tile.flag == lookback::TileFlag::Prefix      ? "#a5d6a7"
                       : tile.flag == lookback::TileFlag::Aggregate ? "#ffe082"
                                                                    : "#eceff1";
    const std::string status = tile.flag == lookback::TileFlag::Prefix      ? "P " + std::to_string(tile.value)
                               : tile.flag == lookback::TileFlag::Aggregate ? "A " + std::to_string(tile.value)
                                                                            : "X";
    c.rect(x + 8, y + 24, box - 16, 26, fill, "#78909c", 1, 4);
    c.text(x + box / 2, y + 42, status, 14, "middle", "bold");
    const int first = b * t.tileItems, count = std::min(t.tileItems, t.n - first);
    for (int i = 0; i < count; ++i) {
      const int cx = x + 6 + i * kCell;
      c.rect(cx, y + 60, kCell - 2, 20, "#e3f2fd", "#90a4ae");
      c.text(cx + kCell / 2 - 1, y + 74, std::to_string(t.input[std::size_t(first + i)]), 10);
      if (tile.done) {
        c.rect(cx, y + 86, kCell - 2, 20, "#e8f5e9", "#66bb6a");
        c.text(cx + kCell / 2 - 1, y + 100, std::to_string(t.result[std::size_t(first + i)]), 9);
      }
    }
    int ly = y + 134;
    for (const std::string& line : wrapText(tile.doing, static_cast<std::size_t>(box / 6)))
      c.text(x + 2, ly, line, 10, "start", "normal", acted ? "#b71c1c" : "#546e7a"), ly += 13;
  }
}

std::string lookbackStepSvg(const LookbackTrace& t, int step) {
  return svgOf([&](Canvas& c) { drawLookbackStep(c, t, step); });
}

std::vector<std::filesystem::path> writeLookbackLesson(const LookbackTrace& t, const std::filesystem::path& folder) {
  return writeStepPictures(folder, "decoupled-lookback", static_cast<int>(t.steps.size()),
                           [&](Canvas& c, int k) { drawLookbackStep(c, t, k); });
}

}  // namespace satdof::lesson

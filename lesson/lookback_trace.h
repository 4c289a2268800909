// lesson/lookback_trace.h — the single-pass scan's decoupled look-back followed tile by
// tile, by the rule its kernel runs (satdof/lookback_rule.h): every tile is resident at
// once and takes its own time to load and add up its elements (seeded, as SMs differ); each
// publishes its total as an Aggregate, reads the status of the tiles before it, waits while
// one is NotReady, adds up to the nearest Prefix, and publishes its own Prefix. A step is a
// moment of that time in which some tile did something; the last has every tile's output.
// Inside a tile the kernel scans with warp shuffles (not traced here).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "lesson/canvas.h"
#include "satdof/lookback_rule.h"

namespace satdof::lesson {

struct LookbackTile {
  lookback::TileFlag flag = lookback::TileFlag::NotReady;
  std::uint32_t value = 0;  // the published value (flag Aggregate: its total; Prefix: inclusive)
  std::string doing;        // "adding up its 8 elements", "waits: tile 2 not ready", ...
  bool done = false;        // its elements scanned and stored
};

struct LookbackStep {
  int time = 0;
  std::string what;                 // what happened in this step, one line
  std::vector<LookbackTile> tiles;  // every tile's state after it
  std::vector<int> acted;           // the tiles that did something in it
};

struct LookbackTrace {
  int n = 0, tileItems = 0, tiles = 0;
  std::vector<std::uint32_t> input;
  std::vector<std::uint32_t> result;  // the exclusive scan the tiles store
  std::vector<int> workTime;          // each tile's time to load and add up its elements
  std::vector<LookbackStep> steps;
  long long statusReads = 0;          // status words read by all the look-backs, waits included
  long long waits = 0;                // windows that had to be read again (a NotReady in them)
};

// `tileItems` elements a tile; the tiles' speeds from `seed`. Throws std::invalid_argument
// for an empty input, a tile of no element, or more tiles than the lesson draws (16).
LookbackTrace traceLookback(std::span<const std::uint32_t> input, int tileItems, unsigned seed);

void drawLookbackStep(Canvas& canvas, const LookbackTrace& trace, int step);
std::string lookbackStepSvg(const LookbackTrace& trace, int step);
std::vector<std::filesystem::path> writeLookbackLesson(const LookbackTrace& trace, const std::filesystem::path& folder);
std::string lookbackLessonText(const LookbackTrace& trace);

}  // namespace satdof::lesson

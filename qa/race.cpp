// qa/race.cpp — `satdof race`: renders one frame, then races the backend's kernels
// on it (qa/race_runner.h): a table (ms, GB/s, % of a copy of the same size, x CUB
// where the cuda backend's cub scan variant ran, same bytes as the reference), a text bar
// chart of the bandwidth, and with --csv the rows as
//   stage,algorithm,variant,format,ms,gbps,pct_copy,same_bytes
// The app's current choice is marked (*). Exit 1 when any result differs from the reference.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include "engine/renderer/renderer.h"
#include "engine/files/interrupt.h"
#include "engine/files/safe_write.h"
#include "qa/race_runner.h"
#include "qa/tools.h"

namespace satdof {
namespace {

std::string number(std::optional<double> v, const char* format) {
  if (!v) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, *v);
  return text;
}

std::optional<double> msOf(const RaceEntry& e) {
  return e.ms ? std::optional<double>(double(*e.ms)) : std::nullopt;
}

constexpr int kBarWidth = 40;

}  // namespace

void printRace(const Race& race) {
  const int w = race.width(), h = race.height();
  std::printf("satdof race: %dx%d, backend %s, median of the timed runs; GB/s: bytes read + written per pixel\n", w,
              h, race.backend().c_str());
  std::printf("  copy of %dx%dx16 bytes (%s): %s ms, %s GB/s\n", w, h, race.copyMethod().c_str(),
              number(race.copyMs() ? std::optional<double>(*race.copyMs()) : std::nullopt, "%.4f").c_str(),
              number(race.copyGbps(), "%.1f").c_str());
  std::printf("  convolutions run %s\n", race.filterNote().c_str());
  std::printf("  %-1s %-4s %-22s %-24s %-14s %10s %9s %7s %7s  %s\n", "", "stage", "algorithm", "variant", "format",
              "ms", "GB/s", "% copy", "x CUB", "same bytes");
  for (const RaceEntry& e : race.entries()) {
    if (!e.skipped.empty()) {
      std::printf("    %-4s %-22s %-24s %-14s skipped: %s\n", e.stage.c_str(), e.algorithm.c_str(), e.variant.c_str(),
                  e.format.c_str(), e.skipped.c_str());
      continue;
    }
    std::printf("  %-1s %-4s %-22s %-24s %-14s %10s %9s %7s %7s  %s\n", e.current ? "*" : "", e.stage.c_str(),
                e.algorithm.c_str(), e.variant.c_str(), e.format.c_str(), number(msOf(e), "%.4f").c_str(),
                number(e.gbps(w, h), "%.1f").c_str(), number(race.percentOfCopy(e), "%.1f").c_str(),
                number(race.timesCub(e), "%.2f").c_str(), e.sameBytes ? "yes" : "NO");
  }
  int aboveCopy = 0;
  for (const RaceEntry& e : race.entries()) aboveCopy += race.percentOfCopy(e).value_or(0) > 100;
  if (aboveCopy > 0)
    std::printf("  (%d rows move bytes faster than the copy: here the copy (%s) is no ceiling)\n", aboveCopy,
                race.copyMethod().c_str());
  // The chart: GB/s, the fastest row the full bar; the share of the copy after it.
  double full = 0;
  for (const RaceEntry& e : race.entries()) full = std::max(full, e.gbps(w, h));
  std::printf("satdof race: GB/s (the full bar: %.1f GB/s, the fastest; the copy: %.1f GB/s; * the current choice)\n",
              full, race.copyGbps());
  for (const RaceEntry& e : race.entries()) {
    if (!e.skipped.empty() || !e.ms) continue;
    const int n = full > 0 ? int(kBarWidth * e.gbps(w, h) / full + 0.5) : 0;
    std::printf("  %s %-58.58s |%s%s| %8.1f  %s%% copy%s\n", e.current ? "*" : " ", (e.stage + " " + e.label()).c_str(),
                std::string(std::size_t(n), '#').c_str(), std::string(std::size_t(kBarWidth - n), ' ').c_str(),
                e.gbps(w, h), number(race.percentOfCopy(e), "%.0f").c_str(), e.sameBytes ? "" : "  DIFFERS");
  }
}

namespace {

// The CSV's text: a header, then a row for each combination that ran.
std::string raceCsvText(const Race& race) {
  std::ostringstream out;
  out << "stage,algorithm,variant,format,ms,gbps,pct_copy,same_bytes\n";
  for (const RaceEntry& e : race.entries()) {
    if (!e.skipped.empty()) continue;  // not a combination that ran
    out << e.stage << ',' << e.algorithm << ',' << e.variant << ',' << e.format << ','
        << number(msOf(e), "%.5f") << ',' << number(e.gbps(race.width(), race.height()), "%.3f") << ','
        << number(race.percentOfCopy(e), "%.2f") << ',' << (e.sameBytes ? "true" : "false") << '\n';
  }
  return out.str();
}

}  // namespace

bool writeRaceCsv(const Race& race, const std::string& path) {
  try {
    const std::filesystem::path file = path;
    if (file.has_parent_path()) files::createFolders(file.parent_path());
    files::writeFileAtomically(file, raceCsvText(race));
    return true;
  } catch (const files::WriteError& e) {
    std::fprintf(stderr, "satdof: race: %s\n", e.what());
    return false;
  }
}

int runRace(Renderer& renderer, const Options& options) {
  renderer.renderFrame();
  renderer.endFrame();
  RaceSettings settings;
  settings.repeats = options.raceRepeats;
  Race race(renderer, settings);
  // In steps of a few milliseconds, so that SIGINT and SIGTERM stop it between kernels.
  constexpr double kStepMs = 50;
  while (!race.done()) {
    if (files::interrupted()) {
      race.stop();  // the user's own choices back
      renderer.drainProfilers();
      std::printf("satdof race: stopped before the end%s\n", options.raceCsv.empty() ? "" : ": --csv not written");
      return kExitOk;  // (main exits with the signal's code)
    }
    race.step(kStepMs);
  }
  printRace(race);
  int ran = 0;
  for (const RaceEntry& e : race.entries()) ran += e.skipped.empty();
  std::printf("satdof race: %d combinations raced, %d differ from the reference\n", ran, race.differing());
  if (!options.raceCsv.empty()) {
    if (!writeRaceCsv(race, options.raceCsv)) return kExitFailure;  // (the reason said, one line)
    std::printf("satdof race: wrote %s\n", options.raceCsv.c_str());
  }
  renderer.drainProfilers();
  return race.differing() > 0 ? kExitFailure : kExitOk;
}

}  // namespace satdof

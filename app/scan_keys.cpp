// app/scan_keys.cpp — see scan_keys.h.
#include "app/scan_keys.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "app/ui/ui.h"  // kSatTimeSamples: the panel shows as many
#include "engine/backends/gl_scan_sat.h"

namespace satdof {
namespace {
constexpr std::chrono::seconds kNoteSeconds{2};
constexpr std::size_t kNoteFrames = 8;  // frames of "sat" samples after a scan key (the ring's 4 and more)
}  // namespace

// Keys 1-9: the scan variant of that number among those the backend runs here (the
// panel's numbering), or why there is none; never silent.
const BackendOption* ScanKeys::scanOption(const Pipeline& pipeline) {
  for (const BackendOption& o : pipeline.backendOptions())
    if (o.numberKeys) return &o;
  return nullptr;
}

void ScanKeys::choose(int index, Pipeline& pipeline) {
  const BackendOption* scan = scanOption(pipeline);
  ComputeBackend& backend = pipeline.backend();
  const std::string name(backend.name());
  ScanNote note;
  const std::vector<const Choice*> runs = scan ? runnableChoices(backend, *scan) : std::vector<const Choice*>{};
  if (!scan) {
    note.text = "the " + name + " backend has no scan variants: its SAT algorithm is '" + backend.selected("sat") + "'";
  } else if (index >= int(runs.size())) {
    note.text = "no scan variant " + std::to_string(index + 1) + ": the " + name + " backend runs " +
                std::to_string(runs.size()) + " here";
  } else if (auto why = backend.select(scan->key, runs[std::size_t(index)]->name)) {
    note.text = *why;
  } else {
    note.variant = runs[std::size_t(index)]->name;
    note.text = "scan variant " + note.variant;
    note.satSamples = pipeline.history().count("sat");
  }
  std::printf("satdof: %s\n", note.text.c_str());
  note.until = std::chrono::steady_clock::now() + kNoteSeconds;
  note_ = note;
}

// A few frames after a scan key, the SAT time the variant gave (the profiler's sections
// arrive a few frames late): added to the note and said on stdout.
void ScanKeys::updateNote(const Pipeline& pipeline) {
  if (note_.variant.empty()) return;
  const ProfileHistory& history = pipeline.history();
  if (history.count("sat") < note_.satSamples + kNoteFrames) return;
  const std::vector<float> recent = history.recent("sat", 3);
  std::vector<float> sorted = recent;
  std::sort(sorted.begin(), sorted.end());
  char text[64];
  std::snprintf(text, sizeof text, ": SAT %.3f ms", double(sorted[sorted.size() / 2]));
  note_.text = "scan variant " + note_.variant + text;
  std::printf("satdof: %s\n", note_.text.c_str());
  note_.variant.clear();
  note_.until = std::chrono::steady_clock::now() + kNoteSeconds;
}

std::string ScanKeys::noteNow(const Pipeline& pipeline) {
  updateNote(pipeline);
  if (std::chrono::steady_clock::now() < note_.until || !note_.variant.empty()) return note_.text;
  return {};
}

std::string ScanKeys::timesStatus() const {
  if (!times_) return {};
  const ScanTimes& t = *times_;
  const std::size_t at = std::min(t.next, t.variants.size() - 1);
  return "timing " + std::to_string(at + 1) + " of " + std::to_string(t.variants.size()) + ": " + t.variants[at];
}

void ScanKeys::stepTimes(bool start, Pipeline& pipeline, bool raceRunning) {
  start = std::exchange(timesRequested_, false) || start;
  constexpr std::size_t kSamples = kSatTimeSamples;  // SAT times per variant, read from the profiler
  constexpr int kMaxFrames = 90;       // a variant whose times do not come is left after these
  ComputeBackend& backend = pipeline.backend();
  const BackendOption* scan = scanOption(pipeline);
  const std::string backendName(backend.name());
  if (start && !times_) {
    if (!scan) {
      std::printf("satdof: time-scans: the %s backend has no scan variants\n", backendName.c_str());
      return;
    }
    if (raceRunning) {
      std::printf("satdof: time-scans: not while the race runs\n");
      return;
    }
    ScanTimes t;
    for (const Choice* c : runnableChoices(backend, *scan)) t.variants.push_back(c->name);
    t.restore = backend.selected(scan->key);
    t.backend = backendName;
    if (t.variants.empty()) return;
    times_ = std::move(t);
  }
  if (!times_) return;
  ScanTimes& t = *times_;
  if (!scan || t.backend != backendName) {  // the backend was replaced mid-way
    std::printf("satdof: time-scans: stopped: the %s backend is gone\n", t.backend.c_str());
    times_.reset();
    return;
  }
  const ProfileHistory& history = pipeline.history();
  const std::string algorithm = backend.selected("sat");
  const auto tagOf = [&](const std::string& variant) { return satSectionTag(algorithm, variant); };
  if (t.frames >= 0) {  // the variant running: its samples, or the frames it may take
    ++t.frames;
    if (history.tagCount("sat", tagOf(t.variants[t.next])) < t.before + kSamples && t.frames < kMaxFrames) return;
    ++t.next;
  }
  for (; t.next < t.variants.size(); ++t.next) {
    if (auto why = backend.select(scan->key, t.variants[t.next])) {
      std::printf("satdof: time-scans: %s\n", why->c_str());
      continue;
    }
    t.before = history.tagCount("sat", tagOf(t.variants[t.next]));
    t.frames = 0;
    return;
  }
  if (auto why = backend.select(scan->key, t.restore)) std::printf("satdof: time-scans: %s\n", why->c_str());
  std::printf("satdof: SAT time by scan variant (%s, %dx%d, median of the last %zu frames each, %s):\n",
              algorithm.c_str(), pipeline.extent().width, pipeline.extent().height, kSamples,
              backendName == "cuda" ? "CUDA events" : "GL timer queries");
  for (std::size_t i = 0; i < t.variants.size(); ++i) {
    char ms[32] = "-";  // a variant whose times never came (kMaxFrames)
    if (const auto median = history.tagRecentMedian("sat", tagOf(t.variants[i]), kSamples))
      std::snprintf(ms, sizeof ms, "%.3f ms", double(*median));
    std::printf("  %zu  %-24s %s\n", i + 1, t.variants[i].c_str(), ms);
  }
  times_.reset();
}

}  // namespace satdof

// app/scan_keys.h — the scan variants at the user's fingertips: keys 1-9 choose the active
// backend's variant of that number (or say why there is none), and the panel's "time each
// variant" (a script's time-scans) runs each in turn and prints their SAT times.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/pipeline/pipeline.h"

namespace satdof {

// What the last scan key (1-9) did: a line shown ~2 s on the image and in the panel (and
// said on stdout), then, a few frames later, the SAT time the new variant gave.
struct ScanNote {
  std::string text;
  std::chrono::steady_clock::time_point until;
  std::string variant;         // waiting for its SAT time (empty: not waiting)
  std::size_t satSamples = 0;  // the history's "sat" samples at the key press
};

// The panel's "time each variant" (a script's time-scans): each scan variant the backend
// runs here in turn, until the profiler holds a few SAT times of it (GPU timers, read a few
// frames late), then the user's own variant back and the times on stdout (app_window.cpp).
struct ScanTimes {
  std::vector<std::string> variants;
  std::string restore;         // the user's variant
  std::string backend;         // whose variants (a backend replaced mid-way ends it)
  std::size_t next = 0;        // the variant running now
  std::size_t before = 0;      // its SAT samples when it started
  int frames = -1;             // frames it has run (-1: none started yet)
};

class ScanKeys {
 public:
  // The backend's scan variants (keys 1-9), or null where it has none.
  static const BackendOption* scanOption(const Pipeline& pipeline);
  // Key `index + 1`: that variant, said on stdout and in the note.
  void choose(int index, Pipeline& pipeline);
  // The note to show now (empty: none), with the SAT time once the profiler has it.
  std::string noteNow(const Pipeline& pipeline);

  // "Time each variant": asked for (started with the next frame's panel), running.
  void requestTimes() { timesRequested_ = true; }
  bool timing() const { return timesRequested_ || times_.has_value(); }
  // A frame's step; `start` (the panel's button) or a request starts a run.
  void stepTimes(bool start, Pipeline& pipeline, bool raceRunning);
  std::string timesStatus() const;  // what it does now, for the panel (empty: not running)

 private:
  void updateNote(const Pipeline& pipeline);

  ScanNote note_;
  bool timesRequested_ = false;
  std::optional<ScanTimes> times_;  // while the scan variants are timed
};

}  // namespace satdof

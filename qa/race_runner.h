// qa/race_runner.h — a race of the running backend's kernels on the current frame:
// every SAT algorithm x scan variant x SAT format the backend offers, and every
// convolution implementation it has, each timed on the frame's own input (the median of
// N runs after a warm-up, from the backend's profiler sections: GL timestamps, CUDA
// events, or the host clock for the cpu backend) and checked byte for byte against the
// CPU reference (satdof/reference/sat.h; a convolution against the reference of its
// arithmetic, as verify.h does). A copy of the same size on the same device (a GL buffer
// copy on GL timestamps; memcpy on the cpu backend) is the bandwidth yardstick: a ceiling
// where the copy runs at the memory's speed (not NVIDIA's GL copy: docs/PERFORMANCE.md).
//
// Every entry is timed first, then every result is checked: a check (a read-back and a
// comparison on the host) leaves the GPU idle long enough for a GL driver to lower its
// clocks (on the H200 to 345-735 MHz from 1980 within a second), and the entries timed
// after it would read a slower GPU; CUDA keeps its clocks (docs/PERFORMANCE.md, "The race
// of the kernels").
// The work is cut into small steps (a choice applied, one timed run, one check), so that
// the window runs a few per frame (step(budget)) while the headless tool runs them all
// (step(0)). While it runs, the app's SAT format, backend choices and max blur are the
// race's candidates; the user's own (as they were when it started) come back whenever it
// ends: at its end, on stop() (the panel's Stop button through requestStop(), the window
// closing), so that what the app shows and saves afterwards is never a candidate. adopt()
// then makes one row the app's choice through its usual paths (setSatFormat, applyChoices,
// the filter).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/frame/filter_settings.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/image.h"

namespace satdof {

class Renderer;

struct RaceEntry {
  std::string stage;      // "sat" or "conv"
  std::string algorithm;  // the SAT algorithm, or the convolution implementation
  std::string variant;    // the scan variant ("-": none, or the algorithm uses none)
  std::string format;     // the SAT format ("rgba8": a convolution's output)
  double bytesPerPixel = 0;  // read + written, the least traffic the stage needs
  std::optional<float> ms;   // the median of the timed runs
  bool checked = false;      // compared with the reference yet (after every entry is timed)
  bool sameBytes = false;    // equal to the reference
  std::string skipped;       // why it did not run (empty: it ran)
  bool current = false;      // the app's choice when the race started (or adopted since)

  double gbps(int width, int height) const;
  std::string label() const;  // "reduce-then-scan / cub, uint32"
};

struct RaceSettings {
  int warmup = 3;
  int repeats = 15;
};

class Race {
 public:
  // Plans the race for the app's backend and current frame (rendered before).
  Race(Renderer& renderer, RaceSettings settings = {});
  ~Race();
  Race(const Race&) = delete;
  Race& operator=(const Race&) = delete;

  // Runs steps until `budgetMs` of wall time has gone (0: until the end); true when done.
  // A stop asked for (requestStop) is made first.
  bool step(double budgetMs);
  // Ended, the user's choices back: run to its end, or stopped.
  bool done() const { return restored_; }
  // Ends the race now (nothing when done): the user's choices back, the rows timed but not
  // yet checked marked as such (skipped, with the reason), one line on stdout.
  void stop();
  // A stop for the next step() to make: the panel, which draws the race and does not run it.
  void requestStop() const { stopRequested_ = true; }
  bool stopped() const { return stopped_; }
  float progress() const;
  // "sat 3 of 50: rows-columns / cub, float32", then "checking ...", "done" or "stopped ...".
  std::string status() const;

  // The rows that ran or were refused (a scan variant of an algorithm that uses none is
  // not a row), in the order they ran.
  const std::vector<RaceEntry>& entries() const { return results_; }
  int width() const { return width_; }
  int height() const { return height_; }
  std::string backend() const { return backendName_; }
  std::optional<float> copyMs() const { return copyMs_; }
  double copyGbps() const;  // 2 x the copied bytes per copy time
  std::string copyMethod() const;
  std::optional<double> percentOfCopy(const RaceEntry& e) const;
  // How many times faster than the same SAT with the cub scan variant (or, for an algorithm
  // that scans nothing, the fastest cub row of its format); nullopt without a cub row.
  std::optional<double> timesCub(const RaceEntry& e) const;
  const std::string& filterNote() const { return filterNote_; }  // what the convolutions ran
  int differing() const;
  // Makes row `index` the app's choice; marks it current.
  // Row `index` of the finished race made the app's choice; the reason when it cannot be.
  std::optional<std::string> adopt(std::size_t index);

 private:
  enum class Phase { Setup, Runs, Check };
  void planSat();
  void planConvolutions();
  bool setUp(RaceEntry& e);   // false: skipped (e.skipped says why)
  void dropRest(const RaceEntry& e, bool wholeFormat);
  void runOnce(const RaceEntry& e);
  void finish(RaceEntry& e);  // the median, the row
  void check(RaceEntry& e);   // the row's result built again and compared with the reference
  // The pipeline on SAT format `format`, its scene drawn again; false where it is refused.
  bool useFormat(const std::string& format);
  bool checkSat(const RaceEntry& e);
  bool checkConvolution(const RaceEntry& e);
  // The reference bytes `key` of `source`, made once while the source stays the same.
  const std::vector<std::uint8_t>& reference(const reference::ImageRgba8& source, const std::string& key,
                                             const std::function<std::vector<std::uint8_t>()>& make);
  void selectSat(const std::string& format, const std::string& algorithm, const std::string& variant);
  void restore();

  Renderer& renderer_;
  RaceSettings settings_;
  int width_ = 0, height_ = 0;
  std::string backendName_;
  std::vector<RaceEntry> plan_, results_;
  std::size_t next_ = 0;     // the next plan entry to time
  std::size_t checked_ = 0;  // then the rows checked
  Phase phase_ = Phase::Setup;
  int runs_ = 0;
  bool restored_ = false;  // the user's choices back: done
  bool stopped_ = false;
  mutable bool stopRequested_ = false;
  std::unique_ptr<Profiler> profiler_;  // the race's own sections, apart from the frame's
  ProfileHistory history_;
  // The copy: two buffers on GL backends, host memory on the cpu backend.
  struct Copy;
  std::unique_ptr<Copy> copy_;
  std::optional<float> copyMs_;
  // The app's choices when the race started, restored at the end: the SAT format, every
  // backend option's choice, the max blur (a format may lower it).
  std::string format0_, sat0_, scan0_, satDefault_;
  std::map<std::string, std::string> selections0_;
  float maxBlur0_ = 0;
  std::optional<Filter> satFilter_;  // the frame's filter, when the SAT reads its output
  FilterSettings filter_;            // what the convolutions run
  std::optional<Filter> convFilter_;
  std::string filterNote_;
  // The reference of the last input seen (kept while the frame does not change).
  reference::ImageRgba8 refSource_;
  std::map<std::string, std::vector<std::uint8_t>> refBytes_;  // by format or arithmetic
};

// The headless tool's output (race.cpp): the table, the bar chart, the CSV.
void printRace(const Race& race);
bool writeRaceCsv(const Race& race, const std::string& path);

}  // namespace satdof

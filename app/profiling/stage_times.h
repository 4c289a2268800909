// app/profiling/stage_times.h — per-stage frame times and their history.
//
// GPU stages are measured with GL timestamp queries (scene, DoF) and CUDA events (map,
// SAT); each timer is read back a few frames after it was issued, so measuring never
// stalls the pipeline. The history keeps every sample for the headless summary (medians)
// and a smoothed value for the UI.
#pragma once

#include <array>
#include <map>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "gl/handles.h"

namespace satdof {

enum class Stage { Scene, Filter, MapUnmap, Sat, Dof, Frame, Count };
constexpr int kStageCount = int(Stage::Count);
std::string_view stageName(Stage s);

struct StageSample {
  std::array<std::optional<float>, kStageCount> ms;
};

class StageHistory {
 public:
  void add(Stage s, float ms);
  void clear();
  // Median over all samples of a stage (nullopt when there are none).
  std::optional<float> median(Stage s) const;
  // Exponentially smoothed value for on-screen display.
  std::optional<float> smoothed(Stage s) const { return smoothed_[int(s)]; }
  std::size_t count(Stage s) const { return samples_[int(s)].size(); }

  // A stage's time attributed to the implementation that ran it (a scan variant, a
  // convolution kernel), smoothed per implementation so a live switch shows its cost.
  // With countsForStage the sample also joins the stage's own history.
  void addVariantTime(Stage s, const std::string& variant, float ms, bool countsForStage = true);
  const std::map<std::string, float>& variantTimes(Stage s) const { return variants_[int(s)]; }

 private:
  std::array<std::map<std::string, float>, kStageCount> variants_;
  std::array<std::vector<float>, kStageCount> samples_;
  std::array<std::optional<float>, kStageCount> smoothed_;
};

// GL timestamp pairs per stage, in a ring of frames so results are read when available.
class GlStageTimer {
 public:
  GlStageTimer();
  void begin(Stage s);
  void end(Stage s);
  // Closes the current frame; adds every finished older frame's times to `history`.
  void endFrame(StageHistory& history);
  // Waits for every pending frame (used at exit so the summary is complete).
  void drain(StageHistory& history);

 private:
  static constexpr int kRing = 4;
  struct FrameQueries {
    std::array<gl::Query, kStageCount> begin, end;
    std::array<bool, kStageCount> used{};
    bool pending = false;
  };
  void collect(FrameQueries& f, StageHistory& history, bool wait);
  std::array<FrameQueries, kRing> frames_;
  int current_ = 0;
};

}  // namespace satdof

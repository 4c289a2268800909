// engine/profiling/profiler.h — named, scoped sections on the GPU timeline (or the host's).
//
//   auto s = profiler.section(gpuClock, "sat", "rows-transpose-rows / decoupled-lookback");
//   ... work ...                                   // the section ends when `s` goes
//   profiler.endFrame(history);                    // once per frame
//
// A section records a begin and an end mark into a TimestampSource: GL timestamp queries
// (GlTimestamps), CUDA events on a stream (engine/interop/cuda_timestamps.h), or the host clock
// (HostClock, for the CPU backend's synchronous work). Marks sit in a ring of frames and
// are read kRing frames later, when they have long completed, so profiling never stalls
// the pipeline (as nvpro_core's timeRecurring does). Sections are known by name only: a
// stage that opens a new one shows up in the panel and the headless summary by itself.
// A section's tag says which implementation ran (a scan variant, a convolution), so the
// history keeps a time per implementation too.
//
// Index: TimestampSource, GlTimestamps, HostClock — Profiler — ProfileHistory.
#pragma once

#include <array>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/gl/handles.h"

namespace satdof {

class ProfileHistory;

// Marks on one clock, in a ring of frame slots. Mark indices count up within a slot and
// restart when the slot is reused.
class TimestampSource {
 public:
  static constexpr int kRing = 4;
  virtual ~TimestampSource() = default;
  // Records a mark into slot `frame` now (in GPU order for GPU clocks); its index.
  virtual int mark(int frame) = 0;
  // Milliseconds between two marks of a slot; nullopt while not yet available (only
  // when !wait: with wait it blocks until they are).
  virtual std::optional<float> elapsed(int frame, int from, int to, bool wait) = 0;
  // The slot's marks were read: reuse them from index 0.
  virtual void reset(int frame) = 0;
};

// GL_TIMESTAMP queries, grown on demand.
class GlTimestamps final : public TimestampSource {
 public:
  int mark(int frame) override;
  std::optional<float> elapsed(int frame, int from, int to, bool wait) override;
  void reset(int frame) override { used_[frame] = 0; }

 private:
  std::array<std::vector<gl::Query>, kRing> queries_;
  std::array<int, kRing> used_{};
};

// The host's steady clock: for work that is synchronous on the CPU (wall times).
class HostClock final : public TimestampSource {
 public:
  int mark(int frame) override;
  std::optional<float> elapsed(int frame, int from, int to, bool wait) override;
  void reset(int frame) override { marks_[frame].clear(); }

 private:
  std::array<std::vector<std::chrono::steady_clock::time_point>, kRing> marks_;
};

class Profiler {
 public:
  // Ends its section when destroyed (or at end()).
  class Section {
   public:
    Section(Profiler* p, int index) : profiler_(p), index_(index) {}
    Section(Section&& o) noexcept : profiler_(o.profiler_), index_(o.index_) { o.profiler_ = nullptr; }
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;
    Section& operator=(Section&&) = delete;
    ~Section() { end(); }
    void end();

   private:
    Profiler* profiler_;
    int index_;
  };

  // Opens a section now on `clock`. The name is what is listed; the tag (may be empty)
  // which implementation ran.
  [[nodiscard]] Section section(TimestampSource& clock, std::string_view name,
                                std::string_view tag = {});
  // Closes the frame and hands every finished older frame's sections to `history`; waits
  // only for the slot about to be reused, which is kRing frames old.
  void endFrame(ProfileHistory& history);
  // Waits for every pending frame (at exit, so the summary is complete).
  void drain(ProfileHistory& history);
  // A backend's clock is going away (the backend is replaced, Pipeline::replaceBackend):
  // drop the pending sections on every clock but the profiler's own, which stay.
  void forgetOtherClocks();
  // The GL timeline, shared by every GL stage.
  GlTimestamps& gl() { return gl_; }
  // Wall time on the host, for stages without a clock of their own.
  HostClock& host() { return host_; }

 private:
  struct Open {
    std::string name, tag;
    TimestampSource* clock;
    int begin, end = -1;
  };
  struct Frame {
    std::vector<Open> sections;
    bool pending = false;
  };
  bool collect(Frame& frame, int slot, ProfileHistory& history, bool wait);
  std::array<Frame, TimestampSource::kRing> frames_;
  int current_ = 0;
  GlTimestamps gl_;
  HostClock host_;
};

// A hand-over section: mapping or unmapping interop resources ("map", "dof unmap", ...),
// not a stage's own work.
bool isHandOver(std::string_view section);

// Every sample of every section, in the order sections first appeared.
class ProfileHistory {
 public:
  void add(const std::string& name, float ms, const std::string& tag = {});
  const std::vector<std::string>& names() const { return order_; }
  std::optional<float> median(const std::string& name) const;
  std::optional<float> smoothed(const std::string& name) const;  // for on-screen display
  std::size_t count(const std::string& name) const;
  // The last `n` samples of a section, oldest first (the panel's rolling plots).
  std::vector<float> recent(const std::string& name, std::size_t n) const;
  // Smoothed time per tag (implementation) of a section, as used so far.
  const std::map<std::string, float>& tagTimes(const std::string& name) const;
  // How many samples of a section carried `tag`, and the median of the last `n` of them
  // (at most kTagRecent): what that implementation measured when it last ran.
  std::size_t tagCount(const std::string& name, const std::string& tag) const;
  std::optional<float> tagRecentMedian(const std::string& name, const std::string& tag, std::size_t n) const;
  static constexpr std::size_t kTagRecent = 16;

  // Where a frame's time goes, from the medians (or, smoothed, for the panel): the stages'
  // own work, the hand-over sections (interop map / unmap), and the rest of the frame's
  // wall time, which is what the pipeline loses between stages (waits, bubbles).
  struct Budget {
    float stages = 0, handOvers = 0, frame = 0;
    float overhead() const { return frame - stages; }  // hand-overs and gaps together
  };
  std::optional<Budget> budget(const std::string& frameSection, bool smoothedValues) const;

 private:
  struct Stats {
    std::vector<float> samples;
    float smoothed = 0;
    std::map<std::string, float> tags;
    struct TagSamples {
      std::vector<float> last;  // the last kTagRecent, oldest first
      std::size_t count = 0;
    };
    std::map<std::string, TagSamples> tagSamples;
  };
  std::map<std::string, Stats> stats_;
  std::vector<std::string> order_;
};

}  // namespace satdof

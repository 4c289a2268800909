// app/ui/lesson_view.h — the lesson in the window: a scan variant, a SAT algorithm or one
// block of a convolution variant traced at a small size (lesson/), one step at a time, in a
// window over the image. Each step is
// drawn by the code that draws `satdof lesson`'s pictures (lesson/canvas.h), so the window
// and the files show the same thing.
// Keys (app/input.h): L shows or hides it; Right / Left the next / previous step; Space
// plays (a step every kStepSeconds of the frame clock, stopping at the last) or pauses.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lesson/conv_trace.h"
#include "lesson/lookback_trace.h"
#include "lesson/sat_trace.h"
#include "lesson/scan_trace.h"

namespace satdof {

class LessonView {
 public:
  static constexpr float kStepSeconds = 0.8f;

  LessonView();

  bool shown() const { return shown_; }
  // Shows or hides it; shown, it opens on `scanVariant` (the one the app runs) where that
  // has a lesson, else on what it showed last.
  void toggle(std::string_view scanVariant = {});
  // Whose blocks the scan lessons follow: the CUDA kernels' (the default) or, on the
  // gl-compute backend, the GLSL block scans' with the GL's subgroup width.
  void setScanTarget(const lesson::ScanTarget& target);
  // Whose convolutions it lists: the CUDA kernels' (the default) or, on the gl-compute
  // backend, its GLSL shaders'. Showing one, it shows the other list's at the same place.
  void setConvBackend(lesson::ConvBackend backend);
  // Shows the lesson `name` (a traced scan variant, SAT algorithm or convolution variant),
  // with `size` its n, the image's side or the radius where given; false: no such lesson.
  bool select(std::string_view name, std::optional<int> size = {});
  // Every lesson's name, in the list's order.
  std::vector<std::string> names() const;
  void step(int delta);  // by `delta` steps, within the first and the last
  void togglePlay();
  void advance(float seconds);  // the frame clock: plays on while playing
  int currentStep() const { return step_; }
  int steps() const;
  bool playing() const { return playing_; }
  // What it shows, in words: "scan blelloch, n 16 in 2 blocks: step 2 of 12, up-sweep".
  std::string caption() const;
  // Its window over the image, whose right edge is at `imageRight` (window pixels).
  void draw(float imageRight);

 private:
  enum class Topic { Scan, Lookback, Sat, Conv };
  struct Lesson {
    std::string name;  // a traced scan variant, SAT algorithm or convolution variant
    Topic topic = Topic::Scan;
    std::string title() const;  // "scan: blelloch"
  };
  void retrace();

  std::vector<Lesson> lessons_;
  int lesson_ = 0;
  int n_ = 16, blocks_ = 2, satSide_ = 8, radius_ = 3;
  bool clampBorder_ = false;
  unsigned seed_ = 1;
  bool shown_ = false, playing_ = false;
  int step_ = 0;
  float clock_ = 0;
  lesson::ScanTarget target_;
  lesson::ConvBackend convBackend_ = lesson::ConvBackend::Cuda;
  std::optional<lesson::ScanTrace> scan_;
  std::optional<lesson::SatTrace> sat_;
  std::optional<lesson::ConvTrace> conv_;
  std::optional<lesson::LookbackTrace> lookback_;
  std::string problem_;  // why the trace could not be made (empty: it was)
};

}  // namespace satdof

// qa/precision_monitor.h — while a float SAT format is in use, the window measures what it
// costs the image: every two seconds (or on the panel's button) the frame's SAT source and
// depth are read back and the DoF image from the float table is compared with the exact one
// on a worker thread (precision.h); the result, when ready, becomes the panel's line and
// heatmap. Exact formats have nothing to measure.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <utility>

#include "engine/basic_types.h"
#include "engine/gl/handles.h"
#include "qa/precision.h"

namespace satdof {

class PrecisionMonitor {
 public:
  using ReadBack = std::function<std::pair<reference::ImageRgba8, reference::ImageR32F>()>;
  // Once a frame: takes a finished measurement of this format and size, and starts the
  // next when due (or `requested`).
  void update(bool requested, SatFormat format, Extent extent, const reference::DofParams& params,
              const ReadBack& readBack);
  // The format changed: what was measured no longer holds.
  void clear();
  const std::string& line() const { return line_; }
  GLuint heatmap() const { return heatmap_.get(); }

 private:
  void show(const PrecisionReport& report, Extent extent);
  std::string line_;     // the last measurement, for a float format
  gl::Texture heatmap_;  // and its heatmap
  std::future<PrecisionReport> job_;
  std::chrono::steady_clock::time_point started_{};
};

}  // namespace satdof

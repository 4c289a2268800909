// engine/content/depth_span.h — the distances a content holds, in its own units, so that the
// controls of the focus reach what it shows: a millimetre model's 1600, a room photo's
// 0.5..4 m, a built-in scene's metres alike. The panel's focal distance and focal range
// sliders span them (sliders() below); a photo's holes are told beside them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

namespace satdof::content {

struct DepthSpan {
  // The nearest and farthest distance of what is shown (a photo's depths read; a glTF
  // scene's bounds seen from its camera); both 0: not known (a built-in scene: the
  // panel's declared ranges).
  float nearest = 0, farthest = 0;
  std::string unit = "m";  // "m" (photos, the built-in scenes), "units" (a glTF file's own)
  std::size_t holes = 0;   // a photo's depth holes, filled (photo.h)
  float holeShare = 0;     // of its pixels, 0..1
  bool known() const { return nearest > 0 && farthest > nearest; }
};

struct SliderSpan {
  float lo = 0, hi = 0;
};

// The focal distance's slider: from a quarter of the nearest distance to three times the
// farthest (a focus a little in front of or behind everything stays reachable).
inline SliderSpan focalSlider(const DepthSpan& s) { return {s.nearest / 4.0f, s.farthest * 3.0f}; }
// The focal range's (the distance from focus to full blur): from an eighth of the nearest
// distance (a shallow field) to twice the farthest (nearly all sharp).
inline SliderSpan focalRangeSlider(const DepthSpan& s) { return {s.nearest / 8.0f, s.farthest * 2.0f}; }

// A slider that also reaches `value` (set elsewhere: the command line, a key, a drop), so
// that it always shows where it stands.
inline SliderSpan reaching(SliderSpan s, float value) {
  if (value > 0) {
    s.lo = std::min(s.lo, value);
    s.hi = std::max(s.hi, value);
  }
  return s;
}

// A printf format for numbers on a slider up to `hi`, with the unit: "%.2f m", "%.0f units".
inline std::string sliderFormat(float hi, const std::string& unit) {
  const char* digits = hi >= 1000.0f ? "%.0f" : hi >= 10.0f ? "%.2f" : "%.3f";
  return std::string(digits) + (unit.empty() ? "" : " " + unit);
}

}  // namespace satdof::content

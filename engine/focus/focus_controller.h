// engine/focus/focus_controller.h — where the focal plane goes and how it gets there.
//
//   click      focusAt(pixel): the depth under that pixel becomes the target
//   autofocus  Centre: keep the image centre in focus; Point: keep a chosen pixel in
//              focus (the last one clicked) while the camera moves
//   animation  the focal distance moves to its target over kAnimationSeconds (smoothstep
//              in time), so a new focus is a pull, not a jump
//
//   reach      the distances the content holds, in its units (engine/content/depth_span.h): the
//              span the panel's focus controls cover
//
// It knows no GL: the app reads the depth at probePixel() (engine/passes/depth_probe.h) and hands
// it back with onDepth(), a frame or two later.
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include "engine/basic_types.h"
#include "engine/content/depth_span.h"

namespace satdof {

enum class Autofocus { Off, Centre, Point };
const char* toString(Autofocus mode);
std::optional<Autofocus> autofocusFromName(std::string_view name);

class FocusController {
 public:
  static constexpr float kAnimationSeconds = 0.3f;

  // Focus on what is at `pixel` (and, in Point mode, keep following it).
  void focusAt(Pixel pixel);
  void setAutofocus(Autofocus mode) { mode_ = mode; }
  Autofocus autofocus() const { return mode_; }
  // The pixel whose depth the app should read for focusing now (nullopt: none needed).
  std::optional<Pixel> probePixel(int width, int height) const;
  // The depth read at the probePixel() of an earlier frame.
  void onDepth(Pixel pixel, float depth, float currentFocal);
  // Starts a pull from `from` to `depth`.
  void pullTo(float from, float depth);
  // The user moved the focus by hand: any pull in flight stops there.
  void cancel() { animating_ = false; }
  // Advances the pull by `seconds`; writes the focal distance while one is in flight.
  void update(float seconds, float& focalDistance);
  bool animating() const { return animating_; }
  std::optional<Pixel> point() const { return point_; }
  // The content's distances (set when content opens).
  void setReach(content::DepthSpan span) { reach_ = std::move(span); }
  const content::DepthSpan& reach() const { return reach_; }

 private:
  Autofocus mode_ = Autofocus::Off;
  std::optional<Pixel> pending_;  // a click waiting for its depth
  std::optional<Pixel> point_;    // Point mode's pixel
  bool animating_ = false;
  float from_ = 0, to_ = 0, elapsed_ = 0;
  content::DepthSpan reach_;
};

}  // namespace satdof

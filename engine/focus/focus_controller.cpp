// engine/focus/focus_controller.cpp — see focus_controller.h.
#include "engine/focus/focus_controller.h"

#include <algorithm>
#include <cmath>

namespace satdof {

const char* toString(Autofocus mode) {
  switch (mode) {
    case Autofocus::Off: return "off";
    case Autofocus::Centre: return "centre";
    case Autofocus::Point: return "point";
  }
  return "?";
}

std::optional<Autofocus> autofocusFromName(std::string_view name) {
  for (Autofocus m : {Autofocus::Off, Autofocus::Centre, Autofocus::Point})
    if (name == toString(m)) return m;
  return std::nullopt;
}

void FocusController::focusAt(Pixel pixel) {
  pending_ = pixel;
  point_ = pixel;
}

std::optional<Pixel> FocusController::probePixel(int width, int height) const {
  if (pending_) return pending_;
  if (mode_ == Autofocus::Centre) return Pixel{width / 2, height / 2};
  if (mode_ == Autofocus::Point && point_) return point_;
  return std::nullopt;
}

void FocusController::onDepth(Pixel pixel, float depth, float currentFocal) {
  if (!std::isfinite(depth) || depth <= 0) return;
  if (pending_ && *pending_ == pixel) {
    pending_.reset();
    pullTo(currentFocal, depth);
    return;
  }
  // Autofocus: follow the depth; small changes (under 1%) are not worth a new pull.
  const float target = animating_ ? to_ : currentFocal;
  if (mode_ != Autofocus::Off && std::abs(depth - target) > 0.01f * target) pullTo(currentFocal, depth);
}

void FocusController::pullTo(float from, float depth) {
  from_ = from;
  to_ = depth;
  elapsed_ = 0;
  animating_ = true;
}

void FocusController::update(float seconds, float& focalDistance) {
  if (!animating_) return;
  elapsed_ += std::max(seconds, 0.0f);
  const float t = std::clamp(elapsed_ / kAnimationSeconds, 0.0f, 1.0f);
  const float s = t * t * (3.0f - 2.0f * t);  // smoothstep: starts and ends gently
  focalDistance = from_ + (to_ - from_) * s;
  if (t >= 1.0f) animating_ = false;
}

}  // namespace satdof

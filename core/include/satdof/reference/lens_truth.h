// satdof/reference/lens_truth.h — the parts of the accumulation-buffer ground truth that
// need no GL (the renders themselves: engine/passes/lens_truth.h).
//
// A thin lens of aperture radius A focused at view depth S1 is the average of pinhole
// renders from eyes spread over the aperture, each frustum sheared so that the plane at
// S1 keeps its place on screen. A point at view depth z then moves by a * (1 - S1 / z)
// scene units at the focal plane for an eye offset a, so it is spread over a disc of
// radius A * |1 - S1 / z| * P pixels, P the pixels per scene unit at the focal plane.
// The thin-lens circle of confusion (coc.h) is r(z) = k * |z - S1| / z = k * |1 - S1 / z|
// pixels, k = CocRamp::a: the same curve with A = k / P. The linear model,
// r = maxRadius * |z - S1| / range, grows without bound behind the focal plane; a lens
// cannot make it, so the lens truth exists for the thin-lens model only. Neither does a
// lens clamp at the max blur: where the model's radius is clamped, truth and model part.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"

namespace satdof::reference {

enum class ApertureShape {
  Disc,    // a round aperture: a point spreads over a disc of the CoC radius
  Square,  // a square one, half-side the CoC radius: the box the SAT methods average
};

struct AperturePoint {
  float x = 0, y = 0;  // on the unit aperture: the unit disc or the square [-1, 1]^2
};

// Point i of a fixed nested sequence over the unit aperture: Halton bases 2 and 3,
// mapped onto the disc by Shirley's concentric map (area-preserving, so uniform points
// stay uniform). Any first N points are well spread, and the first 2N contain the first N.
AperturePoint aperturePoint(std::size_t i, ApertureShape shape);

// The aperture radius in scene units that gives the thin-lens model's circle of
// confusion (see above); nullopt for the linear model, which no lens makes.
// `pixelsPerUnitAtFocus`: the pixels one scene unit spans at the focal distance.
std::optional<double> lensApertureRadius(const DofParams& params, int imageWidth, double pixelsPerUnitAtFocus);

// The model's blur radius in pixels at view depth `depth` before rounding and before the
// clamp at the max blur: what a lens gives a point there (thin lens), or the linear ramp.
double unclampedCocRadius(float depth, const CocRamp& ramp);

// The scene pass writes colour as c^(1/2.2) in 8 bits (shaders/scene.frag); light adds
// in linear values, so renders are averaged after decoding and encoded again.
inline constexpr double kSceneGamma = 2.2;

class LinearLightMean {
 public:
  void add(const ImageRgba8& frame);  // every frame the same size
  std::size_t count() const { return count_; }
  // The mean, encoded back to 8 bits (round to nearest); alpha 255. Frames that are all
  // equal give that frame again, byte for byte.
  ImageRgba8 mean() const;
  // The mean of the encoded bytes themselves (round to nearest): how every image-space
  // method averages, kept to tell its gamma error from its geometry.
  ImageRgba8 encodedMean() const;

 private:
  int width_ = 0, height_ = 0;
  std::vector<double> sum_;           // linear RGB per pixel
  std::vector<std::uint32_t> bytes_;  // encoded RGB per pixel
  std::size_t count_ = 0;
};

}  // namespace satdof::reference

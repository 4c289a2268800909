// satdof/reference/dof.h — the depth-of-field model, written once for the CPU and mirrored
// line for line by shaders/dof.frag (the GL test holds the two together).
//
// Circle of confusion: a box half-size in pixels, 0 at the focal distance, growing
// linearly with |depth - focal distance| and reaching maxRadius at focalRange away.
// Each output pixel is the mean of the (2r+1)^2 box around it, clipped to the image and
// divided by the clipped area; four SAT reads whatever the size. The output is opaque
// (alpha 255): a filter earlier in the pipeline may have changed alpha.
#pragma once

#include <cstdint>

#include "satdof/reference/image.h"
#include "satdof/reference/sat.h"

namespace satdof::reference {

struct DofParams {
  float focalDistance = 8.0f;  // view distance that is sharp (scene units)
  float focalRange = 6.0f;     // distance from the focal plane where blur is at its maximum
  float maxRadius = 12.0f;     // largest box half-size, pixels
};

// Box half-size in whole pixels for a pixel at linear view distance `depth`.
int cocRadius(float depth, const DofParams& params);

// Final colour of a mean: round to nearest 8-bit value.
std::uint8_t toUnorm8(float mean);

ImageRgba8 depthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params);
// Same, with a SAT the caller already has.
ImageRgba8 depthOfField(const Sat& sat, const ImageR32F& depth, const DofParams& params);

}  // namespace satdof::reference

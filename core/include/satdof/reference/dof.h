// satdof/reference/dof.h — the depth-of-field model, written once for the CPU and mirrored
// line for line by shaders/dof_common.glsl and the CUDA kernel (the tests hold them
// together, byte for byte).
//
// Circle of confusion: a box half-size in pixels from the camera model (coc.h). Each
// output pixel is the mean of the (2r+1)^2 box around it, clipped to the image and
// divided by the clipped area; four SAT reads whatever the size. With the exact uint32
// SAT the mean is rounded exactly, in integers: (2 * sum + area) / (2 * area). With
// DofParams::aperture disc, the mean over the disc of radius r made of a few boxes
// (aperture.h), 4 * kApertureBoxes reads, rounded the same way over the union's pixel
// count. The output is opaque (alpha 255): a filter earlier in the pipeline may have
// changed alpha.
#pragma once

#include <cstdint>

#include "satdof/reference/aperture.h"
#include "satdof/reference/box_mean.h"
#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"
#include "satdof/reference/sat.h"

namespace satdof::reference {

// Box half-size in whole pixels for a pixel at `depth` in an image `imageWidth` wide.
inline int cocRadius(float depth, const DofParams& params, int imageWidth) {
  return cocRadius(depth, cocRamp(params, imageWidth));
}

// The DoF image of `colour` (its SAT in `format`: the float formats round the box sums, so
// their images differ from uint32's by the format's precision). showCoc draws cocShade.
ImageRgba8 depthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params,
                        SatFormat format = SatFormat::Uint32, bool showCoc = false);
// Same, with a SAT (in any format) the caller already has.
ImageRgba8 depthOfField(const Sat& sat, const ImageR32F& depth, const DofParams& params, bool showCoc = false);

// The view of a reference table that satBoxMean reads.
inline SatView satView(const Sat& sat) {
  return {sat.values.data(), sat.width, sat.format, sat.trailer.empty() ? nullptr : sat.trailer.data()};
}

}  // namespace satdof::reference

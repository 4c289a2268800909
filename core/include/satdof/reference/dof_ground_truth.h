// satdof/reference/dof_ground_truth.h — what a lens would make of the scene, as far as
// the image can tell: every pixel scatters its colour uniformly over its own circle of
// confusion (the shape the SAT modes use, DofParams::aperture: the box, or the disc of
// slabs of aperture.h, so the comparison measures their artifacts, not the kernel's
// shape), and the scattered layers are composited by depth, near over far.
//
// Pixels with the same signed radius (negative in front of the focal plane) form one
// layer. A layer's colour and coverage at p are the sums of colour / area and 1 / area of
// the pixels whose aperture covers p (box splats by difference arrays, one per box of the
// aperture: O(pixels) per layer).
// Layers are composited front to back with the over operator and the result divided by
// the total coverage (where the visible layers leave a hole, the ones behind fill it).
// What this cannot know is what the sharp image hides behind a near object; the SAT modes
// cannot know it either.
#pragma once

#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"

namespace satdof::reference {

ImageRgba8 scatterDepthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params);

// Peak signal-to-noise ratio of the RGB channels in dB (infinity when equal).
double psnr(const ImageRgba8& a, const ImageRgba8& b);

}  // namespace satdof::reference

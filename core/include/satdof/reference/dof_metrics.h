// satdof/reference/dof_metrics.h — what `satdof quality` measures of a DoF image against
// a truth, besides the PSNR of the whole image (dof_ground_truth.h), from the frame's
// linear depth and the DoF parameters alone:
//
//   silhouette band  the pixels within `bandRadius` px (Euclidean) of a depth
//                    discontinuity, where the image-space methods differ most. A
//                    discontinuity lies between two 4-neighbours whose blur radii (the
//                    model's, clamped at the max blur, before rounding) differ by more
//                    than 1 px, or whose depths differ by a ratio above 1.5 (two surfaces
//                    apart that the clamp or the focus gives the same radius).
//   sharp and clear  the pixels whose own radius rounds to 0 (under 0.5 px) and that no
//                    nearer pixel's blur reaches: no pixel q with depth(q) < depth(p) whose
//                    box of half-size r(q) (the integer radius the DoF uses) holds p. A
//                    method should leave these exactly as the scene drew them.
#pragma once

#include <cstdint>
#include <vector>

#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"

namespace satdof::reference {

// One byte per pixel, row-major: 1 inside, 0 outside.
struct Mask {
  int width = 0, height = 0;
  std::vector<std::uint8_t> inside;
  std::size_t count() const;
};

inline constexpr int kSilhouetteBandRadius = 13;
inline constexpr float kSilhouetteDepthRatio = 1.5f;

Mask silhouetteBand(const ImageR32F& depth, const DofParams& params, int bandRadius = kSilhouetteBandRadius);
Mask sharpAndClear(const ImageR32F& depth, const DofParams& params);
// The pixels outside `mask` (e.g. those some blur reaches: outside sharpAndClear).
Mask complement(const Mask& mask);

// PSNR (dB) of the RGB channels over the mask's pixels; infinity where they are equal,
// NaN where the mask is empty.
double psnr(const ImageRgba8& a, const ImageRgba8& b, const Mask& mask);
// Percentage of the mask's pixels whose RGB bytes in `image` equal those in `sharp`;
// NaN where the mask is empty.
double identicalPercent(const ImageRgba8& image, const ImageRgba8& sharp, const Mask& mask);

// The pixels whose RGB bytes differ between `image` and `baseline`: those a method changes.
Mask differingPixels(const ImageRgba8& image, const ImageRgba8& baseline);
// The PSNR (dB, over the whole image) against `truth` of an image that equals `baseline`
// outside `differing` and `truth` inside it: the most a method that leaves the other pixels
// as the baseline has them can score, however well it does its own.
double psnrCeiling(const ImageRgba8& baseline, const ImageRgba8& truth, const Mask& differing);

}  // namespace satdof::reference

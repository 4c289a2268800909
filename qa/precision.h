// qa/precision.h — what a float SAT format costs the DoF image: the image from the float
// table against the one from the exact uint32 table, per pixel. The references of both are
// byte-identical to every GPU implementation (test_dof_gl), so this CPU measurement is the
// GPU's error too. Used by the panel (a button, a line and a heatmap) and by
// `satdof precision` (headless, any size: float32 loses bits toward the table's far
// corner, where its entries are largest: top-right on screen, as GL rows run bottom-up).
#pragma once

#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"
#include "satdof/sat_format.h"

namespace satdof {

struct PrecisionReport {
  SatFormat format = SatFormat::Float32;
  int maxError = 0;         // grey levels, largest over pixels and channels
  double psnr = 0;          // dB against the exact image (infinity when equal)
  double wrongPixels = 0;   // fraction of pixels with any error
  double wrongFarCorner = 0;   // the same, in the quarter at the table's far corner
  double wrongNearOrigin = 0;  // ... and in the quarter at its origin
  reference::ImageRgba8 heatmap;  // black: exact; blue -> red -> yellow: 1 .. maxError
};

PrecisionReport measurePrecision(const reference::ImageRgba8& colour, const reference::ImageR32F& depth,
                                 const reference::DofParams& params, SatFormat format);
// The same from the two DoF images (the exact one computed once for several formats).
PrecisionReport comparePrecision(const reference::ImageRgba8& exact, const reference::ImageRgba8& approx,
                                 SatFormat format);

}  // namespace satdof

// satdof/reference/layered_dof.h — the layered depth of field: the box blur of
// reference/dof.h without its two artifacts, still four SAT reads per pixel per field.
//
// The textbook pass blurs each pixel with the box of its own circle of confusion over the
// whole image, so (1) a blurred background pixel's box takes in a sharp object in front of
// it (a halo of the object's colour), and (2) a blurred object in front does not spread
// over the sharp background behind its silhouette (its edge stays hard). Following the
// near/far-field designs of game engines (Jimenez 2014, "Next generation post processing
// in Call of Duty: Advanced Warfare"; Unreal's and EEVEE's DoF), here with SATs:
//
//   split    every pixel q gets a weight in the near field (in front of the focal plane)
//            or the far field (behind it): w(r) = min(255, 128 r) for its integer radius r
//            (0 in focus, 128 at one pixel, 255 beyond), and two RGBA8 images hold
//            (colour * w / 255, w), premultiplied: the near and the far field.
//   tiles    the largest near radius in each 16x16 tile, dilated over the tiles within
//            maxRadius: the radius a near object's blur reaches its neighbours with.
//   SATs     one uint32 SAT of each field image (any SAT algorithm, exact).
//   compose  per pixel p (all sums from the SATs, four reads each):
//              near  = box of the dilated near radius R over the near field:
//                      premultiplied colour Σrgb / area, coverage a = Σw / (255 area)
//              back  = the textbook box blur of the pixel's own radius (the colour's
//                      SAT, any format; the pixel itself when in focus), and for a far
//                      pixel the far field over that box, normalised by its weights (sharp
//                      pixels weigh 0: no halo), mixed in by the pixel's own weight
//              out   = near + (1 - a) * back   (near over back: blurred edges spread)
// The GLSL passes (shaders/dof_layers_*.comp) mirror this line for line; the compose step
// divides in float, where GLSL's division may differ from IEEE's by an ulp, so the GPU is
// held to within one grey level of this reference (test_dof_gl), the split and the tiles
// to exact equality.
#pragma once

#include <cstdint>
#include <vector>

#include "satdof/reference/coc.h"
#include "satdof/reference/dof.h"
#include "satdof/reference/image.h"
#include "satdof/reference/sat.h"

namespace satdof::reference {

constexpr int kLayerTile = 16;  // pixels per side of a near-radius tile

// The field weight of an integer radius: 0, 128, then 255.
SATDOF_HD inline int fieldWeight(int r) { return r >= 2 ? 255 : r * 128; }

struct LayerSplit {
  ImageRgba8 nearField, farField;  // premultiplied colour and weight
  int tilesX = 0, tilesY = 0;
  std::vector<std::int32_t> nearTileRadius;  // dilated, tilesX * tilesY
};

LayerSplit splitLayers(const ImageRgba8& colour, const ImageR32F& depth, const CocRamp& ramp);

// The composite from the split's SATs (uint32 format) and the colour's SAT (any format).
ImageRgba8 composeLayers(const Sat& colourSat, const ImageR32F& depth, const CocRamp& ramp, const LayerSplit& split,
                         const Sat& nearSat, const Sat& farSat);

// The whole layered DoF on the CPU, the colour's SAT in `format`.
ImageRgba8 layeredDepthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params,
                               SatFormat format = SatFormat::Uint32);

}  // namespace satdof::reference

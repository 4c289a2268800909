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
//            or the far field (behind it), premultiplied into two RGBA8 images
//            (colour * w / 255, w): near w = min(255, 128 r) for its integer radius r
//            (0 in focus, 128 at one pixel, 255 beyond); far w = 255 from r = 2 on and
//            0 below, so the sharp band (the in-focus object's own edge) never enters
//            the far field that blurred background pixels gather.
//   reach    R(p), per pixel: the largest near radius r_q whose box reaches p
//            (|p - q| <= r_q on both axes), exact, in two separable passes (a row's
//            reach, then a column's over it), each window bounded by the largest near
//            radius of the 16x16 tiles within maxRadius (the tile pass): no tile steps.
//   SATs     one uint32 SAT of each field image (any SAT algorithm, exact).
//   compose  per pixel p (all sums from the SATs, four reads each):
//              a blurred near pixel (in front, r > 0): the textbook box blur of its own
//                      radius, nothing else (its box is the near object over what
//                      lies around it: counted once);
//              otherwise back = the textbook box of its own radius (the pixel itself in
//                      focus), for r >= 2 the far field over that box normalised by its
//                      weights (sharp pixels weigh 0: no halo); then the near field
//                      over the box of R(p): premultiplied colour Σrgb / area,
//                      coverage a = Σw / (255 area); out = near + (1 - a) * back
//                      (near over back: blurred edges spread). R(p) = 0 where no near
//                      blur reaches: an in-focus pixel stays the scene's, byte for byte.
//
// See-through (with the scene's second layer, BehindLayer: the nearest surface behind the
// first, drawn by depth peeling). A lens looks past the edge of a blurred near object at
// what lies behind it, and past a sharp object's edge at the blurred background it hides;
// the image holds only the object. With the second layer:
//   split    under a pixel that puts nothing in the far field (a near one, or a sharp one
//            behind the focal plane) the far field holds the second layer's pixel
//            (weighted as a far pixel, when it lies behind the focal plane): the hidden
//            background, no longer a hole that the far field's mean renormalises away.
//            Under a sharp pixel only where a surface lies behind it (not emptyDepth:
//            nothing lies under a floor, and a lens sees past an edge only what is there).
//            A third field, the far side, holds every first-layer pixel behind the focal
//            plane (colour, 255), sharp ones included.
//   compose  a blurred near pixel p whose second layer lies behind the focal plane: its
//            own box as before, but what that box shows of the far side (the far-side
//            field over it: n pixels, colour sum S) is replaced by what lies behind p (the
//            second layer's pixel, or for r >= 2 of its own radius the far field over
//            that box, normalised): out = box + (n * behind - S) / area. Inside an object
//            (n = 0), on a surface that runs through the focal plane (its near side holds
//            no far-side pixel) and over a blurred near second layer, the box alone.
//
// Linear light (see-through-linear). The scene pass stores c^(1/kSceneGamma) (lens_truth.h)
// and every step above averages those encoded bytes, where a lens averages light: a
// blurred black-and-white checker comes out at byte 128, not the 186 of half the light.
// With `linear`, every field holds light instead, and the composite works in it:
//   split    each byte c decodes to 4080 (c / 255)^gamma (LinearLightTables::decode:
//            sixteenths of a linear byte, 12 bits), premultiplied by the field's weight
//            and stored in 8 bits with a 4x4 ordered dither (linearByte): a box's mean
//            keeps the sixteenths that rounding each pixel would lose (a dark wall at
//            byte 20 is 0.94 linear bytes). A fourth field holds the image itself so.
//            The fields stay RGBA8, so every SAT algorithm builds their tables.
//   compose  the same formulas over the linear fields, the textbook box read from the
//            fourth field's SAT, the result encoded back by the thresholds between bytes
//            (LinearLightTables::threshold: exact on every GPU; a shader may guess with
//            pow() first, the thresholds decide).
//            Where nothing is blended (no near blur reaches a pixel whose radius is under
//            2), the textbook's encoded byte, so in-focus pixels stay as drawn.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "satdof/reference/coc.h"
#include "satdof/reference/dof.h"
#include "satdof/reference/image.h"
#include "satdof/reference/sat.h"

namespace satdof::reference {

constexpr int kLayerTile = 16;  // pixels per side of a near-radius tile

// The field weights of an integer radius: near 0, 128, then 255; far 0 below 2, then 255.
SATDOF_HD inline int fieldWeight(int r) { return r >= 2 ? 255 : r * 128; }
SATDOF_HD inline int farFieldWeight(int r) { return r >= 2 ? 255 : 0; }

// The scene's second layer, pixel for pixel under the first: colour and linear depth.
// The scene pass peels it from secondLayerFrom(ramp) on: what lies behind a blurred near
// object is what it hides of the sharp or far scene, not another near surface (another
// part of the same object, which would show nothing of the background).
// `emptyDepth`: the depth it holds where nothing lies behind the first layer (the scene
// pass's sky); infinity when every pixel holds a surface.
struct BehindLayer {
  const ImageRgba8& colour;
  const ImageR32F& depth;
  float emptyDepth = std::numeric_limits<float>::infinity();
};

struct LayerSplit {
  ImageRgba8 nearField, farField;  // premultiplied colour and weight
  ImageRgba8 farSide;              // see-through only: the first layer's far-side pixels
  ImageRgba8 linearColour;         // linear light only: the image, dithered linear bytes
  int tilesX = 0, tilesY = 0;
  std::vector<std::int32_t> nearTileRadius;  // dilated, tilesX * tilesY
};

// With `behind`, the see-through split (the far field filled under near pixels, farSide).
// The nearest depth that is not a blurred near pixel's (cocRadius 0 from here to the focus
// and beyond): where the second layer starts. Exact to the float.
float secondLayerFrom(const CocRamp& ramp);

// A second-layer pixel the see-through composite uses: not a blurred near one.
SATDOF_HD inline bool behindCounts(float behindDepth, const CocRamp& ramp) {
  return !(behindDepth < ramp.focus && cocRadius(behindDepth, ramp) > 0);
}

// The encoding's buckets: a positive float's top 16 bits (its exponent and the first 7
// bits of its mantissa) from kEncodeFirstBucket on, so that a bucket spans at most 2^-7 of
// its start, less than the nearest thresholds' ratio (255.5 / 254.5)^gamma - 1 = 0.0087:
// a bucket holds at most one threshold. The first is below threshold[1] (2.8e-4), the last
// holds 255.
inline constexpr std::uint32_t kEncodeFirstBucket = 0x3900u;  // 2^-13 = 1.2e-4
inline constexpr int kEncodeBuckets = 0x4380 - int(kEncodeFirstBucket);  // up to 256.0: 2688

// Linear light's tables (computed once, in double): decode[b] = round(4080 (b/255)^gamma),
// threshold[b] (b >= 1) = 255 ((b - 1/2) / 255)^gamma as a float, threshold[0] = 0;
// bucketStart[i] = encodeLinear of bucket i's smallest float.
struct LinearLightTables {
  std::array<std::uint32_t, 256> decode;
  std::array<float, 256> threshold;
  std::array<std::uint8_t, kEncodeBuckets> bucketStart;
};
const LinearLightTables& linearLightTables();

// The 4x4 ordered-dither offset of pixel (x, y): 0 .. 15 sixteenths (Bayer's matrix).
SATDOF_HD inline std::uint32_t ditherOffset(int x, int y) {
  constexpr std::uint32_t kBayer4[16] = {0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5};
  return kBayer4[(y & 3) * 4 + (x & 3)];
}

// A decoded channel (sixteenths) premultiplied by `weight` and dithered to a linear byte.
SATDOF_HD inline std::uint8_t linearByte(std::uint32_t decoded, int weight, int x, int y) {
  const std::uint32_t premultiplied = (decoded * std::uint32_t(weight) + 127u) / 255u;  // <= 4080
  return std::uint8_t((premultiplied + ditherOffset(x, y)) >> 4);
}

// A linear value (in bytes, 0 .. 255) encoded back: the largest b whose threshold it reaches
// (a binary search over the thresholds).
std::uint8_t encodeLinear(float v, const LinearLightTables& tables);

// The same byte as the shaders find it, with one comparison: v's bucket's first byte b,
// then b + 1 where v reaches threshold[b + 1] (the bucket's only threshold, if any).
std::uint8_t encodeLinearByBucket(float v, const LinearLightTables& tables);

// `linear`: the fields in linear light, and LayerSplit::linearColour.
LayerSplit splitLayers(const ImageRgba8& colour, const ImageR32F& depth, const CocRamp& ramp,
                       const BehindLayer* behind = nullptr, bool linear = false);

// A blurred near pixel's radius (0 elsewhere): what the reach passes start from.
SATDOF_HD inline int nearRadiusOf(float depth, int r, const CocRamp& ramp) {
  return depth < ramp.focus && fieldWeight(r) > 0 ? r : 0;
}

// One separable reach pass over `in` (width x height, row-major) along x (alongRows) or
// y: out(p) = the largest in(q) with q on p's line and |p - q| <= in(q), q within the
// tile bound of p's tile. Rows over the near radii, then columns over the rows' result,
// give R(p) exactly.
std::vector<std::int32_t> reachPass(const std::vector<std::int32_t>& in, int width, int height, const LayerSplit& split,
                                    bool alongRows);

// R(p) for every pixel (reach over the near radii, rows then columns).
std::vector<std::int32_t> nearReach(const ImageR32F& depth, const CocRamp& ramp, const LayerSplit& split);

// The composite from the split's SATs (uint32 format), the colour's SAT (any format) and
// the reach R(p) (nearReach); every box of the description above is the aperture's
// shape (aperture.h: the box, or the disc of slabs), the reach stays the box's.
// With `behind` (and farSideSat, the SAT of the split's farSide), see-through. With
// linearColourSat (the SAT of a linear split's linearColour), in linear light.
ImageRgba8 composeLayers(const Sat& colourSat, const ImageR32F& depth, const CocRamp& ramp, Aperture aperture,
                         const std::vector<std::int32_t>& reach, const Sat& nearSat, const Sat& farSat,
                         const BehindLayer* behind = nullptr, const Sat* farSideSat = nullptr,
                         const Sat* linearColourSat = nullptr);

// The whole layered DoF on the CPU, the colour's SAT in `format`; see-through with `behind`;
// in linear light with `linear`.
ImageRgba8 layeredDepthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params,
                               SatFormat format = SatFormat::Uint32, const BehindLayer* behind = nullptr,
                               bool linear = false);

}  // namespace satdof::reference

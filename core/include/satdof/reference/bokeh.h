// satdof/reference/bokeh.h — bokeh highlights: bright pixels that are well out of focus,
// drawn as shaped sprites the size of their circle of confusion, as a lens makes them.
//
//   select   a pixel is a highlight when
//              * its luminance (8-bit, Rec. 709 weights in integers: (54 r + 183 g +
//                19 b) >> 8) is above the threshold (the floor: nothing dim qualifies),
//              * it outshines its surroundings in linear light: of the 8k pixels of the
//                square ring at distance k around it (k = bokehRingRadius(width), about
//                1/96 of the image width), at most k (an eighth) have a linear luminance
//                of at least 1/contrast of its own; ring pixels outside the image do not
//                count (bokehOutshines), and
//              * its circle of confusion has at least minRadius pixels (in focus it stays
//                a point);
//            its score is the luminance, 0 when it is not a highlight, and the selection
//            is the stream compaction of the scores (satdof/compact.h), in pixel order;
//   cap      at most maxSprites are kept: the first in pixel order (the count says how many
//            there were, so the user is told);
//   order    back to front: a radix sort (satdof/sort.h) of the kept highlights by a key
//            that falls as depth grows (~ the float's bits), ties in pixel order (stable);
//   sprites  (x + 0.5, y + 0.5, radius, depth) and the colour, for GL to draw, with a
//            draw-indirect command (BokehCommand) that says how many.
// Why a ring and not the mean of a box: a lamp on the sky outshines what is around it by
// the ratio of the two (an 8-bit image holds no more), about 2.5 in the default scene; the
// corner of a white wall on a floor of 5 % of its light outshines a box's mean by 3.5
// (the box is a quarter white), an edge by 1.9. What a lamp or a glint has and a white
// surface lacks is its size: everything around it at some distance is darker. A white
// surface larger than the ring has bright pixels on a quarter of the ring or more at a
// corner, and on half of it along an edge; a lamp or a glint narrower than k has none, so
// an eighth leaves room for another small light or noise on the ring. The radius follows
// the image width, as the circle of confusion does (cocRamp): the same picture at every
// size.
// Linear light: each byte decodes as the scene pass encodes (c^(1/kSceneGamma),
// lens_truth.h), to sixteenths of a linear byte, 4080 (c / 255)^2.2 rounded
// (bokehLinearByte: the values of LinearLightTables::decode, layered_dof.h); the luminance
// weighs them as above, (54 R + 183 G + 19 B) >> 8, 0 .. 4080. Integers only: every
// backend selects exactly the same pixels (shaders/compute/bokeh_select.glsl mirrors this).
// The reference defines the list; every backend's pass (CUDA: satdof/bokeh.h; GLSL:
// shaders/compute/bokeh_*.comp; the CPU backend uploads this one) must give it exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"

namespace satdof::reference {

struct BokehSettings {
  std::uint32_t threshold = 240;  // (encoded) luminance above which a pixel may be a highlight
  std::uint32_t contrast = 32;    // in sixteenths (32: 2x): how far it must outshine its ring
  int minRadius = 4;              // circle of confusion below this: no sprite
  std::uint32_t maxSprites = 8192;
};

// 32 bytes, the layout of the GL storage block the sprite shader reads (std430).
struct BokehSprite {
  float x, y, radius, depth;
  std::uint32_t rgba;  // r | g << 8 | b << 16 | 255 << 24
  std::uint32_t pad[3];
};

// What the GL draw reads: glDrawArraysIndirect's command (a 4-vertex strip per sprite,
// instanceCount sprites), then how many highlights there were before the cap.
struct BokehCommand {
  std::uint32_t count = 4, instanceCount = 0, first = 0, baseInstance = 0;
  std::uint32_t found = 0;
};

SATDOF_HD inline std::uint32_t bokehLuminance(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return (54 * r + 183 * g + 19 * b) >> 8;
}

// The contrast a user sets (how many times brighter, 1 .. 16) in the sixteenths above.
inline constexpr std::uint32_t kBokehContrastOne = 16;
inline constexpr std::uint32_t kBokehContrastMax = 16 * kBokehContrastOne;

// A byte's light in sixteenths of a linear byte: 4080 (c / 255)^2.2, rounded.
SATDOF_HD inline std::uint32_t bokehLinearByte(std::uint32_t c) {
  static constexpr std::uint16_t kDecode[256] = {
      0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8,
      9, 11, 12, 13, 15, 17, 19, 21, 23, 25, 27, 29, 32, 34, 37, 40,
      42, 45, 48, 52, 55, 58, 62, 66, 69, 73, 77, 81, 85, 90, 94, 99,
      104, 108, 113, 118, 123, 129, 134, 140, 145, 151, 157, 163, 169, 175, 182, 188,
      195, 202, 209, 216, 223, 230, 237, 245, 253, 260, 268, 276, 284, 293, 301, 310,
      318, 327, 336, 345, 355, 364, 373, 383, 393, 403, 413, 423, 433, 444, 454, 465,
      476, 487, 498, 509, 520, 532, 543, 555, 567, 579, 591, 604, 616, 629, 642, 655,
      668, 681, 694, 708, 721, 735, 749, 763, 777, 791, 806, 820, 835, 850, 865, 880,
      896, 911, 927, 942, 958, 974, 991, 1007, 1023, 1040, 1057, 1074, 1091, 1108, 1125, 1143,
      1161, 1178, 1196, 1214, 1233, 1251, 1270, 1288, 1307, 1326, 1345, 1365, 1384, 1404, 1423, 1443,
      1463, 1484, 1504, 1524, 1545, 1566, 1587, 1608, 1629, 1651, 1672, 1694, 1716, 1738, 1760, 1782,
      1805, 1827, 1850, 1873, 1896, 1919, 1943, 1966, 1990, 2014, 2038, 2062, 2087, 2111, 2136, 2160,
      2185, 2211, 2236, 2261, 2287, 2313, 2338, 2365, 2391, 2417, 2444, 2470, 2497, 2524, 2551, 2579,
      2606, 2634, 2662, 2690, 2718, 2746, 2774, 2803, 2832, 2861, 2890, 2919, 2949, 2978, 3008, 3038,
      3068, 3098, 3128, 3159, 3190, 3220, 3251, 3283, 3314, 3345, 3377, 3409, 3441, 3473, 3505, 3538,
      3571, 3603, 3636, 3669, 3703, 3736, 3770, 3804, 3838, 3872, 3906, 3941, 3975, 4010, 4045, 4080,
  };
  return kDecode[c & 255u];
}

// Linear luminance, 0 .. 4080: the weights of bokehLuminance over the decoded channels.
SATDOF_HD inline std::uint32_t bokehLinearLuminance(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return (54 * bokehLinearByte(r) + 183 * bokehLinearByte(g) + 19 * bokehLinearByte(b)) >> 8;
}

// The ring's distance k for an image `width` pixels wide: 7 at 640, 14 at 1280, 41 at 3840.
SATDOF_HD inline int bokehRingRadius(int width) { return width / 96 + 1; }

// Whether pixel (x, y) of a width x height image outshines its ring (see select above):
// `luminanceAt(x, y)` gives bokehLinearLuminance of a pixel inside the image. The ring is
// walked side by side (top left to right, right top to bottom, bottom right to left, left
// bottom to top), stopping once more than an eighth is bright; the answer does not depend
// on the order. Products: 16 * 4080, and contrast * 4080, below 2^21 for a contrast up to
// kBokehContrastMax (a larger one wraps alike on every backend: unsigned 32-bit).
template <class LuminanceAt>
SATDOF_HD inline bool bokehOutshines(int x, int y, int width, int height, std::uint32_t contrast,
                                     const LuminanceAt& luminanceAt) {
  const int k = bokehRingRadius(width);
  const std::uint32_t own = 16u * luminanceAt(x, y);
  int bright = 0;
  for (int i = 0; i < 8 * k; ++i) {
    const int side = i / (2 * k), t = i % (2 * k);
    int dx, dy;
    if (side == 0) dx = t - k, dy = -k;
    else if (side == 1) dx = k, dy = t - k;
    else if (side == 2) dx = k - t, dy = k;
    else dx = -k, dy = k - t;
    const int qx = x + dx, qy = y + dy;
    if (qx < 0 || qy < 0 || qx >= width || qy >= height) continue;  // nothing beyond the image
    if (own <= contrast * luminanceAt(qx, qy) && ++bright > k) return false;
  }
  return true;
}

// Back to front: larger depth first. Positive floats order like their bits.
SATDOF_HD inline std::uint32_t bokehDepthKey(std::uint32_t depthBits) { return ~depthBits; }

struct BokehList {
  std::uint32_t found = 0;           // highlights before the cap
  std::vector<BokehSprite> sprites;  // min(found, maxSprites), back to front
};

inline BokehCommand bokehCommand(const BokehList& list) {
  BokehCommand c;
  c.instanceCount = std::uint32_t(list.sprites.size());
  c.found = list.found;
  return c;
}

BokehList bokehHighlights(const ImageRgba8& colour, const ImageR32F& depth, const CocRamp& ramp,
                          const BokehSettings& settings);

}  // namespace satdof::reference

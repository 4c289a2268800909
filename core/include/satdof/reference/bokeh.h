// satdof/reference/bokeh.h — bokeh highlights: bright pixels that are well out of focus,
// drawn as shaped sprites the size of their circle of confusion, as a lens makes them.
//
//   select   a pixel is a highlight when its luminance (8-bit, Rec. 709 weights in
//            integers: (54 r + 183 g + 19 b) >> 8) is above the threshold and its circle
//            of confusion has at least minRadius pixels (in focus it stays a point);
//            its score is the luminance, 0 when it is not a highlight, and the selection
//            is the stream compaction of the scores (satdof/compact.h), in pixel order;
//   cap      at most maxSprites are kept: the first in pixel order (the count says how many
//            there were, so the user is told);
//   order    back to front: a radix sort (satdof/sort.h) of the kept highlights by a key
//            that falls as depth grows (~ the float's bits), ties in pixel order (stable);
//   sprites  (x + 0.5, y + 0.5, radius, depth) and the colour, for GL to draw, with a
//            draw-indirect command (BokehCommand) that says how many.
// The reference defines the list; every backend's pass (CUDA: satdof/bokeh.h; GLSL:
// shaders/compute/bokeh_*.comp; the CPU backend uploads this one) must give it exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "satdof/reference/coc.h"
#include "satdof/reference/image.h"

namespace satdof::reference {

struct BokehSettings {
  std::uint32_t threshold = 240;  // luminance above which a pixel is a highlight
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

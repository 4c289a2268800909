// Reference layered depth of field (see satdof/reference/layered_dof.h). The GLSL passes
// shaders/dof_layers_split.comp, dof_layers_dilate.comp and dof_layered.comp mirror it.
#include "satdof/reference/layered_dof.h"

#include <algorithm>
#include <cmath>

namespace satdof::reference {
namespace {

// (c * w + 127) / 255: the premultiplied channel, rounded to nearest.
std::uint8_t premultiply(std::uint8_t c, int w) { return std::uint8_t((int(c) * w + 127) / 255); }

struct BoxSums {
  std::uint32_t rgb[3];
  std::uint32_t weight;
  std::uint32_t area;
};

BoxSums sumsOver(const Sat& sat, int x, int y, int r) {
  const Box b = clipBox({x - r, y - r, x + r, y + r}, sat.width, sat.height);
  BoxSums s;
  for (int c = 0; c < 3; ++c) s.rgb[c] = boxSum(sat, b, c);
  s.weight = boxSum(sat, b, 3);
  s.area = std::uint32_t(b.x1 - b.x0 + 1) * std::uint32_t(b.y1 - b.y0 + 1);
  return s;
}

}  // namespace

LayerSplit splitLayers(const ImageRgba8& colour, const ImageR32F& depth, const CocRamp& ramp) {
  const int w = colour.width, h = colour.height;
  LayerSplit s{ImageRgba8(w, h), ImageRgba8(w, h), (w + kLayerTile - 1) / kLayerTile,
               (h + kLayerTile - 1) / kLayerTile, {}};
  std::vector<std::int32_t> tileMax(std::size_t(s.tilesX) * s.tilesY, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      const int r = cocRadius(d, ramp);
      const bool nearSide = d < ramp.focus;
      const int weight = fieldWeight(r);
      const std::uint8_t* c = colour.at(x, y);
      std::uint8_t* field = (nearSide ? s.nearField : s.farField).at(x, y);
      for (int i = 0; i < 3; ++i) field[i] = premultiply(c[i], weight);
      field[3] = std::uint8_t(weight);
      if (nearSide && weight > 0) {
        auto& m = tileMax[std::size_t(y / kLayerTile) * s.tilesX + x / kLayerTile];
        m = std::max(m, r);
      }
    }
  // Dilate: a near object's blur reaches maxRadius pixels, that is this many tiles.
  const int reach = (ramp.maxRadius + kLayerTile - 1) / kLayerTile;
  s.nearTileRadius.assign(tileMax.size(), 0);
  for (int ty = 0; ty < s.tilesY; ++ty)
    for (int tx = 0; tx < s.tilesX; ++tx) {
      std::int32_t m = 0;
      for (int j = std::max(0, ty - reach); j <= std::min(s.tilesY - 1, ty + reach); ++j)
        for (int i = std::max(0, tx - reach); i <= std::min(s.tilesX - 1, tx + reach); ++i)
          m = std::max(m, tileMax[std::size_t(j) * s.tilesX + i]);
      s.nearTileRadius[std::size_t(ty) * s.tilesX + tx] = m;
    }
  return s;
}

ImageRgba8 composeLayers(const Sat& colourSat, const ImageR32F& depth, const CocRamp& ramp, const LayerSplit& split,
                         const Sat& nearSat, const Sat& farSat) {
  const int w = colourSat.width, h = colourSat.height;
  const SatView colourTable = satView(colourSat);
  ImageRgba8 out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      const int r = cocRadius(d, ramp);
      // Near field over the dilated radius: premultiplied colour and coverage.
      float nearColour[3] = {0, 0, 0}, coverage = 0;
      const int reach = split.nearTileRadius[std::size_t(y / kLayerTile) * split.tilesX + x / kLayerTile];
      if (reach > 0) {
        const BoxSums n = sumsOver(nearSat, x, y, reach);
        for (int c = 0; c < 3; ++c) nearColour[c] = float(n.rgb[c]) / float(n.area);
        coverage = std::min(1.0f, float(n.weight) / (255.0f * float(n.area)));
      }
      // What lies behind: the textbook blur of the pixel's box; a far pixel's far field.
      const Box box = clipBox({x - r, y - r, x + r, y + r}, w, h);
      const Rgb8 textbook = satBoxMean(colourTable, box.x0, box.y0, box.x1, box.y1);
      float back[3] = {float(textbook.r), float(textbook.g), float(textbook.b)};
      if (d >= ramp.focus && r > 0) {
        const BoxSums f = sumsOver(farSat, x, y, r);
        if (f.weight > 0) {
          const float mix = float(fieldWeight(r)) / 255.0f;
          for (int c = 0; c < 3; ++c) {
            const float gathered = float(f.rgb[c]) * 255.0f / float(f.weight);
            back[c] = back[c] + (gathered - back[c]) * mix;
          }
        }
      }
      std::uint8_t* o = out.at(x, y);
      for (int c = 0; c < 3; ++c) {
        const float v = nearColour[c] + (1.0f - coverage) * back[c];
        o[c] = std::uint8_t(std::clamp(std::floor(v + 0.5f), 0.0f, 255.0f));
      }
      o[3] = 255;
    }
  return out;
}

ImageRgba8 layeredDepthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params,
                               SatFormat format) {
  const CocRamp ramp = cocRamp(params, colour.width);
  const LayerSplit split = splitLayers(colour, depth, ramp);
  return composeLayers(computeSat(colour, format), depth, ramp, split, computeSat(split.nearField),
                       computeSat(split.farField));
}

}  // namespace satdof::reference

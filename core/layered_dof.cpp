// Reference layered depth of field (see satdof/reference/layered_dof.h). The GLSL passes
// shaders/dof_layers_split.comp, dof_layers_dilate.comp and dof_layered.comp mirror it.
#include "satdof/reference/layered_dof.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "satdof/reference/fp_environment.h"
#include "satdof/reference/lens_truth.h"

namespace satdof::reference {
namespace {

// (c * w + 127) / 255: the premultiplied channel, rounded to nearest.
std::uint8_t premultiply(std::uint8_t c, int w) { return std::uint8_t((int(c) * w + 127) / 255); }

struct BoxSums {
  std::uint32_t rgb[3];
  std::uint32_t weight;
  std::uint32_t area;
};

// Sums over the aperture of radius r around (x, y), clipped to the image (exact: uint32).
BoxSums sumsOver(const Sat& sat, Aperture aperture, int x, int y, int r) {
  BoxSums s{{0, 0, 0}, 0, 0};
  for (int i = 0; i < apertureBoxCount(aperture); ++i) {
    ApertureBox a;
    if (!apertureBox(aperture, x, y, r, i, sat.width, sat.height, a)) continue;
    const Box b{a.x0, a.y0, a.x1, a.y1};
    for (int c = 0; c < 3; ++c) s.rgb[c] += boxSum(sat, b, c);
    s.weight += boxSum(sat, b, 3);
    s.area += boxArea(a);
  }
  return s;
}

// The far field's mean over the aperture of radius r into `back`, where r >= 2 and the
// far field holds something there; `back` kept otherwise.
void farFieldMean(const Sat& farSat, Aperture aperture, int x, int y, int r, float back[3]) {
  if (farFieldWeight(r) == 0) return;
  const BoxSums f = sumsOver(farSat, aperture, x, y, r);
  if (f.weight > 0)
    for (int c = 0; c < 3; ++c) back[c] = float(f.rgb[c]) * 255.0f / float(f.weight);
}

// A composited channel, rounded to the nearest byte.
std::uint8_t toByte(float v) { return std::uint8_t(std::clamp(std::floor(v + 0.5f), 0.0f, 255.0f)); }

}  // namespace

const LinearLightTables& linearLightTables() {
  static const LinearLightTables tables = [] {
    LinearLightTables t{};
    for (int b = 0; b < 256; ++b) {
      t.decode[std::size_t(b)] = std::uint32_t(std::lround(4080.0 * std::pow(b / 255.0, kSceneGamma)));
      t.threshold[std::size_t(b)] = b == 0 ? 0.0f : float(255.0 * std::pow((b - 0.5) / 255.0, kSceneGamma));
    }
    for (int i = 0; i < kEncodeBuckets; ++i)
      t.bucketStart[std::size_t(i)] = encodeLinear(std::bit_cast<float>((kEncodeFirstBucket + std::uint32_t(i)) << 16), t);
    return t;
  }();
  return tables;
}

std::uint8_t encodeLinear(float v, const LinearLightTables& tables) {
  int b = 0;
  for (int step = 128; step > 0; step /= 2)
    if (b + step <= 255 && v >= tables.threshold[std::size_t(b + step)]) b += step;
  return std::uint8_t(b);
}

std::uint8_t encodeLinearByBucket(float v, const LinearLightTables& tables) {
  // v > 0, not max(v, 0): -0 and NaN go to byte 0 as in the search.
  const std::int64_t bucket = std::int64_t(std::bit_cast<std::uint32_t>(v > 0.0f ? v : 0.0f) >> 16) - kEncodeFirstBucket;
  if (bucket < 0) return 0;
  if (bucket >= kEncodeBuckets) return 255;
  const int b = tables.bucketStart[std::size_t(bucket)];
  return std::uint8_t(b < 255 && v >= tables.threshold[std::size_t(b + 1)] ? b + 1 : b);
}

LayerSplit splitLayers(const ImageRgba8& colour, const ImageR32F& depth, const CocRamp& ramp,
                       const BehindLayer* behind, bool linear) {
  const int w = colour.width, h = colour.height;
  LayerSplit s{ImageRgba8(w, h),
               ImageRgba8(w, h),
               ImageRgba8(behind ? w : 0, behind ? h : 0),
               ImageRgba8(linear ? w : 0, linear ? h : 0),
               (w + kLayerTile - 1) / kLayerTile,
               (h + kLayerTile - 1) / kLayerTile,
               {}};
  const LinearLightTables& tables = linearLightTables();
  // A channel of the image or the second layer, premultiplied by a field's weight: in
  // encoded bytes, or in linear light.
  auto fieldByte = [&](std::uint8_t c, int weight, int x, int y) {
    return linear ? linearByte(tables.decode[c], weight, x, y) : premultiply(c, weight);
  };
  std::vector<std::int32_t> tileMax(std::size_t(s.tilesX) * s.tilesY, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      const int r = cocRadius(d, ramp);
      const bool nearSide = d < ramp.focus;
      const int weight = nearSide ? fieldWeight(r) : farFieldWeight(r);
      const std::uint8_t* c = colour.at(x, y);
      std::uint8_t* field = (nearSide ? s.nearField : s.farField).at(x, y);
      for (int i = 0; i < 3; ++i) field[i] = fieldByte(c[i], weight, x, y);
      field[3] = std::uint8_t(weight);
      if (linear) {
        std::uint8_t* l = s.linearColour.at(x, y);
        for (int i = 0; i < 3; ++i) l[i] = fieldByte(c[i], 255, x, y);
        l[3] = 255;
      }
      if (behind) {
        std::uint8_t* side = s.farSide.at(x, y);
        for (int i = 0; i < 4; ++i) side[i] = nearSide ? 0 : i < 3 ? fieldByte(c[i], 255, x, y) : 255;
        // Under a pixel with nothing in the far field, the hidden background: the second
        // layer's pixel, a far pixel's weight, when it lies behind the focal plane (under a
        // sharp pixel, when it is a surface).
        const float bd = behind->depth.at(x, y);
        const bool ownFar = !nearSide && weight > 0, blurredNear = nearSide && weight > 0;
        if (!ownFar && bd >= ramp.focus && (blurredNear || bd < behind->emptyDepth)) {
          const int bw = farFieldWeight(cocRadius(bd, ramp));
          const std::uint8_t* b = behind->colour.at(x, y);
          std::uint8_t* far = s.farField.at(x, y);
          for (int i = 0; i < 3; ++i) far[i] = fieldByte(b[i], bw, x, y);
          far[3] = std::uint8_t(bw);
        }
      }
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

float secondLayerFrom(const CocRamp& ramp) {
  // cocRadius falls towards the focus on the near side: the first depth where it is 0.
  float lo = 0.0f, hi = ramp.focus;  // cocRadius(hi) == 0
  if (cocRadius(lo, ramp) == 0) return lo;
  while (std::nextafter(lo, hi) < hi) {
    const float mid = lo + 0.5f * (hi - lo);
    if (mid <= lo || mid >= hi) break;
    (cocRadius(mid, ramp) == 0 ? hi : lo) = mid;
  }
  return hi;
}

std::vector<std::int32_t> reachPass(const std::vector<std::int32_t>& in, int width, int height, const LayerSplit& split,
                                    bool alongRows) {
  std::vector<std::int32_t> out(in.size(), 0);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int bound = split.nearTileRadius[std::size_t(y / kLayerTile) * split.tilesX + x / kLayerTile];
      std::int32_t m = 0;
      for (int k = -bound; k <= bound; ++k) {
        const int qx = alongRows ? x + k : x, qy = alongRows ? y : y + k;
        if (qx < 0 || qy < 0 || qx >= width || qy >= height) continue;
        const std::int32_t n = in[std::size_t(qy) * width + qx];
        if (n >= std::abs(k)) m = std::max(m, n);
      }
      out[std::size_t(y) * width + x] = m;
    }
  return out;
}

std::vector<std::int32_t> nearReach(const ImageR32F& depth, const CocRamp& ramp, const LayerSplit& split) {
  const int w = depth.width, h = depth.height;
  std::vector<std::int32_t> radius(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      radius[std::size_t(y) * w + x] = nearRadiusOf(d, cocRadius(d, ramp), ramp);
    }
  return reachPass(reachPass(radius, w, h, split, true), w, h, split, false);
}

ImageRgba8 composeLayers(const Sat& colourSat, const ImageR32F& depth, const CocRamp& ramp, Aperture aperture,
                         const std::vector<std::int32_t>& reach, const Sat& nearSat, const Sat& farSat,
                         const BehindLayer* behind, const Sat* farSideSat, const Sat* linearColourSat) {
  if (behind && !farSideSat) throw std::invalid_argument("composeLayers: see-through needs the far side's SAT");
  const int w = colourSat.width, h = colourSat.height;
  const SatView colourTable = satView(colourSat);
  const LinearLightTables& tables = linearLightTables();
  const bool linear = linearColourSat != nullptr;
  // A composited colour: rounded to the nearest byte, or encoded from linear light.
  auto toOutput = [&](float v) { return linear ? encodeLinear(v, tables) : toByte(v); };
  ImageRgba8 out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      const int r = cocRadius(d, ramp);
      const Rgb8 mean = satApertureMean(colourTable, aperture, x, y, r, w, h);
      const std::uint8_t encoded[3] = {mean.r, mean.g, mean.b};
      // The textbook box of the pixel's own radius: the encoded mean, or the linear one.
      float textbook[3] = {float(encoded[0]), float(encoded[1]), float(encoded[2])};
      if (linear) {
        const BoxSums l = sumsOver(*linearColourSat, aperture, x, y, r);
        for (int c = 0; c < 3; ++c) textbook[c] = float(l.rgb[c]) / float(l.area);
      }
      std::uint8_t* o = out.at(x, y);
      o[3] = 255;
      if (nearRadiusOf(d, r, ramp) > 0) {  // a blurred near pixel: its own box, once
        for (int c = 0; c < 3; ++c) o[c] = toOutput(textbook[c]);
        const float bd = behind ? behind->depth.at(x, y) : 0.0f;
        if (!behind || !behindCounts(bd, ramp)) continue;
        // See-through: what the box shows of the far side, replaced by what lies behind.
        const BoxSums side = sumsOver(*farSideSat, aperture, x, y, r);
        if (side.weight == 0) continue;
        const std::uint8_t* b = behind->colour.at(x, y);
        float back[3];
        for (int c = 0; c < 3; ++c) back[c] = linear ? float(tables.decode[b[c]]) / 16.0f : float(b[c]);
        farFieldMean(farSat, aperture, x, y, cocRadius(bd, ramp), back);
        const float n = float(side.weight / 255u);
        for (int c = 0; c < 3; ++c)
          o[c] = toOutput(textbook[c] + (n * back[c] - float(side.rgb[c])) / float(side.area));
        continue;
      }
      const int R = reach[std::size_t(y) * w + x];
      if (R == 0 && farFieldWeight(r) == 0) {  // nothing blended: the textbook's byte
        for (int c = 0; c < 3; ++c) o[c] = encoded[c];
        continue;
      }
      // What lies behind: the pixel's own box; from r = 2 on, the far field over it.
      float back[3] = {textbook[0], textbook[1], textbook[2]};
      farFieldMean(farSat, aperture, x, y, r, back);
      // The near field over the box of the largest near blur that reaches this pixel.
      float nearColour[3] = {0, 0, 0}, coverage = 0;
      if (R > 0) {
        const BoxSums n = sumsOver(nearSat, aperture, x, y, R);
        for (int c = 0; c < 3; ++c) nearColour[c] = float(n.rgb[c]) / float(n.area);
        coverage = std::min(1.0f, float(n.weight) / (255.0f * float(n.area)));
      }
      for (int c = 0; c < 3; ++c) o[c] = toOutput(nearColour[c] + (1.0f - coverage) * back[c]);
    }
  return out;
}

ImageRgba8 layeredDepthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params,
                               SatFormat format, const BehindLayer* behind, bool linear) {
  const RoundToNearest rounding;  // the GPUs' rounding (satdof/reference/fp_environment.h)
  const CocRamp ramp = cocRamp(params, colour.width);
  const LayerSplit split = splitLayers(colour, depth, ramp, behind, linear);
  const Sat farSideSat = behind ? computeSat(split.farSide) : Sat{};
  const Sat linearColourSat = linear ? computeSat(split.linearColour) : Sat{};
  return composeLayers(computeSat(colour, format), depth, ramp, params.aperture, nearReach(depth, ramp, split),
                       computeSat(split.nearField), computeSat(split.farField), behind,
                       behind ? &farSideSat : nullptr, linear ? &linearColourSat : nullptr);
}

}  // namespace satdof::reference

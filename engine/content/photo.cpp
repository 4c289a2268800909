// engine/content/photo.cpp — see photo.h.
#include "engine/content/photo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "engine/content/content_error.h"
#include "engine/content/depth_holes.h"
#include "engine/content/image_files.h"

namespace satdof::content {
namespace {

std::string metres(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(v));
  return text;
}

std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", 100.0 * share);
  return text;
}

// The map's values as distances in metres, and where it has no reading (row 0 the top, as
// read): see photo.h.
struct Distances {
  std::vector<float> metres;       // a hole's: 0 until filled
  std::vector<std::uint8_t> holes;
  std::size_t holeCount = 0;
};

Distances toMetres(const std::filesystem::path& path, const DepthSamples& d, const DepthMapping& m) {
  const bool metric = m.encoding == DepthEncoding::Metric, scaled = m.unitsPerMetre > 0;
  if (scaled && !metric)
    throw ContentError(path, "--depth-scale applies to a metric map (a distance per value), not --depth-encoding inverse");
  if (d.isFloat() && metric && m.rangeGiven && !scaled)
    throw ContentError(path, "--depth-range applies to a normalised map (an 8- or 16-bit PNG, or --depth-encoding "
                             "inverse); this float map holds metres");
  // The value that marks a hole: --depth-invalid's, else 0 in a map in units per metre.
  const bool marksHoles = !m.noHoleValue && (m.holeValue.has_value() || (scaled && !d.isFloat()));
  const float holeValue = m.holeValue.value_or(0.0f);
  Distances out{std::vector<float>(d.values.size(), 0.0f), std::vector<std::uint8_t>(d.values.size(), 0), 0};
  float largest = 0;
  for (std::size_t i = 0; i < d.values.size(); ++i) {
    const float v = d.values[i];
    bool hole = marksHoles && v == holeValue;
    if (d.isFloat()) hole = hole || !std::isfinite(v) || (metric ? v <= 0.0f : v < 0.0f);
    if (hole) {
      out.holes[i] = 1;
      ++out.holeCount;
    } else {
      largest = std::max(largest, v);
    }
  }
  if (out.holeCount == d.values.size()) {
    const std::string why = marksHoles && !d.isFloat() ? "every value is " + metres(holeValue) + ", the value of no reading"
                                      : std::string("every value is NaN, infinite or ") + (metric ? "not positive" : "negative");
    throw ContentError(path, "has no depth reading: " + why);
  }
  if (d.isFloat() && !metric && !(largest > 0.0f))
    throw ContentError(path, "is zero everywhere: an inverse depth map needs a largest value");
  const float scale = scaled ? 1.0f / m.unitsPerMetre
                      : d.isFloat() ? (metric ? 1.0f : 1.0f / largest)
                                    : 1.0f / float((1 << d.bits) - 1);
  const float nearM = m.nearMetres, farM = m.farMetres;
  for (std::size_t i = 0; i < out.metres.size(); ++i) {
    if (out.holes[i]) continue;
    const float v = d.values[i] * scale;  // normalised 0..1 (a metric float map, a scaled one: metres)
    if (scaled || (d.isFloat() && metric)) out.metres[i] = v;
    else if (metric) out.metres[i] = nearM + v * (farM - nearM);
    else out.metres[i] = 1.0f / (1.0f / farM + v * (1.0f / nearM - 1.0f / farM));
  }
  // A scaled value too small for a float's distance (1 unit at a huge scale): no distance.
  for (std::size_t i = 0; i < out.metres.size() && scaled; ++i)
    if (!out.holes[i] && !(out.metres[i] > 0.0f && std::isfinite(out.metres[i])))
      throw ContentError(path, "at x " + std::to_string(i % std::size_t(d.width)) + ", y " +
                                   std::to_string(i / std::size_t(d.width)) + " holds " + metres(d.values[i]) +
                                   ", which at " + metres(m.unitsPerMetre) + " units per metre is no distance" +
                                   (d.values[i] == 0.0f ? " (0 marks no reading unless --depth-invalid says otherwise)" : ""));
  return out;
}

}  // namespace

Photo loadPhoto(const std::filesystem::path& colourPath, const std::filesystem::path& depthPath,
                const DepthMapping& mapping) {
  const ColourImage colour = readColourImage(colourPath);
  const DepthSamples samples = readDepthImage(depthPath);
  if (samples.width != colour.width || samples.height != colour.height)
    throw ContentError(depthPath, "is " + std::to_string(samples.width) + "x" + std::to_string(samples.height) +
                                      ", the photo " + quotedPath(colourPath.filename()) + " " +
                                      std::to_string(colour.width) + "x" + std::to_string(colour.height) +
                                      ": a depth map must have the photo's size");
  Distances read = toMetres(depthPath, samples, mapping);
  std::vector<float>& depth = read.metres;
  // The depths read, before any hole is filled: the photo's own distances.
  std::vector<float> sorted;
  sorted.reserve(depth.size() - read.holeCount);
  for (std::size_t i = 0; i < depth.size(); ++i)
    if (!read.holes[i]) sorted.push_back(depth[i]);
  const auto [lo, hi] = std::minmax_element(sorted.begin(), sorted.end());
  Photo p;
  p.nearest = *lo;
  p.farthest = *hi;
  const auto mid = sorted.begin() + std::ptrdiff_t(sorted.size() / 2);
  std::nth_element(sorted.begin(), mid, sorted.end());
  p.median = *mid;
  sorted = {};
  if (read.holeCount > 0) fillDepthHoles(colour.width, colour.height, colour.rgba, depth, read.holes);
  const int w = colour.width, h = colour.height;
  p.colour = reference::ImageRgba8(w, h);
  p.depth = reference::ImageR32F(w, h);
  p.holes.assign(depth.size(), 0);
  p.holeCount = read.holeCount;
  for (int y = 0; y < h; ++y) {  // flipped: the file's top row becomes the last
    const std::size_t from = std::size_t(y) * std::size_t(w), to = std::size_t(h - 1 - y) * std::size_t(w);
    std::copy_n(colour.rgba.begin() + std::ptrdiff_t(from * 4), std::size_t(w) * 4,
                p.colour.pixels.begin() + std::ptrdiff_t(to * 4));
    std::copy_n(depth.begin() + std::ptrdiff_t(from), w, p.depth.pixels.begin() + std::ptrdiff_t(to));
    std::copy_n(read.holes.begin() + std::ptrdiff_t(from), w, p.holes.begin() + std::ptrdiff_t(to));
  }
  for (std::size_t i = 3; i < p.colour.pixels.size(); i += 4) p.colour.pixels[i] = 255;
  const bool metric = mapping.encoding == DepthEncoding::Metric, scaled = mapping.unitsPerMetre > 0;
  // What was read, as the loader found it ("16-bit PNG", "float EXR").
  p.depthDescription = (samples.isFloat() ? std::string("float ") : std::to_string(samples.bits) + "-bit ") + samples.format;
  if (scaled) p.depthDescription += ", " + metres(mapping.unitsPerMetre) + " units/m";
  else if (samples.isFloat() && metric) p.depthDescription += ", metric (metres)";
  else p.depthDescription += std::string(metric ? ", metric, " : ", inverse, ") + metres(mapping.nearMetres) + ".." +
                             metres(mapping.farMetres) + " m";
  if (p.holeCount > 0) p.depthDescription += ", " + percent(p.holeShare()) + " % holes filled";
  return p;
}

}  // namespace satdof::content

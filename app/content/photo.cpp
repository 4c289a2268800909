// app/content/photo.cpp — see photo.h.
#include "content/photo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "content/content_error.h"
#include "content/image_files.h"

namespace satdof::content {
namespace {

std::string metres(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(v));
  return text;
}

// The map's values as distances in metres (row 0 the top, as read).
std::vector<float> toMetres(const std::filesystem::path& path, const DepthSamples& d, const DepthMapping& m) {
  const bool metric = m.encoding == DepthEncoding::Metric;
  if (d.isFloat() && metric && m.rangeGiven)
    throw ContentError(path, "--depth-range applies to a normalised map (an 8- or 16-bit PNG, or --depth-encoding "
                             "inverse); this float map holds metres");
  // A float map's values: every one finite, positive (metric) or not negative (inverse).
  float largest = 0;
  if (d.isFloat()) {
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < d.values.size(); ++i) {
      const float v = d.values[i];
      const bool ok = std::isfinite(v) && (metric ? v > 0.0f : v >= 0.0f);
      if (!ok && bad++ == 0) first = i;
      if (ok) largest = std::max(largest, v);
    }
    if (bad > 0) {
      const float v = d.values[first];
      const std::string what = std::isnan(v) ? "NaN" : std::isinf(v) ? "infinite" : v < 0.0f ? "negative" : "zero";
      throw ContentError(path, std::to_string(bad) + " of its depths are not " +
                                   (metric ? "finite and positive" : "finite and >= 0") + " (the first, at x " +
                                   std::to_string(first % std::size_t(d.width)) + ", y " +
                                   std::to_string(first / std::size_t(d.width)) + ", is " + what + ")");
    }
    if (!metric && !(largest > 0.0f)) throw ContentError(path, "is zero everywhere: an inverse depth map needs a largest value");
  }
  const float scale = d.isFloat() ? (metric ? 1.0f : 1.0f / largest) : 1.0f / float((1 << d.bits) - 1);
  const float nearM = m.nearMetres, farM = m.farMetres;
  std::vector<float> out(d.values.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const float v = d.values[i] * scale;  // normalised 0..1 (a metric float map: metres)
    if (d.isFloat() && metric) out[i] = v;
    else if (metric) out[i] = nearM + v * (farM - nearM);
    else out[i] = 1.0f / (1.0f / farM + v * (1.0f / nearM - 1.0f / farM));
  }
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
  const std::vector<float> depth = toMetres(depthPath, samples, mapping);
  Photo p;
  const int w = colour.width, h = colour.height;
  p.colour = reference::ImageRgba8(w, h);
  p.depth = reference::ImageR32F(w, h);
  for (int y = 0; y < h; ++y) {  // flipped: the file's top row becomes the last
    const std::size_t from = std::size_t(y) * std::size_t(w), to = std::size_t(h - 1 - y) * std::size_t(w);
    std::copy_n(colour.rgba.begin() + std::ptrdiff_t(from * 4), std::size_t(w) * 4,
                p.colour.pixels.begin() + std::ptrdiff_t(to * 4));
    std::copy_n(depth.begin() + std::ptrdiff_t(from), w, p.depth.pixels.begin() + std::ptrdiff_t(to));
  }
  for (std::size_t i = 3; i < p.colour.pixels.size(); i += 4) p.colour.pixels[i] = 255;
  std::vector<float> sorted = depth;
  const auto mid = sorted.begin() + std::ptrdiff_t(sorted.size() / 2);
  std::nth_element(sorted.begin(), mid, sorted.end());
  p.median = *mid;
  const auto [lo, hi] = std::minmax_element(depth.begin(), depth.end());
  p.nearest = *lo;
  p.farthest = *hi;
  const bool metric = mapping.encoding == DepthEncoding::Metric;
  // What was read, as the loader found it ("16-bit PNG", "float EXR").
  p.depthDescription = (samples.isFloat() ? std::string("float ") : std::to_string(samples.bits) + "-bit ") + samples.format +
                       (metric ? ", metric" : ", inverse") +
                       (samples.isFloat() && metric ? std::string(" (metres)")
                                                    : ", " + metres(mapping.nearMetres) + ".." + metres(mapping.farMetres) + " m");
  return p;
}

}  // namespace satdof::content

// qa/precision.cpp — see precision.h.
#include "qa/precision.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "satdof/reference/dof.h"
#include "satdof/reference/dof_ground_truth.h"

namespace satdof {
namespace {

// 0 black; 1..max from blue through red to yellow, so a single grey level still shows.
void heat(std::uint8_t* px, int e, int max) {
  if (e == 0) {
    px[0] = px[1] = px[2] = 0;
  } else {
    const float t = max > 1 ? float(e - 1) / float(max - 1) : 1.0f;
    px[0] = std::uint8_t(std::min(255.0f, 80.0f + 350.0f * t));
    px[1] = std::uint8_t(std::clamp(510.0f * t - 255.0f, 0.0f, 255.0f));
    px[2] = std::uint8_t(std::max(0.0f, 255.0f - 400.0f * t));
  }
  px[3] = 255;
}

}  // namespace

PrecisionReport measurePrecision(const reference::ImageRgba8& colour, const reference::ImageR32F& depth,
                                 const reference::DofParams& params, SatFormat format) {
  return comparePrecision(reference::depthOfField(colour, depth, params, SatFormat::Uint32),
                          reference::depthOfField(colour, depth, params, format), format);
}

PrecisionReport comparePrecision(const reference::ImageRgba8& exact, const reference::ImageRgba8& approx,
                                 SatFormat format) {
  PrecisionReport r;
  r.format = format;
  r.psnr = reference::psnr(approx, exact);
  const int w = exact.width, h = exact.height;
  std::vector<int> error(std::size_t(w) * h, 0);
  std::size_t wrong = 0, wrongFar = 0, wrongNear = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int e = 0;
      for (int c = 0; c < 3; ++c) e = std::max(e, std::abs(int(approx.at(x, y)[c]) - int(exact.at(x, y)[c])));
      error[std::size_t(y) * w + x] = e;
      r.maxError = std::max(r.maxError, e);
      if (e == 0) continue;
      ++wrong;
      // In table coordinates: the origin's quarter and the far corner's quarter.
      if (x >= w / 2 && y >= h / 2) ++wrongFar;
      if (x < w / 2 && y < h / 2) ++wrongNear;
    }
  const double quarter = double(w / 2 + w % 2) * double(h / 2 + h % 2);
  r.wrongPixels = double(wrong) / double(std::max<std::size_t>(1, error.size()));
  r.wrongFarCorner = double(wrongFar) / quarter;
  r.wrongNearOrigin = double(wrongNear) / std::max(1.0, double(w / 2) * double(h / 2));
  r.heatmap = reference::ImageRgba8(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) heat(r.heatmap.at(x, y), error[std::size_t(y) * w + x], r.maxError);
  return r;
}

}  // namespace satdof

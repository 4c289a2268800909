// Ground-truth depth of field by scattering (see satdof/reference/dof_ground_truth.h).
#include "satdof/reference/dof_ground_truth.h"

#include "satdof/reference/aperture.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace satdof::reference {

ImageRgba8 scatterDepthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params) {
  const int w = colour.width, h = colour.height;
  const CocRamp ramp = cocRamp(params, w);
  // Layers by signed radius, front (most negative) to back.
  std::map<int, std::vector<int>> layers;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float d = depth.at(x, y);
      const int r = cocRadius(d, ramp);
      layers[d < ramp.focus ? -r : r].push_back(y * w + x);
    }
  const std::size_t n = std::size_t(w) * h;
  std::vector<double> acc(n * 3, 0.0), transmittance(n, 1.0);
  // Difference arrays one larger each way: a box [x0,x1]x[y0,y1] adds at four corners.
  const int dw = w + 1;
  std::vector<double> diff(std::size_t(dw) * (h + 1) * 4);
  for (const auto& [signedRadius, pixels] : layers) {
    const int r = std::abs(signedRadius);
    const double area = double(apertureArea(params.aperture, r));
    std::fill(diff.begin(), diff.end(), 0.0);
    for (const int i : pixels) {
      const int x = i % w, y = i / w;
      const std::uint8_t* c = colour.at(x, y);
      const double v[4] = {c[0] / area, c[1] / area, c[2] / area, 1.0 / area};
      for (int b = 0; b < kApertureBoxes; ++b) {  // the aperture's boxes, clipped
        ApertureBox box;
        if (!apertureBox(params.aperture, x, y, r, b, w, h, box)) continue;
        const int x0 = box.x0, y0 = box.y0, x1 = box.x1 + 1, y1 = box.y1 + 1;
        for (int k = 0; k < 4; ++k) {
          diff[(std::size_t(y0) * dw + x0) * 4 + k] += v[k];
          diff[(std::size_t(y0) * dw + x1) * 4 + k] -= v[k];
          diff[(std::size_t(y1) * dw + x0) * 4 + k] -= v[k];
          diff[(std::size_t(y1) * dw + x1) * 4 + k] += v[k];
        }
      }
    }
    // Integrate (2D prefix sum) and composite this layer under what is in front of it.
    std::vector<double> row(std::size_t(w) * 4, 0.0);
    for (int y = 0; y < h; ++y) {
      double run[4] = {0, 0, 0, 0};
      for (int x = 0; x < w; ++x) {
        for (int k = 0; k < 4; ++k) {
          run[k] += diff[(std::size_t(y) * dw + x) * 4 + k];
          row[std::size_t(x) * 4 + k] += run[k];
        }
        const std::size_t p = std::size_t(y) * w + x;
        const double coverage = std::clamp(row[std::size_t(x) * 4 + 3], 0.0, 1.0);
        if (coverage <= 0) continue;
        // The layer's colour where it covers p (normalised), weighted by its coverage.
        const double t = transmittance[p];
        for (int k = 0; k < 3; ++k)
          acc[p * 3 + k] += t * coverage * (row[std::size_t(x) * 4 + k] / row[std::size_t(x) * 4 + 3]);
        transmittance[p] = t * (1.0 - coverage);
      }
    }
  }
  ImageRgba8 out(w, h);
  for (std::size_t p = 0; p < n; ++p) {
    const double covered = 1.0 - transmittance[p];
    for (int k = 0; k < 3; ++k) {
      const double v = covered > 0 ? acc[p * 3 + k] / covered : 0.0;
      out.pixels[p * 4 + k] = std::uint8_t(std::clamp(std::floor(v + 0.5), 0.0, 255.0));
    }
    out.pixels[p * 4 + 3] = 255;
  }
  return out;
}

double psnr(const ImageRgba8& a, const ImageRgba8& b) {
  double se = 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.pixels.size() && i < b.pixels.size(); ++i) {
    if (i % 4 == 3) continue;
    const double d = double(a.pixels[i]) - double(b.pixels[i]);
    se += d * d;
    ++count;
  }
  if (se == 0 || count == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / (se / double(count)));
}

}  // namespace satdof::reference

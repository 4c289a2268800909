// What `satdof quality` measures besides the PSNR (see satdof/reference/dof_metrics.h).
#include "satdof/reference/dof_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "satdof/reference/dof_ground_truth.h"
#include "satdof/reference/lens_truth.h"

namespace satdof::reference {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// out[i] = min of in[i - r .. i + r] (in bounds), by van Herk / Gil-Werman: O(n) for any r.
void windowMin(const float* in, std::size_t stride, int n, int r, float* out, std::vector<float>& g,
               std::vector<float>& h) {
  const int k = 2 * r + 1, padded = n + 2 * r;
  g.assign(std::size_t(padded), kInf);
  h.assign(std::size_t(padded), kInf);
  auto at = [&](int j) { return j >= r && j < r + n ? in[std::size_t(j - r) * stride] : kInf; };
  for (int j = 0; j < padded; ++j) g[std::size_t(j)] = j % k == 0 ? at(j) : std::min(g[std::size_t(j - 1)], at(j));
  for (int j = padded - 1; j >= 0; --j)
    h[std::size_t(j)] = (j % k == k - 1 || j == padded - 1) ? at(j) : std::min(h[std::size_t(j + 1)], at(j));
  // Padded index of output i's window: [i, i + 2r].
  for (int i = 0; i < n; ++i) out[std::size_t(i) * stride] = std::min(h[std::size_t(i)], g[std::size_t(i + 2 * r)]);
}

}  // namespace

std::size_t Mask::count() const { return std::size_t(std::count(inside.begin(), inside.end(), std::uint8_t(1))); }

Mask silhouetteBand(const ImageR32F& depth, const DofParams& params, int bandRadius) {
  const int w = depth.width, h = depth.height;
  const CocRamp ramp = cocRamp(params, w);
  std::vector<float> radius(depth.pixels.size());
  for (std::size_t i = 0; i < radius.size(); ++i)
    radius[i] = float(std::min(unclampedCocRadius(depth.pixels[i], ramp), double(ramp.maxRadius)));
  std::vector<std::uint8_t> edge(radius.size(), 0);
  auto apart = [&](std::size_t p, std::size_t q) {
    const float a = depth.pixels[p], b = depth.pixels[q];
    return std::abs(radius[p] - radius[q]) > 1.0f || std::max(a, b) > kSilhouetteDepthRatio * std::min(a, b);
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t p = std::size_t(y) * w + x;
      for (const std::size_t q : {x + 1 < w ? p + 1 : p, y + 1 < h ? p + std::size_t(w) : p})
        if (q != p && apart(p, q)) edge[p] = edge[q] = 1;
    }
  // Each row's horizontal distance to its nearest edge pixel, then the nearest over the
  // rows within the band: the exact Euclidean distance, up to bandRadius.
  const int far = bandRadius + 1;
  std::vector<int> rowDistance(radius.size(), far);
  for (int y = 0; y < h; ++y) {
    int* d = &rowDistance[std::size_t(y) * w];
    const std::uint8_t* e = &edge[std::size_t(y) * w];
    for (int x = 0, last = -far - w; x < w; ++x) {
      if (e[x]) last = x;
      d[x] = std::min(far, x - last);
    }
    for (int x = w - 1, next = 2 * w + far; x >= 0; --x) {
      if (e[x]) next = x;
      d[x] = std::min(d[x], next - x);
    }
  }
  Mask band{w, h, std::vector<std::uint8_t>(radius.size(), 0)};
  const long long limit = (long long)bandRadius * bandRadius;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int dy = -bandRadius; dy <= bandRadius; ++dy) {
        const int yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        const long long dx = rowDistance[std::size_t(yy) * w + x];
        if (dx * dx + (long long)dy * dy <= limit) {
          band.inside[std::size_t(y) * w + x] = 1;
          break;
        }
      }
  return band;
}

Mask sharpAndClear(const ImageR32F& depth, const DofParams& params) {
  const int w = depth.width, h = depth.height;
  const CocRamp ramp = cocRamp(params, w);
  std::vector<int> radius(depth.pixels.size());
  for (std::size_t i = 0; i < radius.size(); ++i) radius[i] = cocRadius(depth.pixels[i], ramp);
  Mask clear{w, h, std::vector<std::uint8_t>(radius.size(), 0)};
  for (std::size_t i = 0; i < radius.size(); ++i) clear.inside[i] = radius[i] == 0 ? 1 : 0;
  // For each radius r > 0 present: the nearest depth among radius-r pixels within a box of
  // half-size r of p (a radius-r pixel reaches p exactly when p is in its box).
  std::vector<float> field(radius.size()), rows(radius.size()), nearest(radius.size()), g, hBuf;
  for (int r = 1; r <= ramp.maxRadius; ++r) {
    bool any = false;
    for (std::size_t i = 0; i < radius.size(); ++i) {
      field[i] = radius[i] == r ? depth.pixels[i] : kInf;
      any = any || radius[i] == r;
    }
    if (!any) continue;
    for (int y = 0; y < h; ++y)
      windowMin(&field[std::size_t(y) * w], 1, w, r, &rows[std::size_t(y) * w], g, hBuf);
    for (int x = 0; x < w; ++x) windowMin(&rows[std::size_t(x)], std::size_t(w), h, r, &nearest[std::size_t(x)], g, hBuf);
    for (std::size_t i = 0; i < radius.size(); ++i)
      if (nearest[i] < depth.pixels[i]) clear.inside[i] = 0;
  }
  return clear;
}

Mask complement(const Mask& mask) {
  Mask out = mask;
  for (std::uint8_t& v : out.inside) v = v ? 0 : 1;
  return out;
}

double psnr(const ImageRgba8& a, const ImageRgba8& b, const Mask& mask) {
  double se = 0;
  std::size_t count = 0;
  for (std::size_t p = 0; p < mask.inside.size(); ++p) {
    if (!mask.inside[p]) continue;
    for (std::size_t k = 0; k < 3; ++k) {
      const double d = double(a.pixels[p * 4 + k]) - double(b.pixels[p * 4 + k]);
      se += d * d;
    }
    count += 3;
  }
  if (count == 0) return std::numeric_limits<double>::quiet_NaN();
  if (se == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / (se / double(count)));
}

double identicalPercent(const ImageRgba8& image, const ImageRgba8& sharp, const Mask& mask) {
  std::size_t count = 0, same = 0;
  for (std::size_t p = 0; p < mask.inside.size(); ++p) {
    if (!mask.inside[p]) continue;
    ++count;
    same += std::equal(&image.pixels[p * 4], &image.pixels[p * 4 + 3], &sharp.pixels[p * 4]) ? 1 : 0;
  }
  return count ? 100.0 * double(same) / double(count) : std::numeric_limits<double>::quiet_NaN();
}

Mask differingPixels(const ImageRgba8& image, const ImageRgba8& baseline) {
  Mask m{image.width, image.height, std::vector<std::uint8_t>(std::size_t(image.width) * std::size_t(image.height))};
  for (std::size_t p = 0; p < m.inside.size(); ++p)
    m.inside[p] = std::equal(&image.pixels[p * 4], &image.pixels[p * 4 + 3], &baseline.pixels[p * 4]) ? 0 : 1;
  return m;
}

double psnrCeiling(const ImageRgba8& baseline, const ImageRgba8& truth, const Mask& differing) {
  ImageRgba8 best = baseline;
  for (std::size_t p = 0; p < differing.inside.size(); ++p)
    if (differing.inside[p]) std::copy_n(&truth.pixels[p * 4], 3, &best.pixels[p * 4]);
  return psnr(best, truth);
}

}  // namespace satdof::reference

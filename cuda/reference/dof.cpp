// Reference depth of field (see satdof/reference/dof.h). shaders/dof.frag mirrors it.
#include "satdof/reference/dof.h"

#include <algorithm>
#include <cmath>

namespace satdof::reference {

int cocRadius(float depth, const DofParams& p) {
  const float range = std::max(p.focalRange, 1e-4f);
  const float t = std::clamp(std::fabs(depth - p.focalDistance) / range, 0.0f, 1.0f);
  return int(std::floor(t * std::max(p.maxRadius, 0.0f) + 0.5f));
}

std::uint8_t toUnorm8(float mean) {
  return std::uint8_t(std::clamp(std::lround(mean), 0l, 255l));
}

ImageRgba8 depthOfField(const Sat& sat, const ImageR32F& depth, const DofParams& params) {
  ImageRgba8 out(sat.width, sat.height);
  for (int y = 0; y < sat.height; ++y) {
    for (int x = 0; x < sat.width; ++x) {
      const int r = cocRadius(depth.at(x, y), params);
      const auto mean = boxMean(sat, {x - r, y - r, x + r, y + r});
      for (int c = 0; c < 3; ++c) out.at(x, y)[c] = toUnorm8(mean[c]);
      out.at(x, y)[3] = 255;  // the final image is opaque
    }
  }
  return out;
}

ImageRgba8 depthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params) {
  return depthOfField(computeSat(colour), depth, params);
}

}  // namespace satdof::reference

// Reference depth of field (see satdof/reference/dof.h and coc.h). The GLSL
// (shaders/dof_common.glsl) and the CUDA kernel (cuda/dof/) mirror it.
#include "satdof/reference/dof.h"

#include <algorithm>

#include "satdof/reference/fp_environment.h"

namespace satdof::reference {

const char* whyNotACamera(const DofParams& p) {
  if (p.model == CocModel::Linear) return p.focalRange > 0 ? nullptr : "the focal range must be positive";
  if (!(p.fNumber > 0)) return "the f-number must be positive";
  if (!(p.focalLengthMm > 0)) return "the focal length must be positive";
  if (!(p.sensorWidthMm > 0)) return "the sensor width must be positive";
  if (!(p.focalDistance * 1000.0f > p.focalLengthMm))
    return "the focus distance must be beyond the focal length (a lens cannot focus closer)";
  return nullptr;
}

CocRamp cocRamp(const DofParams& p, int imageWidth) {
  const RoundToNearest rounding;  // the ramp every backend's frame reads, the same in any process
  CocRamp k;
  k.focus = p.focalDistance;
  k.maxRadius = std::max(0, int(std::floor(p.maxRadius + 0.5f)));
  if (p.model == CocModel::Linear) {
    k.a = std::max(p.maxRadius, 0.0f);
    k.b = std::max(p.focalRange, 1e-4f);
    k.c = 0;
    return k;
  }
  // Thin lens, in millimetres: aperture f/N, magnification f / (S1 - f); half the blur
  // circle's diameter, in pixels of an image imageWidth wide on a sensor sensorWidth wide.
  const double f = p.focalLengthMm, s1 = double(p.focalDistance) * 1000.0;
  const double perMm = double(imageWidth) / std::max(double(p.sensorWidthMm), 1e-3);
  const double k0 = (f / std::max(double(p.fNumber), 1e-3)) * f / std::max(s1 - f, 1e-3) * perMm / 2.0;
  k.a = float(k0);
  k.b = 0;
  k.c = 1;
  return k;
}

ImageRgba8 depthOfField(const Sat& sat, const ImageR32F& depth, const DofParams& params, bool showCoc) {
  const RoundToNearest rounding;  // the GPUs' rounding for the radii and the float box means
  ImageRgba8 out(sat.width, sat.height);
  const CocRamp ramp = cocRamp(params, sat.width);
  const SatView table = satView(sat);
  for (int y = 0; y < sat.height; ++y) {
    for (int x = 0; x < sat.width; ++x) {
      const int r = cocRadius(depth.at(x, y), ramp);
      std::uint8_t* o = out.at(x, y);
      Rgb8 m;
      if (showCoc) {
        const std::uint8_t shade = cocShade(r, ramp.maxRadius);
        m = {shade, std::uint8_t(255 - shade), 38};
      } else {
        m = satApertureMean(table, params.aperture, x, y, r, sat.width, sat.height);
      }
      o[0] = m.r;
      o[1] = m.g;
      o[2] = m.b;
      o[3] = 255;  // the final image is opaque
    }
  }
  return out;
}

ImageRgba8 depthOfField(const ImageRgba8& colour, const ImageR32F& depth, const DofParams& params,
                        SatFormat format, bool showCoc) {
  return depthOfField(computeSat(colour, format), depth, params, showCoc);
}

}  // namespace satdof::reference

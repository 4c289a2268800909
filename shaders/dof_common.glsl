// shaders/dof_common.glsl — the box depth of field, shared by every GLSL implementation
// (dof.frag, dof.comp). Mirrors satdof::reference::cocRadius (coc.h) and depthOfField
// (dof.cpp) line for line; the tests hold them together byte for byte.
//
// Uniforms (the host computes the ramp's constants once per frame, reference::cocRamp):
layout(location = 0) uniform float uFocus;   // S1: the sharp distance
layout(location = 1) uniform float uRampA;   // r(d) = |d - S1| * a / (b + c * d)
layout(location = 2) uniform float uRampB;
layout(location = 3) uniform float uRampC;
layout(location = 4) uniform int uMaxRadius;  // largest box half-size, pixels
layout(location = 5) uniform ivec2 uSize;     // image size in pixels
layout(location = 6) uniform int uShowCoc;    // 1: visualise the radius instead

#include "sat_format.glsl"

// Products and sums marked precise are single IEEE operations, never fused: the integer
// radius is then the same here, on the CPU and in CUDA.
int cocRadius(float depth) {
  precise float num = abs(depth - uFocus) * uRampA;
  precise float den = uRampB + uRampC * depth;
  if (!(den > 0.0)) return num > 0.0 ? uMaxRadius : 0;
  float estimate = num / den + 0.5;
  if (!(estimate < float(uMaxRadius))) estimate = float(uMaxRadius);
  int r = estimate > 0.0 ? int(estimate) : 0;
  precise float below = (float(r) - 0.5) * den;
  while (r > 0 && below > num) {
    --r;
    below = (float(r) - 0.5) * den;
  }
  precise float above = (float(r) + 0.5) * den;
  while (r < uMaxRadius && above <= num) {
    ++r;
    above = (float(r) + 0.5) * den;
  }
  return r;
}

// The output pixel p, as 8-bit RGBA (alpha 255: the final image is opaque).
uvec4 depthOfField(ivec2 p, float depth) {
  int r = cocRadius(depth);
  if (uShowCoc == 1) {
    uint shade = uMaxRadius > 0 ? uint((r * 255 + uMaxRadius / 2) / uMaxRadius) : 0u;
    return uvec4(shade, 255u - shade, 38u, 255u);
  }
  // The box [p - r, p + r], clipped to the image, divided by the clipped area.
  ivec2 lo = max(p - r, ivec2(0));
  ivec2 hi = min(p + r, uSize - 1);
  return uvec4(satBoxMean(lo, hi, uSize.x), 255u);
}

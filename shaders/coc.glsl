// shaders/coc.glsl — the circle of confusion, shared by every GLSL DoF pass. Mirrors
// satdof::reference::cocRadius (coc.h) line for line; the tests hold them together.
//
// Uniforms (the host computes the ramp's constants once per frame, reference::cocRamp):
layout(location = 0) uniform float uFocus;   // S1: the sharp distance
layout(location = 1) uniform float uRampA;   // r(d) = |d - S1| * a / (b + c * d)
layout(location = 2) uniform float uRampB;
layout(location = 3) uniform float uRampC;
layout(location = 4) uniform int uMaxRadius;  // largest box half-size, pixels
layout(location = 5) uniform ivec2 uSize;     // image size in pixels

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

#version 430
// shaders/compute/conv_basic.comp — "glsl-basic": one invocation per output pixel, the
// filter and the image read from memory, a bounds check per tap (PMPP's first kernel).
// Direct maths: taps row-major (i outer, j inner), as the reference's convolve2D.
#include "compute/conv_common.glsl"

void main() {
  const ivec2 size = imageSize2D();
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  precise vec4 acc = vec4(0.0);
  for (int i = 0; i < taps1D(); ++i) {
    const int sy = sourceIndex(tapSource(p.y, uRadius, i), size.y);
    if (sy < 0) continue;
    for (int j = 0; j < taps1D(); ++j) {
      const int sx = sourceIndex(tapSource(p.x, uRadius, j), size.x);
      if (sx < 0) continue;
      acc = fmaRounded(vec4(weight2D(i, j)), texelValue(ivec2(sx, sy)), acc);
    }
  }
  storeRounded(p, acc);
}

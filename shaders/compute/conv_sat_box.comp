#version 430
// shaders/compute/conv_sat_box.comp — "glsl-sat-box": the box mean from a uint32
// summed-area table of the input (built by the backend's SAT passes into scratch just
// before), four reads per rectangle whatever the radius. BoxSum maths (reference
// boxFilterExact): the exact integer sum of the (2r+1)^2 window, ghost cells 0 (zero
// border) or the edge pixels repeated (clamp), then (2 sum + n^2) / (2 n^2).
//
// Under clamp a window reaching past an edge counts the edge row (column) once more per
// missing row (column): along each axis the window is the clipped range with weight 1
// plus the edge line 0 with weight `before` and the edge line n-1 with weight `after`,
// so the sum is over 3 x 3 (row range, column range) pairs of weight product x rectangle
// sum. Wrapping uint arithmetic is exact because the true sum is below 2^32.
#include "compute/conv_common.glsl"

layout(std430, binding = 1) readonly buffer InputSat { uvec4 sat[]; };

uvec4 satAt(int x, int y, int width) {
  if (x < 0 || y < 0) return uvec4(0u);
  return sat[y * width + x];
}

// Sum over the inclusive rectangle [x0, x1] x [y0, y1] (inside the image).
uvec4 rectSum(int x0, int x1, int y0, int y1, int width) {
  return satAt(x1, y1, width) - satAt(x0 - 1, y1, width) - satAt(x1, y0 - 1, width) + satAt(x0 - 1, y0 - 1, width);
}

void main() {
  const ivec2 size = imageSize2D();
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  const int r = uRadius;
  // Per axis: ranges [lo, hi] with weights: the clipped window, then the two edges.
  ivec2 lo[3], hi[3];
  uvec2 weight[3];
  lo[0] = max(p - r, ivec2(0));
  hi[0] = min(p + r, size - 1);
  weight[0] = uvec2(1u);
  lo[1] = ivec2(0);
  hi[1] = ivec2(0);
  lo[2] = size - 1;
  hi[2] = size - 1;
  weight[1] = uBorder == 1 ? uvec2(max(r - p, ivec2(0))) : uvec2(0u);
  weight[2] = uBorder == 1 ? uvec2(max(p + r - (size - 1), ivec2(0))) : uvec2(0u);
  uvec4 sum = uvec4(0u);
  for (int a = 0; a < 3; ++a) {    // row range
    if (weight[a].y == 0u) continue;
    for (int b = 0; b < 3; ++b) {  // column range
      if (weight[b].x == 0u) continue;
      sum += weight[a].y * weight[b].x * rectSum(lo[b].x, hi[b].x, lo[a].y, hi[a].y, size.x);
    }
  }
  const uint n = uint(taps1D()), area = n * n;
  const uvec4 mean = (2u * sum + area) / (2u * area);
  imageStore(uOutput, p, vec4(mean) / 255.0);
}

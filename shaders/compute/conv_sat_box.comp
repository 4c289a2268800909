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

// S(x, y), 0 left of column 0 and above row 0. The load always happens, at a clamped
// index, and the zero is selected after: NVIDIA's compiler (driver 580, on the H200)
// refused to link this shader ("invalid array member") when a guarded load at x = -1,
// y = 0 of the unrolled loops became the constant index -1 outside its guard.
uvec4 satAt(int x, int y, int width) {
  const uvec4 value = sat[max(y, 0) * width + max(x, 0)];
  return x < 0 || y < 0 ? uvec4(0u) : value;
}

// Sum over the inclusive rectangle [x0, x1] x [y0, y1] (inside the image).
uvec4 rectSum(int x0, int x1, int y0, int y1, int width) {
  return satAt(x1, y1, width) - satAt(x0 - 1, y1, width) - satAt(x1, y0 - 1, width) + satAt(x0 - 1, y0 - 1, width);
}

// Range k of one axis (k = 0: the clipped window, 1: the edge line 0, 2: the edge line
// n - 1) for output coordinate p on an axis of n, with its weight (0: nothing to add).
uint axisRange(int k, int p, int n, out int lo, out int hi) {
  const int r = uRadius;
  if (k == 0) {
    lo = max(p - r, 0);
    hi = min(p + r, n - 1);
    return 1u;
  }
  lo = k == 1 ? 0 : n - 1;
  hi = lo;
  if (uBorder != 1) return 0u;
  return uint(max(k == 1 ? r - p : p + r - (n - 1), 0));
}

void main() {
  const ivec2 size = imageSize2D();
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  uvec4 sum = uvec4(0u);
  for (int a = 0; a < 3; ++a) {  // row range
    int y0, y1;
    const uint wy = axisRange(a, p.y, size.y, y0, y1);
    if (wy == 0u) continue;
    for (int b = 0; b < 3; ++b) {  // column range
      int x0, x1;
      const uint wx = axisRange(b, p.x, size.x, x0, x1);
      if (wx != 0u) sum += wy * wx * rectSum(x0, x1, y0, y1, size.x);
    }
  }
  const uint n = uint(taps1D()), area = n * n;
  const uvec4 mean = (2u * sum + area) / (2u * area);
  imageStore(uOutput, p, vec4(mean) / 255.0);
}

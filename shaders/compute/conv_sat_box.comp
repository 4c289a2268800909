#version 430
// shaders/compute/conv_sat_box.comp — "glsl-sat-box": the box mean from a uint32
// summed-area table of the input (built by the backend's SAT passes into scratch just
// before), four reads per rectangle whatever the radius. BoxSum maths (reference
// boxFilterExact): the exact integer sum of the (2r+1)^2 window, ghost cells 0 (zero
// border) or the edge pixels repeated (clamp), then (2 sum + n^2) / (2 n^2).
//
// Under clamp a window reaching past an edge counts the edge row (column) once more per
// missing row (column): along each axis the window is the clipped range with weight 1
// plus the edge line 0 and the edge line n-1, each weighted by the window's lines past
// that edge (satRangeWeight, conv_index.glsl), so the sum is over 3 x 3 (row range, column
// range) pairs of weight product x rectangle sum. Wrapping uint arithmetic is exact
// because the true sum is below 2^32.
#include "compute/conv_common.glsl"

layout(std430, binding = 1) readonly buffer InputSat { uvec4 sat[]; };

// S(x, y), 0 left of column 0 and above row 0. The load always happens, at a clamped
// index, and the zero is selected after: NVIDIA's compiler (driver 580, on the H200)
// refused to link this shader ("invalid array member") when a guarded load at x = -1,
// y = 0 of the unrolled loops became the constant index -1 outside its guard.
uvec4 satAt(int x, int y, int width) {
  const uvec4 value = sat[satIndex(x, y, width)];
  return satBeforeTable(x, y) ? uvec4(0u) : value;
}

// Sum over the inclusive rectangle [x0, x1] x [y0, y1] (inside the image): its corners
// c = 0 .. 3 (satCornerX, satCornerY), added or subtracted as satCornerAdds(c) says.
uvec4 rectSum(int x0, int x1, int y0, int y1, int width) {
  return satAt(satCornerX(0, x0, x1), satCornerY(0, y0, y1), width) -
         satAt(satCornerX(1, x0, x1), satCornerY(1, y0, y1), width) -
         satAt(satCornerX(2, x0, x1), satCornerY(2, y0, y1), width) +
         satAt(satCornerX(3, x0, x1), satCornerY(3, y0, y1), width);
}

void main() {
  const ivec2 size = imageSize2D();
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  uvec4 sum = uvec4(0u);
  for (int a = 0; a < 3; ++a) {  // row range
    const uint wy = uint(satRangeWeight(a, p.y, uRadius, size.y, uBorder));
    if (wy == 0u) continue;
    const int y0 = satRangeLow(a, p.y, uRadius, size.y), y1 = satRangeHigh(a, p.y, uRadius, size.y);
    for (int b = 0; b < 3; ++b) {  // column range
      const uint wx = uint(satRangeWeight(b, p.x, uRadius, size.x, uBorder));
      const int x0 = satRangeLow(b, p.x, uRadius, size.x), x1 = satRangeHigh(b, p.x, uRadius, size.x);
      if (wx != 0u) sum += wy * wx * rectSum(x0, x1, y0, y1, size.x);
    }
  }
  const uint n = uint(taps1D()), area = n * n;
  const uvec4 mean = (2u * sum + area) / (2u * area);
  imageStore(uOutput, p, vec4(mean) / 255.0);
}

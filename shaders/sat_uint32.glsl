// shaders/sat_uint32.glsl — reads a SAT in the "uint32" format (satdof/sat_format.h).
//
// Every sat_<format>.glsl gives the DoF shaders the same things:
//   * the table, a read-only shader storage block at binding 0;
//   * vec4 satBoxSum(ivec2 lo, ivec2 hi, int width): the per-channel sum over the
//     inclusive box [lo, hi] (already clipped to the image), as floats;
//   * uvec3 satBoxMean(ivec2 lo, ivec2 hi, int width): the box's RGB mean rounded to
//     8 bits, in the format's own arithmetic (the reference does the same);
//   * SatSums, satSumsZero(), satAddBox(sums, lo, hi, width), satSumsMean(sums, area): the
//     sums of several boxes added in that arithmetic and their rounded mean over their
//     total area (reference::SatSums, box_mean.h; the disc aperture, aperture.glsl).
// The DoF shaders include "sat_format.glsl"; the loader resolves that name to the chosen
// format's file.
//
// uint32: one uvec4 per pixel, sums modulo 2^32. The four-term difference is exact in
// wrapping uint arithmetic, and so is the mean, rounded in integers (reference::roundedMean).

layout(std430, binding = 0) readonly buffer SummedAreaTable { uvec4 sat[]; };

uvec4 satAt(int x, int y, int width) {
  if (x < 0 || y < 0) return uvec4(0u);
  return sat[y * width + x];
}

uvec4 satBoxSumExact(ivec2 lo, ivec2 hi, int width) {
  return satAt(hi.x, hi.y, width) - satAt(lo.x - 1, hi.y, width) - satAt(hi.x, lo.y - 1, width) +
         satAt(lo.x - 1, lo.y - 1, width);
}

vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) { return vec4(satBoxSumExact(lo, hi, width)); }

#include "sat_uint_mean.glsl"

// shaders/sat_float32.glsl — reads a SAT in the "float32" format (satdof/sat_format.h).
//
// Same interface as every sat_<format>.glsl (see sat_uint32.glsl): the table at binding 0
// vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) over the inclusive box [lo, hi],
// and uvec3 satBoxMean(lo, hi, width), the rounded mean (satdof/reference/box_mean.h).
//
// float32: one vec4 per pixel, each the exact sum rounded to float. The four-term
// difference is done in float, so a box far from the origin loses the low bits of its
// corners (entries above 2^24 are multiples of 2 or more): the precision loss the
// float32-offset and uint32 formats avoid.

layout(std430, binding = 0) readonly buffer SummedAreaTable { vec4 sat[]; };

vec4 satAt(int x, int y, int width) {
  if (x < 0 || y < 0) return vec4(0.0);
  return sat[y * width + x];
}

// ((A - B) - C) + D, each step one IEEE operation (precise: no reassociation, no fusing).
vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) {
  precise vec4 sum = satAt(hi.x, hi.y, width) - satAt(lo.x - 1, hi.y, width) -
                     satAt(hi.x, lo.y - 1, width) + satAt(lo.x - 1, lo.y - 1, width);
  return sum;
}

#include "sat_float_mean.glsl"

// shaders/sat_float32_offset.glsl — reads a SAT in the "float32-offset" format
// (satdof/sat_format.h; Hensley et al. 2005, "Fast summed-area table generation and its
// applications").
//
// Same interface as every sat_<format>.glsl (see sat_uint32.glsl): the table at binding 0
// vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) over the inclusive box [lo, hi],
// and uvec3 satBoxMean(lo, hi, width), the rounded mean (satdof/reference/box_mean.h).
//
// float32-offset: one vec4 per pixel holding the sums of (pixel - m), m the per-channel
// image mean (an integer), then a 16-byte trailer holding m as one vec4. Centred values
// keep the entries near zero, so the four-term difference loses far fewer bits than
// float32; the box sum adds area * m back. The trailer is the array's last element, so
// the buffer must be bound with exactly satTableBytes() bytes (sat.length() finds it).

layout(std430, binding = 0) readonly buffer SummedAreaTable { vec4 sat[]; };

vec4 satAt(int x, int y, int width) {
  if (x < 0 || y < 0) return vec4(0.0);
  return sat[y * width + x];
}

// ((A - B) - C) + D + area * m, each step one IEEE operation (precise: no reassociation,
// no fusing).
vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) {
  precise vec4 centred = satAt(hi.x, hi.y, width) - satAt(lo.x - 1, hi.y, width) -
                         satAt(hi.x, lo.y - 1, width) + satAt(lo.x - 1, lo.y - 1, width);
  precise float area = float(hi.x - lo.x + 1) * float(hi.y - lo.y + 1);
  precise vec4 sum = centred + area * sat[sat.length() - 1];
  return sum;
}

#include "sat_float_mean.glsl"

// shaders/sat_uint21x3.glsl — reads a SAT in the "uint21x3" format (satdof/sat_format.h).
//
// Same interface as every sat_<format>.glsl (see sat_uint32.glsl): the table at binding 0
// vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) over the inclusive box [lo, hi],
// and uvec3 satBoxMean(lo, hi, width), the rounded mean (satdof/reference/box_mean.h).
//
// uint21x3: one uvec2 per pixel (satdof/reference/uint21x3.h):
//   x = R[20:0] | B[10:0] << 21        y = G[20:0] | B[21:11] << 21
// R and G are the channel sums modulo 2^21, B modulo 2^22; there is no alpha (satBoxSum's
// alpha is 0). The four-term difference in wrapping uint arithmetic, masked to the field,
// is the box's true sum whenever it fits the field: every box of at most 8224 pixels of
// 8-bit values (radius <= 44; the app refuses a larger max blur with this format). The
// mean is then rounded exactly as uint32's, so the bytes are the same.

layout(std430, binding = 0) readonly buffer SummedAreaTable { uvec2 sat[]; };

#include "uint21x3_fields.glsl"

// Each field's range: the entries are sums modulo these (view.frag's SAT view uses it).
#define SAT_ENTRY_MODULUS vec3(2097152.0, 2097152.0, 4194304.0)

// The entry's R, G, B fields.
uvec3 satAt(int x, int y, int width) {
  if (x < 0 || y < 0) return uvec3(0u);
  return uint21x3Fields(sat[y * width + x]);
}

uvec3 satBoxSumExact(ivec2 lo, ivec2 hi, int width) {
  uvec3 sum = satAt(hi.x, hi.y, width) - satAt(lo.x - 1, hi.y, width) - satAt(hi.x, lo.y - 1, width) +
              satAt(lo.x - 1, lo.y - 1, width);
  return sum & kUint21x3Masks;
}

vec4 satBoxSum(ivec2 lo, ivec2 hi, int width) { return vec4(vec3(satBoxSumExact(lo, hi, width)), 0.0); }

#include "sat_uint_mean.glsl"

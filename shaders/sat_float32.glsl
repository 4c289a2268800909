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

// The rounded 8-bit mean, without a division (satdof/reference/box_mean.h): the k with
// (k - 1/2) * area <= sum < (k + 1/2) * area, each product one rounded multiply.
uint roundedFloatMean(float sum, float area) {
  float estimate = sum / area + 0.5;
  if (!(estimate < 255.0)) estimate = 255.0;
  int k = estimate > 0.0 ? int(estimate) : 0;
  precise float below = (float(k) - 0.5) * area;
  while (k > 0 && below > sum) {
    --k;
    below = (float(k) - 0.5) * area;
  }
  precise float above = (float(k) + 0.5) * area;
  while (k < 255 && above <= sum) {
    ++k;
    above = (float(k) + 0.5) * area;
  }
  return uint(k);
}

uvec3 satBoxMean(ivec2 lo, ivec2 hi, int width) {
  precise float area = float(hi.x - lo.x + 1) * float(hi.y - lo.y + 1);
  vec4 sum = satBoxSum(lo, hi, width);
  return uvec3(roundedFloatMean(sum.r, area), roundedFloatMean(sum.g, area), roundedFloatMean(sum.b, area));
}

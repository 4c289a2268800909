// shaders/sat_float_mean.glsl — the float SAT readers' rounded mean (sat_float32.glsl,
// sat_float32_offset.glsl include it after their satBoxSum).

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

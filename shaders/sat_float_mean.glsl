// shaders/sat_float_mean.glsl — the float SAT readers' sums and rounded mean
// (sat_float32.glsl, sat_float32_offset.glsl include it after their satBoxSum).

// Box sums added one IEEE addition per box, in the order added (reference::SatSums).
#define SatSums vec3
SatSums satSumsZero() { return vec3(0.0); }
SatSums satAddBox(SatSums sums, ivec2 lo, ivec2 hi, int width) {
  precise vec3 added = sums + satBoxSum(lo, hi, width).rgb;
  return added;
}

// The rounded 8-bit mean, without a division (satdof/reference/box_mean.h): the k with
// (k - 1/2) * area <= sum < (k + 1/2) * area, each product one rounded multiply. GLSL's
// division is not correctly rounded (2.5 ulp), so sum / area is only where the search
// starts: the loops end on the same k from any start.
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

// The mean over `area` pixels (a whole number below 2^24: exact as a float).
uvec3 satSumsMean(SatSums sums, uint area) {
  float a = float(area);
  return uvec3(roundedFloatMean(sums.r, a), roundedFloatMean(sums.g, a), roundedFloatMean(sums.b, a));
}

uvec3 satBoxMean(ivec2 lo, ivec2 hi, int width) {
  return satSumsMean(satAddBox(satSumsZero(), lo, hi, width), uint((hi.x - lo.x + 1) * (hi.y - lo.y + 1)));
}

// shaders/sat_uint_mean.glsl — the integer SAT readers' sums and rounded mean
// (sat_uint32.glsl, sat_uint21x3.glsl include it after their satBoxSumExact).

// Box sums added in wrapping uint arithmetic (reference::SatSums): exact while the union's
// true sum fits, as each box's does.
#define SatSums uvec3
SatSums satSumsZero() { return uvec3(0u); }
SatSums satAddBox(SatSums sums, ivec2 lo, ivec2 hi, int width) { return sums + satBoxSumExact(lo, hi, width).rgb; }

// The mean rounded in integers (reference::roundedMean): (2 * sum + area) / (2 * area).
uvec3 satSumsMean(SatSums sums, uint area) { return (2u * sums + area) / (2u * area); }

uvec3 satBoxMean(ivec2 lo, ivec2 hi, int width) {
  return satSumsMean(satAddBox(satSumsZero(), lo, hi, width), uint((hi.x - lo.x + 1) * (hi.y - lo.y + 1)));
}

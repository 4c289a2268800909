#version 430
// shaders/compute/sat_format.comp — turns the gl-compute backend's uint32 table into one
// of the float formats of satdof/sat_format.h, in place, with the reference's bits
// (satdof/reference/sat.h: each entry is the exact integer sum, rounded once to the
// nearest float, ties to even):
//   uMode 0 (one invocation): float32-offset's trailer, m_c = (S_c + n/2) / n from the
//           table's last entry S (the whole image's sum), stored as 4 floats;
//   uMode 1: float32: entry = round(S);
//   uMode 2: float32-offset: entry = round(S - m (x+1) (y+1)), the exact sum of
//           (pixel - m) over the entry's rectangle.
// The uint32 sums are exact while the image's total stays below 2^31 (the backend
// refuses larger images for these formats), so the offset sums are exact int32 values.
// Rounding is done in integers: GLSL leaves the rounding of int-to-float conversions
// open, the reference's static_cast rounds to nearest even.
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Table { uvec4 table[]; };  // entries, then the trailer

uniform int uMode;
uniform int uWidth;
uniform int uPixels;

// The float nearest to u (ties to even), as bits.
uint floatBits(uint u) {
  if (u == 0u) return 0u;
  int e = findMSB(u);
  uint mantissa;
  if (e <= 23) {
    mantissa = u << uint(23 - e);  // exact
  } else {
    const uint shift = uint(e - 23);
    mantissa = u >> shift;
    const uint rest = u & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (mantissa & 1u) == 1u)) mantissa += 1u;
    if (mantissa == (1u << 24u)) {  // rounded up to the next power of two
      mantissa >>= 1u;
      e += 1;
    }
  }
  return (uint(e + 127) << 23u) | (mantissa & 0x7FFFFFu);
}

// A wrapped uint32 holding an exact int32 value, to float bits.
uint signedFloatBits(uint d) {
  const int v = int(d);
  return v < 0 ? 0x80000000u | floatBits(uint(-v)) : floatBits(d);
}

void main() {
  const int n = uPixels;
  if (uMode == 0) {
    if (gl_GlobalInvocationID.x == 0u)
      table[n] = floatBitsToUint(vec4((table[n - 1] + uint(n / 2)) / uint(n)));  // small integers: exact
    return;
  }
  const int i = int(gl_GlobalInvocationID.x);
  if (i >= n) return;
  uvec4 s = table[i];
  if (uMode == 2) {
    const uvec4 m = uvec4(uintBitsToFloat(table[n]));
    s -= m * uint(i % uWidth + 1) * uint(i / uWidth + 1);  // modulo 2^32: exact when it fits int32
  }
  uvec4 bits;
  for (int c = 0; c < 4; ++c) bits[c] = uMode == 2 ? signedFloatBits(s[c]) : floatBits(s[c]);
  table[i] = bits;
}

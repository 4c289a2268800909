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
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Table { uvec4 table[]; };  // entries, then the trailer

uniform int uMode;
uniform int uWidth;
uniform int uPixels;

#include "compute/sat_entry_bits.glsl"

void main() {
  const int n = uPixels;
  if (uMode == 0) {
    if (gl_GlobalInvocationID.x == 0u)
      table[n] = floatBitsToUint(vec4(offsetMean(table[n - 1], uint(n))));
    return;
  }
  const int i = int(gl_GlobalInvocationID.x);
  if (i >= n) return;
  uvec4 s = table[i];
  if (uMode == 2) {
    const uvec4 m = uvec4(uintBitsToFloat(table[n]));
    s -= m * uint(i % uWidth + 1) * uint(i / uWidth + 1);  // modulo 2^32: exact when it fits int32
  }
  table[i] = uMode == 2 ? signedFloat32Bits(s) : float32Bits(s);
}

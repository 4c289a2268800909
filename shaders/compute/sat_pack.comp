#version 430
// shaders/compute/sat_pack.comp — packs the gl-compute backend's uint32 table into the
// uint21x3 format of satdof/sat_format.h (satdof/reference/uint21x3.h, bit for bit):
//   word0 = R[20:0] | B[10:0] << 21        word1 = G[20:0] | B[21:11] << 21
// The uint32 sums are exact modulo 2^32, so their low 21 and 22 bits are the fields.
layout(local_size_x = 256) in;
#include "compute/sat_entry_bits.glsl"

layout(std430, binding = 0) readonly buffer Exact { uvec4 exact[]; };
layout(std430, binding = 1) writeonly buffer Packed { uvec2 table[]; };

uniform int uPixels;

void main() {
  const int i = int(gl_GlobalInvocationID.x);
  if (i >= uPixels) return;
  table[i] = uint21x3Bits(exact[i]);
}

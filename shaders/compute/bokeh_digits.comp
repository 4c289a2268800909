#version 450 core
// shaders/compute/bokeh_digits.comp — the gl-compute bokeh sort, one pass of a stable
// radix sort with 2-bit digits (GPU Gems 3 ch. 39's split, four ways at once): element i
// of the kept list becomes texel (i % width, i / width) of the digit texture, one-hot on
// its digit's lane (none beyond the kept ones). The backend builds its SAT; then
// bokeh_split.comp scatters.
layout(local_size_x = 256) in;

layout(binding = 0, rgba8) writeonly uniform image2D uDigits;

#include "compute/bokeh_common.glsl"

uniform uint uShift;  // the digit's lowest bit

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint width = uint(uTableSize.x);
  if (i >= width * uint(uTableSize.y)) return;
  uvec4 flags = uvec4(0u);
  if (i < kept) flags[(keysIn[i] >> uShift) & 3u] = 1u;
  imageStore(uDigits, ivec2(i % width, i / width), flagTexel(flags));
}

#version 450 core
// shaders/compute/bokeh_split.comp — one pass of the gl-compute bokeh sort, the scatter:
// element i with digit d goes to (the elements of smaller digits) + (the elements of
// digit d before it), both from the SAT of bokeh_digits.comp's one-hot texture. Stable,
// so sixteen passes from the lowest digit up sort the keys with ties in pixel order.
layout(local_size_x = 256) in;

#include "compute/bokeh_common.glsl"

uniform uint uShift;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= kept) return;
  const uint width = uint(uTableSize.x);
  const uint key = keysIn[i], digit = (key >> uShift) & 3u;
  const uvec4 total = flagsTotal();
  const uvec4 before = flagsBefore(int(i % width), int(i / width));
  uint place = before[digit];
  for (uint d = 0u; d < digit; ++d) place += total[d];
  keysOut[place] = key;
  valuesOut[place] = valuesIn[i];
}

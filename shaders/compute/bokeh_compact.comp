#version 450 core
// shaders/compute/bokeh_compact.comp — the gl-compute bokeh list, step 2 (compact): every
// highlight goes to its place in pixel order, the exclusive scan of the flags (read from
// their SAT, bokeh_common.glsl), if that place is below the cap, as (key, pixel index):
// the key falls as depth grows (~ the float's bits), so sorting it up puts far first. Its
// rank starts at 0 for bokeh_rank.comp. Invocation (0, 0) writes how many there were, and
// how many are kept.
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uFlags;  // bokeh_flags.comp's texture
layout(binding = 1) uniform sampler2D uDepth;

#include "compute/bokeh_common.glsl"

uniform int uWidth;  // the image's
uniform uint uCap;

void main() {
  const ivec2 q = ivec2(gl_GlobalInvocationID.xy);
  if (q == ivec2(0)) {
    found = laneSum(flagsTotal());
    kept = min(found, uCap);
  }
  if (q.x >= uTableSize.x || q.y >= uTableSize.y) return;
  const uvec4 flags = uvec4(round(texelFetch(uFlags, q, 0) * 255.0));
  if (flags == uvec4(0u)) return;
  uint place = laneSum(flagsBefore(q.x, q.y));
  for (int k = 0; k < 4; ++k) {
    if (flags[k] == 0u) continue;
    if (place < uCap) {
      const ivec2 p = ivec2(4 * q.x + k, q.y);
      keys[place] = ~floatBitsToUint(texelFetch(uDepth, p, 0).r);
      pixels[place] = uint(p.y) * uint(uWidth) + uint(p.x);
      ranks[place] = 0u;
    }
    ++place;
  }
}

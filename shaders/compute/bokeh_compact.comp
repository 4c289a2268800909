#version 450 core
// shaders/compute/bokeh_compact.comp — the gl-compute bokeh list, step 3 (compact): one
// work group a segment; a segment without highlights stops at once. The others scan their
// invocations' counts (Hillis-Steele in shared memory) and each highlight goes to its
// place in pixel order, the segment's offset plus the highlights before it inside the
// segment, if that place is below the cap, as (key, pixel index): the key falls as depth
// grows (~ the float's bits), so sorting it up puts far first. Its rank starts at 0 for
// bokeh_rank.comp.
layout(local_size_x = SEGMENT / 4) in;

layout(binding = 1) uniform sampler2D uDepth;

#include "compute/bokeh_common.glsl"

uniform int uWidth;  // the image's
uniform uint uCap;

shared uint counts[2][SEGMENT / 4];

void main() {
  const uint segment = segmentIndex(), t = gl_LocalInvocationID.x;
  if (segments[segment].x == 0u || segments[segment].y >= uCap) return;  // the whole group
  const uint bits = flags[segment * kSegmentGroup + t];
  uint ping = 0u;
  counts[0][t] = uint(bitCount(bits));
  barrier();
  for (uint offset = 1u; offset < kSegmentGroup; offset <<= 1u) {
    const uint v = counts[ping][t] + (t >= offset ? counts[ping][t - offset] : 0u);
    ping = 1u - ping;
    counts[ping][t] = v;
    barrier();
  }
  if (bits == 0u) return;
  uint place = segments[segment].y + counts[ping][t] - uint(bitCount(bits));
  const int y = int(gl_WorkGroupID.y), x0 = segmentFirstPixel();
  for (int k = 0; k < 4; ++k) {
    if ((bits & (1u << k)) == 0u) continue;
    if (place < uCap) {
      const ivec2 p = ivec2(x0 + k, y);
      keys[place] = ~floatBitsToUint(texelFetch(uDepth, p, 0).r);
      pixels[place] = uint(p.y) * uint(uWidth) + uint(p.x);
      ranks[place] = 0u;
    }
    ++place;
  }
}

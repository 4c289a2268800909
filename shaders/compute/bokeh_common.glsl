// shaders/compute/bokeh_common.glsl — what the gl-compute backend's bokeh passes share
// (satdof/reference/bokeh.h defines the list they build; which pixels are highlights,
// bokeh_select.glsl):
//   * the scan: a uint32 SAT of a texture of one-hot flags, built by the backend's own
//     multi-block scan (sat_scan.comp rows then columns), read back as a 1D exclusive
//     scan in row-major order: the texels before (x, y) are the whole rows above plus
//     row y's columns before x, SAT(W-1, y-1) + SAT(x-1, y) - SAT(x-1, y-1) (lane by
//     lane, wrapping like the table);
//   * the buffers, at the bindings the backend gives them.
layout(std430, binding = 0) readonly buffer Table { uvec4 table[]; };  // the flags' SAT
layout(std430, binding = 1) buffer Counts {
  uint found;  // highlights before the cap
  uint kept;   // min(found, cap): the sprites
};
// The kept highlights in pixel order: element i's depth key and pixel index, and its place
// in the sorted list (bokeh_rank.comp).
layout(std430, binding = 2) buffer Keys { uint keys[]; };
layout(std430, binding = 3) buffer Pixels { uint pixels[]; };
layout(std430, binding = 4) buffer Ranks { uint ranks[]; };

uniform ivec2 uTableSize;  // the flag texture's extent, the SAT's

uvec4 satAt(int x, int y) { return x < 0 || y < 0 ? uvec4(0u) : table[y * uTableSize.x + x]; }

// Per lane: the flags of every texel before (x, y) in row-major order.
uvec4 flagsBefore(int x, int y) {
  return satAt(uTableSize.x - 1, y - 1) + satAt(x - 1, y) - satAt(x - 1, y - 1);
}

// Per lane: every texel's flags.
uvec4 flagsTotal() { return satAt(uTableSize.x - 1, uTableSize.y - 1); }

uint laneSum(uvec4 v) { return v.x + v.y + v.z + v.w; }

// A texel's one-hot flags as the SAT reads them (RGBA8: 1 is 1/255).
vec4 flagTexel(uvec4 flags) { return vec4(flags) / 255.0; }

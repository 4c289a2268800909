// shaders/view.frag — the views besides the final image (engine/passes/view_pass.h).
//   mode 0: A alone (the scene colour, or a convolution output);
//   mode 1: A left of the divider, B right of it, a line between;
//   mode 2: |A - B| per channel, amplified by uGain, and the largest difference in the
//           image (0..255, over R, G, B, A) into Stats.maxDifference;
//   mode 3: linear depth mapped from [uNear, uFar] to white..black on a log scale (the
//           sky in blue),
//           and the frame's nearest and farthest non-sky depths into Stats;
//   mode 4: the summed-area table at the pixel divided by its total (the bottom-right
//           entry), per channel: a ramp from 0 at the origin to 1 at the far corner;
//   mode 5: the final image (A) with the pixels within uFocusBand of the focal
//           distance tinted green;
//   mode 6: mode 3 with the pixels uHoles marks (no depth reading) tinted magenta: red and
//           blue alike and above green, which no grey depth and no sky has.
// The SAT is read through the chosen format's include (the loader maps the name).
#version 450 core

#include "sat_format.glsl"

layout(binding = 0) uniform sampler2D uA;
layout(binding = 1) uniform sampler2D uB;
layout(binding = 2) uniform sampler2D uDepth;  // linear view depth (scene units)
layout(binding = 3) uniform sampler2D uHoles;  // R8: 1 where the content had no depth reading
layout(std430, binding = 1) buffer Stats {
  uint maxDifference;
  uint depthMinBits;  // floatBitsToUint of positive floats orders like the floats
  uint depthMaxBits;
};

layout(location = 0) uniform int uMode;
layout(location = 1) uniform float uDivider;    // split position, pixels from the left
layout(location = 2) uniform float uGain;       // difference amplification
layout(location = 3) uniform vec2 uNearFar;     // depth view range
layout(location = 4) uniform float uSkyDepth;   // depth written where nothing was drawn
layout(location = 5) uniform ivec2 uSize;       // image size (the SAT's width and height)
layout(location = 6) uniform float uFocal;      // focal distance
layout(location = 7) uniform float uFocusBand;  // +- this many scene units count as in focus
layout(location = 8) uniform bool uHasHoles;    // uHoles is bound (mode 6)

layout(location = 0) out vec4 outColour;

// The depth view's colour of a linear depth; the frame's nearest and farthest non-sky
// depths into Stats.
vec4 depthColour(float z) {
  if (z >= uSkyDepth) return vec4(0.25, 0.35, 0.6, 1.0);
  atomicMin(depthMinBits, floatBitsToUint(max(z, 0.0)));
  atomicMax(depthMaxBits, floatBitsToUint(max(z, 0.0)));
  // Logarithmic: equal ratios of depth get equal steps of grey, so near objects are
  // told apart as well as far ones.
  float lo = log(max(uNearFar.x, 1e-3)), hi = log(max(uNearFar.y, 1e-3));
  float t = clamp((log(max(z, 1e-3)) - lo) / max(hi - lo, 1e-6), 0.0, 1.0);
  return vec4(vec3(1.0 - t), 1.0);
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  if (uMode == 0) {
    outColour = vec4(texelFetch(uA, p, 0).rgb, 1.0);
  } else if (uMode == 1) {
    float dx = gl_FragCoord.x - uDivider;
    vec4 c = dx < 0.0 ? texelFetch(uA, p, 0) : texelFetch(uB, p, 0);
    outColour = abs(dx) < 1.0 ? vec4(1.0, 0.85, 0.1, 1.0) : vec4(c.rgb, 1.0);
  } else if (uMode == 2) {
    vec4 a = texelFetch(uA, p, 0), b = texelFetch(uB, p, 0);
    uvec4 d = uvec4(abs(ivec4(round(a * 255.0)) - ivec4(round(b * 255.0))));
    uint m = max(max(d.r, d.g), max(d.b, d.a));
    if (m > 0u) atomicMax(maxDifference, m);  // most pixels agree: keep atomics rare
    outColour = vec4(min(vec3(d.rgb) * uGain / 255.0, vec3(1.0)), 1.0);
  } else if (uMode == 3 || uMode == 6) {
    outColour = depthColour(texelFetch(uDepth, p, 0).r);
    if (uMode == 6 && uHasHoles && texelFetch(uHoles, p, 0).r > 0.5)
      outColour = vec4(mix(outColour.rgb, vec3(1.0, 0.0, 1.0), 0.65), 1.0);
  } else if (uMode == 4) {
#ifdef SAT_ENTRY_MODULUS
    // The format keeps its entries modulo a field's range (uint21x3): the whole image's
    // sum is not in the table, so each entry is shown as a fraction of that range, a ramp
    // that starts again every 2^21 (blue: 2^22).
    outColour = vec4(satBoxSum(ivec2(0), p, uSize.x).rgb / SAT_ENTRY_MODULUS, 1.0);
#else
    vec4 total = satBoxSum(ivec2(0), uSize - 1, uSize.x);
    vec4 here = satBoxSum(ivec2(0), p, uSize.x);
    outColour = vec4(here.rgb / max(total.rgb, vec3(1e-6)), 1.0);
#endif
  } else {
    vec3 c = texelFetch(uA, p, 0).rgb;
    float z = texelFetch(uDepth, p, 0).r;
    float inFocus = 1.0 - smoothstep(0.5 * uFocusBand, uFocusBand, abs(z - uFocal));
    outColour = vec4(mix(c, vec3(0.1, 0.95, 0.3), 0.55 * inFocus), 1.0);
  }
}

// shaders/view.frag — comparison views of two images (convolution implementations A, B).
//   mode 0: A alone;  mode 1: A left of the divider, B right of it, a line between;
//   mode 2: |A - B| per channel, amplified by uGain, and the largest difference in the
//           image (0..255, over R, G, B, A) into MaxDifference.
#version 450 core

layout(binding = 0) uniform sampler2D uA;
layout(binding = 1) uniform sampler2D uB;
layout(std430, binding = 1) buffer MaxDifference { uint maxDifference; };

layout(location = 0) uniform int uMode;
layout(location = 1) uniform float uDivider;  // split position, pixels from the left
layout(location = 2) uniform float uGain;     // difference amplification

layout(location = 0) out vec4 outColour;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 a = texelFetch(uA, p, 0);
  vec4 b = texelFetch(uB, p, 0);
  if (uMode == 0) {
    outColour = vec4(a.rgb, 1.0);
  } else if (uMode == 1) {
    float dx = gl_FragCoord.x - uDivider;
    outColour = abs(dx) < 1.0 ? vec4(1.0, 0.85, 0.1, 1.0) : vec4((dx < 0.0 ? a : b).rgb, 1.0);
  } else {
    uvec4 d = uvec4(abs(ivec4(round(a * 255.0)) - ivec4(round(b * 255.0))));
    uint m = max(max(d.r, d.g), max(d.b, d.a));
    if (m > 0u) atomicMax(maxDifference, m);  // most pixels agree: keep atomics rare
    outColour = vec4(min(vec3(d.rgb) * uGain / 255.0, vec3(1.0)), 1.0);
  }
}

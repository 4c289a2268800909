// shaders/dof.frag — depth of field from a summed-area table: four reads per pixel.
//
// Mirrors satdof::reference::cocRadius / depthOfField (cuda/reference/dof.cpp); the GL
// test holds the two together. How the table is read (its format) comes from the
// include: the loader maps "sat_format.glsl" to the chosen format's file.
#version 450 core

#include "sat_format.glsl"

layout(binding = 0) uniform sampler2D uDistance;  // linear view depth (scene units)

layout(location = 0) uniform float uFocalDistance;  // sharp at this distance
layout(location = 1) uniform float uFocalRange;     // blur is maximal this far from it
layout(location = 2) uniform float uMaxRadius;      // largest box half-size, pixels
layout(location = 3) uniform ivec2 uSize;           // image size in pixels
layout(location = 4) uniform int uShowCoc;          // 1: visualise the radius instead

layout(location = 0) out vec4 outColour;

int cocRadius(float distance) {
  float range = max(uFocalRange, 1e-4);
  float t = clamp(abs(distance - uFocalDistance) / range, 0.0, 1.0);
  return int(floor(t * max(uMaxRadius, 0.0) + 0.5));
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int r = cocRadius(texelFetch(uDistance, p, 0).r);
  if (uShowCoc == 1) {
    float t = float(r) / max(uMaxRadius, 1.0);
    outColour = vec4(t, 1.0 - t, 0.15, 1.0);
    return;
  }
  // The box [p - r, p + r], clipped to the image, divided by the clipped area.
  ivec2 lo = max(p - r, ivec2(0));
  ivec2 hi = min(p + r, uSize - 1);
  vec4 sum = satBoxSum(lo, hi, uSize.x);
  float area = float((hi.x - lo.x + 1) * (hi.y - lo.y + 1));
  outColour = vec4(vec3(sum.rgb) / (area * 255.0), 1.0);  // the final image is opaque
}

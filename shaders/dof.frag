// shaders/dof.frag — depth of field from a summed-area table, as a full-screen fragment
// pass: four SAT reads per pixel (dof_common.glsl). The 8-bit result is written as
// byte / 255, which the RGBA8 target converts back to the same byte.
#version 450 core

layout(binding = 0) uniform sampler2D uDistance;  // linear view depth (scene units)

#include "dof_common.glsl"

layout(location = 0) out vec4 outColour;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  outColour = vec4(depthOfField(p, texelFetch(uDistance, p, 0).r)) / 255.0;
}

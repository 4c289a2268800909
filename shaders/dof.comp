// shaders/dof.comp — depth of field from a summed-area table, as a GL compute shader: the
// same arithmetic as dof.frag (dof_common.glsl), one invocation per pixel, written with
// imageStore. Works on every GL 4.3+ GPU; on compute-heavy GPUs it skips the raster units.
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uDistance;  // linear view depth (scene units)
layout(binding = 0, rgba8) writeonly uniform image2D uOutput;

#include "dof_common.glsl"

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= uSize.x || p.y >= uSize.y) return;
  imageStore(uOutput, p, vec4(depthOfField(p, texelFetch(uDistance, p, 0).r)) / 255.0);
}

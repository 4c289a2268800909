// shaders/bokeh_add.comp — the bokeh sprites' sum (bokeh.frag's output, added up in a
// half-float image) added onto the DoF output, each pixel rounded to 8 bits once, and the
// sum cleared for the next frame in the same pass. A compute pass rather than a
// full-screen draw and a clear: on a GPU with few raster units (the H200) those two cost
// more than the sprites.
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0, rgba8) uniform image2D uImage;  // the DoF output
layout(binding = 1, rgba16f) uniform image2D uSum;  // the sprites' sum

layout(location = 0) uniform ivec2 uSize;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= uSize.x || p.y >= uSize.y) return;
  vec4 sum = imageLoad(uSum, p);
  if (sum == vec4(0.0)) return;  // no sprite here: nothing to add, nothing to clear
  vec4 c = imageLoad(uImage, p);
  imageStore(uImage, p, vec4(min(c.rgb + sum.rgb, vec3(1.0)), c.a));
  imageStore(uSum, p, vec4(0.0));
}

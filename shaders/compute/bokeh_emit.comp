#version 450 core
// shaders/compute/bokeh_emit.comp — the gl-compute bokeh list, last step: each kept pixel
// as the sprite at its rank (bokeh_rank.comp), so the sprites come sorted: (x + 0.5,
// y + 0.5, radius, depth; colour), the layout shaders/bokeh.vert reads, and the
// draw-indirect command (a 4-vertex strip per sprite, then the count before the cap) in
// this frame's slot.
layout(local_size_x = 256) in;

layout(binding = 0) uniform sampler2D uColour;
layout(binding = 1) uniform sampler2D uDepth;

#include "coc.glsl"
#include "compute/bokeh_common.glsl"

struct Sprite {
  vec4 xyRadiusDepth;
  uvec4 colour;  // .x: r | g << 8 | b << 16 | 255 << 24
};
layout(std430, binding = 6) writeonly buffer Sprites { Sprite sprites[]; };
layout(std430, binding = 7) writeonly buffer Commands { uint commands[]; };

uniform uint uCommand;  // the slot's first word

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i == 0u) {
    commands[uCommand] = 4u;
    commands[uCommand + 1u] = kept;
    commands[uCommand + 2u] = 0u;
    commands[uCommand + 3u] = 0u;
    commands[uCommand + 4u] = found;
  }
  if (i >= kept) return;
  const uint index = pixels[i];
  const ivec2 p = ivec2(index % uint(uSize.x), index / uint(uSize.x));
  const uvec4 c = uvec4(round(texelFetch(uColour, p, 0) * 255.0));
  const float depth = texelFetch(uDepth, p, 0).r;
  const uint slot = ranks[i];
  sprites[slot].xyRadiusDepth = vec4(float(p.x) + 0.5, float(p.y) + 0.5, float(cocRadius(depth)), depth);
  sprites[slot].colour = uvec4(c.r | c.g << 8u | c.b << 16u | 255u << 24u, 0u, 0u, 0u);
}

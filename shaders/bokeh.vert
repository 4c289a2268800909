// shaders/bokeh.vert — one bokeh sprite per instance (satdof/reference/bokeh.h): a quad of
// half-size radius + 0.5 around the highlight's pixel, as a 4-vertex strip, no vertex data.
#version 450 core

struct Sprite {
  vec4 xyRadiusDepth;
  uvec4 colour;  // .x: r | g << 8 | b << 16 | a << 24
};
layout(std430, binding = 0) readonly buffer Sprites { Sprite sprites[]; };

layout(location = 0) uniform ivec2 uSize;

out SpriteOut {
  vec2 local;  // pixels from the sprite's centre
  flat float radius;
  flat vec3 colour;
} vOut;

void main() {
  Sprite s = sprites[gl_InstanceID];
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
  float r = s.xyRadiusDepth.z + 0.5;
  vec2 pixel = s.xyRadiusDepth.xy + corner * r;
  gl_Position = vec4(pixel / vec2(uSize) * 2.0 - 1.0, 0.0, 1.0);
  vOut.local = corner * r;
  vOut.radius = r;
  uint c = s.colour.x;
  vOut.colour = vec3(c & 255u, (c >> 8) & 255u, (c >> 16) & 255u) / 255.0;
}

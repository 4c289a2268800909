// shaders/bokeh.frag — a bokeh sprite's shape (a disc, or a hexagon as a six-bladed
// aperture makes), anti-aliased over one pixel, added to the DoF image. Each highlight
// pixel spreads its excess brightness over its circle of confusion (divided by the area,
// so a spot of many highlight pixels makes one bright disc, not a pile).
#version 450 core

in SpriteOut {
  vec2 local;
  flat float radius;
  flat vec3 colour;
} vIn;

layout(location = 1) uniform int uShape;  // 0 disc, 1 hexagon
layout(location = 2) uniform float uIntensity;
layout(location = 3) uniform float uThreshold;  // luminance 0..1 where highlights start

layout(location = 0) out vec4 outColour;

void main() {
  vec2 q = abs(vIn.local);
  float d = uShape == 1 ? max(q.x * 0.8660254 + q.y * 0.5, q.y) : length(vIn.local);
  float coverage = clamp(vIn.radius - d, 0.0, 1.0);
  float luminance = dot(vIn.colour, vec3(0.2126, 0.7152, 0.0722));
  float excess = clamp((luminance - uThreshold) / max(1.0 - uThreshold, 1e-3), 0.0, 1.0);
  float area = 3.14159265 * vIn.radius * vIn.radius;
  outColour = vec4(vIn.colour * (uIntensity * excess * coverage / area), 0.0);
}

// shaders/bokeh.frag — a bokeh sprite in the aperture's shape (round, or the regular polygon
// its blades make, inscribed in the circle of confusion), anti-aliased over one pixel, added
// to the DoF image. Each highlight pixel spreads its excess brightness over the shape's area
// (so a spot of many highlight pixels makes one bright sprite, not a pile).
#version 450 core

in SpriteOut {
  vec2 local;
  flat float radius;
  flat vec3 colour;
} vIn;

const int kMaxBlades = 12;  // engine/passes/bokeh_pass.h

layout(location = 1) uniform int uBlades;  // 0: round; else the polygon's edges
layout(location = 2) uniform float uIntensity;
layout(location = 3) uniform float uThreshold;  // luminance 0..1 where highlights start
layout(location = 4) uniform float uInradius;   // the polygon's, over the radius: cos(pi / blades)
layout(location = 5) uniform float uArea;       // the shape's area over radius^2 (pi: round)
layout(location = 6) uniform vec2 uEdgeNormals[kMaxBlades];  // outward, unit length

layout(location = 0) out vec4 outColour;

void main() {
  float coverage;
  if (uBlades == 0) {
    coverage = clamp(vIn.radius - length(vIn.local), 0.0, 1.0);
  } else {
    // Inside where no edge's normal reaches past the inradius: the farthest decides.
    float reach = dot(vIn.local, uEdgeNormals[0]);
    for (int k = 1; k < uBlades; ++k) reach = max(reach, dot(vIn.local, uEdgeNormals[k]));
    coverage = clamp(vIn.radius * uInradius - reach, 0.0, 1.0);
  }
  float luminance = dot(vIn.colour, vec3(0.2126, 0.7152, 0.0722));
  float excess = clamp((luminance - uThreshold) / max(1.0 - uThreshold, 1e-3), 0.0, 1.0);
  float area = uArea * vIn.radius * vIn.radius;
  outColour = vec4(vIn.colour * (uIntensity * excess * coverage / area), 0.0);
}

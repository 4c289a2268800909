// shaders/scene_resolve.frag — resolves the multisampled scene into the frame's targets
// (app/passes/scene_pass.h): colour is the mean of the samples; linear depth is the
// nearest sample's, so a silhouette pixel gets the depth of the surface in front rather
// than a mean of two surfaces (a depth where nothing is, which the DoF would blur wrongly).
#version 450 core

layout(binding = 0) uniform sampler2DMS uColour;
layout(binding = 1) uniform sampler2DMS uDistance;

layout(location = 0) uniform int uSamples;

layout(location = 0) out vec4 outColour;
layout(location = 1) out float outDistance;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 sum = vec4(0.0);
  float nearest = 3.4e38;
  for (int i = 0; i < uSamples; ++i) {
    sum += texelFetch(uColour, p, i);
    nearest = min(nearest, texelFetch(uDistance, p, i).r);
  }
  outColour = sum / float(uSamples);
  outDistance = nearest;
}

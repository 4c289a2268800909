// shaders/scene_resolve.comp — resolves the multisampled scene into the frame's targets
// (engine/passes/scene_pass.h): colour is the mean of the samples; linear depth is the
// nearest sample's, so a silhouette pixel gets the depth of the surface in front rather
// than a mean of two surfaces (a depth where nothing is, which the DoF would blur wrongly).
// A compute shader, not a full-screen triangle: on GPUs with few graphics-capable SMs
// (the H100/H200 shade fragments on a handful of them) a fragment pass over every pixel
// costs milliseconds that a compute dispatch spreads over the whole chip.
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2DMS uColour;
layout(binding = 1) uniform sampler2DMS uDistance;
layout(binding = 0, rgba8) uniform writeonly image2D outColour;
layout(binding = 1, r32f) uniform writeonly image2D outDistance;

layout(location = 0) uniform int uSamples;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(outColour)))) return;
  vec4 sum = vec4(0.0);
  float nearest = 3.4e38;
  for (int i = 0; i < uSamples; ++i) {
    sum += texelFetch(uColour, p, i);
    nearest = min(nearest, texelFetch(uDistance, p, i).r);
  }
  imageStore(outColour, p, sum / float(uSamples));
  imageStore(outDistance, p, vec4(nearest));
}

#version 450 core
// shaders/compute/bokeh_flags.comp — the gl-compute bokeh list, step 1 (select): one
// texel of the flag texture per invocation, holding four consecutive pixels of a row
// (lane k: pixel 4x + k), 1 where the pixel is a highlight (satdof/reference/bokeh.h:
// luminance (54 r + 183 g + 19 b) >> 8 above the threshold, circle of confusion of at
// least the minimum radius, outshining its ring in linear light: bokeh_select.glsl). The
// backend then builds the SAT of this texture.
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uColour;  // the image the SAT read (RGBA8)
layout(binding = 1) uniform sampler2D uDepth;   // linear view depth (R32F)
layout(binding = 0, rgba8) writeonly uniform image2D uFlags;

#include "coc.glsl"
#include "compute/bokeh_common.glsl"

uniform uint uThreshold;
uniform uint uContrast;  // sixteenths
uniform int uMinRadius;

uvec3 bokehColourAt(ivec2 p) { return uvec3(round(texelFetch(uColour, p, 0).rgb * 255.0)); }

#include "compute/bokeh_select.glsl"

bool isHighlight(ivec2 p) {
  if (p.x >= uSize.x) return false;
  if (bokehLuminance(bokehColourAt(p)) <= uThreshold) return false;
  if (cocRadius(texelFetch(uDepth, p, 0).r) < uMinRadius) return false;
  return bokehOutshines(p, uSize, uContrast);
}

void main() {
  const ivec2 q = ivec2(gl_GlobalInvocationID.xy);
  if (q.x >= uTableSize.x || q.y >= uTableSize.y) return;
  uvec4 flags = uvec4(0u);
  for (int k = 0; k < 4; ++k) flags[k] = isHighlight(ivec2(4 * q.x + k, q.y)) ? 1u : 0u;
  imageStore(uFlags, q, flagTexel(flags));
}

#version 450 core
// shaders/compute/bokeh_flags.comp — the gl-compute bokeh list, step 1 (select): one work
// group a segment (bokeh_common.glsl), four consecutive pixels of a row an invocation;
// its bits say which are highlights (satdof/reference/bokeh.h: luminance (54 r + 183 g +
// 19 b) >> 8 above the threshold, circle of confusion of at least the minimum radius,
// outshining its ring in linear light: bokeh_select.glsl), and the group writes how many
// its segment has.
layout(local_size_x = SEGMENT / 4) in;

layout(binding = 0) uniform sampler2D uColour;  // the image the SAT read (RGBA8)
layout(binding = 1) uniform sampler2D uDepth;   // linear view depth (R32F)

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

shared uint groupCount;

void main() {
  const uint segment = segmentIndex(), lane = segment * kSegmentGroup + gl_LocalInvocationID.x;
  const int y = int(gl_WorkGroupID.y), x0 = segmentFirstPixel();
  if (gl_LocalInvocationID.x == 0u) groupCount = 0u;
  barrier();
  uint bits = 0u;
  for (int k = 0; k < 4; ++k) bits |= isHighlight(ivec2(x0 + k, y)) ? 1u << k : 0u;
  flags[lane] = bits;
  if (bits != 0u) atomicAdd(groupCount, uint(bitCount(bits)));  // an integer sum: any order
  barrier();
  if (gl_LocalInvocationID.x == 0u) segments[segment].x = groupCount;
}

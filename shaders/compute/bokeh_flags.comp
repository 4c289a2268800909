#version 450 core
// shaders/compute/bokeh_flags.comp — the gl-compute bokeh list, step 1 (select): one work
// group a segment (bokeh_common.glsl). Invocation t tests pixels t, t + SEGMENT / 4, ...
// of it, so that a lamp's neighbouring pixels, whose tests may each walk a ring of
// hundreds of pixels, are tested side by side rather than one after another; the bits of
// pixels 4t .. 4t + 3 (gathered in shared memory) say which are highlights
// (satdof/reference/bokeh.h: luminance (54 r + 183 g + 19 b) >> 8 above the threshold,
// circle of confusion of at least the minimum radius, outshining its ring in linear
// light: bokeh_select.glsl), and the group writes how many its segment has.
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
shared uint groupBits[kSegmentGroup];  // pixels 4w .. 4w + 3 of the segment in word w

void main() {
  const uint segment = segmentIndex(), t = gl_LocalInvocationID.x;
  const int y = int(gl_WorkGroupID.y), x0 = int(gl_WorkGroupID.x * kSegment);
  if (t == 0u) groupCount = 0u;
  groupBits[t] = 0u;
  barrier();
  uint found = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    const uint i = t + k * kSegmentGroup;
    if (isHighlight(ivec2(x0 + int(i), y))) {
      atomicOr(groupBits[i >> 2u], 1u << (i & 3u));
      ++found;
    }
  }
  if (found != 0u) atomicAdd(groupCount, found);  // an integer sum: any order
  barrier();
  flags[segment * kSegmentGroup + t] = groupBits[t];
  if (t == 0u) segments[segment].x = groupCount;
}

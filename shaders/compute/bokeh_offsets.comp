#version 450 core
// shaders/compute/bokeh_offsets.comp — the gl-compute bokeh list, step 2 (scan): one work
// group scans the segments' counts (bokeh_flags.comp) into each segment's offset, the
// highlights of the segments before it: every invocation sums a run of segments, the
// group scans those sums (Hillis-Steele in shared memory, GPU Gems 3, 39.2.1), then each
// run is scanned on from its sum's prefix. The total is how many were found; the cap
// bounds how many are kept.
layout(local_size_x = 1024) in;

#include "compute/bokeh_common.glsl"

uniform uint uSegments;
uniform uint uCap;

shared uint sums[2][1024];

void main() {
  const uint t = gl_LocalInvocationID.x;
  const uint run = (uSegments + 1023u) / 1024u;
  const uint first = min(t * run, uSegments), last = min(first + run, uSegments);
  uint sum = 0u;
  for (uint s = first; s < last; ++s) sum += segments[s].x;
  uint ping = 0u;
  sums[0][t] = sum;
  barrier();
  for (uint offset = 1u; offset < 1024u; offset <<= 1u) {
    const uint v = sums[ping][t] + (t >= offset ? sums[ping][t - offset] : 0u);
    ping = 1u - ping;
    sums[ping][t] = v;
    barrier();
  }
  uint before = sums[ping][t] - sum;  // inclusive to exclusive
  for (uint s = first; s < last; ++s) {
    const uint count = segments[s].x;
    segments[s].y = before;
    before += count;
  }
  if (t == 1023u) {
    found = sums[ping][t];
    kept = min(found, uCap);
  }
}

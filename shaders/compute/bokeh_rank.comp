#version 450 core
// shaders/compute/bokeh_rank.comp — the gl-compute bokeh sort: each kept highlight's place
// in the sorted list is the number of highlights that come before it, back to front with
// ties in pixel order: those with a smaller key, and those with its key and a smaller list
// index (the list is in pixel order). A rank sort: n^2 comparisons, all independent, so
// they spread over the whole GPU where a radix sort of at most kMaxBokehSprites keys would
// be a chain of small passes. Work group (x, y) compares its GROUP elements with the keys
// of chunk y (CHUNK of them, from shared memory) and adds its counts to their ranks;
// integer sums, so the ranks do not depend on the order the groups run in. GROUP and
// CHUNK are defines (engine/backends/gl_bokeh.cpp).
layout(local_size_x = GROUP) in;

#include "compute/bokeh_common.glsl"

const uint kChunk = CHUNK;
shared uint chunkKeys[kChunk];

void main() {
  const uint first = gl_WorkGroupID.y * kChunk;
  if (first >= kept) return;  // the whole group: nothing of this chunk is kept
  const uint size = min(kChunk, kept - first);
  for (uint j = gl_LocalInvocationID.x; j < size; j += gl_WorkGroupSize.x) chunkKeys[j] = keys[first + j];
  barrier();
  const uint i = gl_GlobalInvocationID.x;
  if (i >= kept) return;
  const uint key = keys[i];
  uint before = 0u;
  for (uint j = 0u; j < size; ++j) {
    const uint other = chunkKeys[j];
    before += (other < key || (other == key && first + j < i)) ? 1u : 0u;
  }
  if (before != 0u) atomicAdd(ranks[i], before);
}

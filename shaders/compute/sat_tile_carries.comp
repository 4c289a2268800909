#version 430
// shaders/compute/sat_tile_carries.comp — pass 2 of the gl-compute SAT "reduce-then-scan"
// (sat_tile.glsl), two kinds of work groups in one dispatch:
//   [0, uRowGroups):  an invocation per image row turns rowCarry's tile totals into the
//                     exclusive sums along the row (tilesX of them, in order);
//   the rest:         8 columns x 32 groups of bands per work group (few bands per
//                     invocation: the loads in a chain are few): each group sums its
//                     bands of colCarry, the groups meet in shared memory, then each
//                     rewrites its bands as the exclusive sums down the column, and the
//                     last group writes the sum over every band at band tilesY.
layout(local_size_x = 256) in;
#include "compute/sat_tile.glsl"

uniform int uRowGroups;

const uint kLanes = 8u, kBandGroups = 32u;  // a band's 8 columns: one 128-byte line
shared uvec4 groupSums[kBandGroups * kLanes];

void main() {
  const uint t = gl_LocalInvocationIndex;
  const uint width = uint(uExtent.x), tilesX = uint(uTiles.x), tilesY = uint(uTiles.y);
  if (int(gl_WorkGroupID.x) < uRowGroups) {  // the whole work group takes this branch
    const uint y = gl_WorkGroupID.x * 256u + t;
    if (y >= uint(uExtent.y)) return;
    uvec4 run = uvec4(0u);
    for (uint b = 0u; b < tilesX; ++b) {
      const uvec4 v = rowCarry[y * tilesX + b];
      rowCarry[y * tilesX + b] = run;
      run += v;
    }
    return;
  }
  const uint lane = t % kLanes, group = t / kLanes;
  const uint x = (gl_WorkGroupID.x - uint(uRowGroups)) * kLanes + lane;
  const bool inside = x < width;
  const uint per = (tilesY + kBandGroups - 1u) / kBandGroups;
  const uint b0 = min(group * per, tilesY), b1 = min(b0 + per, tilesY);
  uvec4 sum = uvec4(0u);
  if (inside)
    for (uint b = b0; b < b1; ++b) sum += colCarry[b * width + x];
  groupSums[t] = sum;
  barrier();
  uvec4 run = uvec4(0u);
  for (uint g = 0u; g < group; ++g) run += groupSums[g * kLanes + lane];
  if (!inside) return;
  for (uint b = b0; b < b1; ++b) {
    const uvec4 v = colCarry[b * width + x];
    colCarry[b * width + x] = run;
    run += v;
  }
  if (group == kBandGroups - 1u) colCarry[tilesY * width + x] = run;
}

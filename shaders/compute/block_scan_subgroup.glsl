// shaders/compute/block_scan_subgroup.glsl — the "subgroup" block scan of the gl-compute
// backend's SAT: KHR_shader_subgroup arithmetic instead of a shared-memory tree (the
// GLSL counterpart of the CUDA backend's warp-shuffle scan, __shfl_up_sync). Contract:
// block_scan_blelloch_conflict_free.glsl's header; the backend loads this file only where
// GL_KHR_shader_subgroup offers arithmetic in compute shaders.
//
//   1. each invocation adds its two consecutive elements (registers);
//   2. subgroupInclusiveAdd over the invocations' pair sums;
//   3. each subgroup's total goes to shared memory; the first subgroup scans those few
//      totals (256 / gl_SubgroupSize of them: 8 on a 32-wide GPU) with one more
//      subgroupInclusiveAdd (in order by one invocation where they outnumber its lanes);
//   4. each invocation adds its subgroup's offset.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

const uint kScanThreads = 256u;
const uint kPerThread = 2u;
const uint kScanElements = kScanThreads * kPerThread;
// The work group is declared here, before any use of the work-group built-ins (NVIDIA's
// compiler requires that order).
layout(local_size_x = 256) in;
#include "compute/scan_index.glsl"

shared uvec4 subgroupTotals[kScanThreads];  // enough for a subgroup size of 1
shared uvec4 blockTotal;

// Consecutive pairs in subgroup order: invocation i of subgroup s is number
// t = s * gl_SubgroupSize + i and holds elements 2t and 2t + 1. (GLSL does not promise
// that t is gl_LocalInvocationIndex; the 256 invocations fill whole subgroups, since
// subgroup sizes are powers of two up to 128, so t covers 0..255 once.)
uint scanElement(uint k) {
  return adjacentPairsElement(threadOf(gl_SubgroupID, gl_SubgroupInvocationID, gl_SubgroupSize), k);
}

uvec4 blockScanInclusive(inout uvec4 v[kPerThread]) {
  const uvec4 pair = v[0] + v[1];
  const uvec4 inclusive = subgroupInclusiveAdd(pair);
  if (writesWarpTotal(gl_SubgroupInvocationID, gl_SubgroupSize)) subgroupTotals[warpTotalSlot(gl_SubgroupID)] = inclusive;
  barrier();
  if (gl_SubgroupID == 0u) {
    if (gl_NumSubgroups <= gl_SubgroupSize) {  // the totals scanned by the first subgroup
      const uint s = gl_SubgroupInvocationID;
      const uvec4 mine = s < gl_NumSubgroups ? subgroupTotals[warpTotalSlot(s)] : uvec4(0u);
      const uvec4 upTo = subgroupInclusiveAdd(mine);
      if (s < gl_NumSubgroups) subgroupTotals[warpTotalSlot(s)] = upTo - mine;  // exclusive: the subgroups before s
      if (writesWarpTotal(s, gl_SubgroupSize)) blockTotal = upTo;  // the last lane: all of them
    } else if (gl_SubgroupInvocationID == 0u) {  // narrow subgroups: in order, by one invocation
      uvec4 run = uvec4(0u);
      for (uint s = 0u; s < gl_NumSubgroups; ++s) {
        const uvec4 next = run + subgroupTotals[warpTotalSlot(s)];
        subgroupTotals[warpTotalSlot(s)] = run;
        run = next;
      }
      blockTotal = run;
    }
  }
  barrier();
  const uvec4 before = subgroupTotals[warpTotalSlot(gl_SubgroupID)] + inclusive - pair;
  v[0] += before;
  v[1] += v[0];
  const uvec4 total = blockTotal;
  barrier();  // the totals may be reused by the caller's next block
  return total;
}

// shaders/compute/block_scan_subgroup.glsl — the "subgroup" block scan of the gl-compute
// backend's SAT: KHR_shader_subgroup arithmetic instead of a shared-memory tree (the
// GLSL counterpart of a warp scan with __shfl_up_sync). Same contract as
// block_scan_blelloch.glsl (read that header); the backend loads this file only where
// GL_KHR_shader_subgroup offers arithmetic in compute shaders.
//
//   1. each invocation adds its two consecutive elements (registers);
//   2. subgroupInclusiveAdd over the invocations' pair sums;
//   3. each subgroup's total goes to shared memory; invocation 0 scans those few
//      totals in order (256 / gl_SubgroupSize of them: 8 on a 32-wide GPU);
//   4. each invocation adds its subgroup's offset.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

const uint kScanThreads = 256u;
const uint kScanElements = 2u * kScanThreads;
// The work group is declared here, before any use of the work-group built-ins (NVIDIA's
// compiler requires that order).
layout(local_size_x = 256) in;

shared uvec4 subgroupTotals[kScanThreads];  // enough for a subgroup size of 1
shared uvec4 blockTotal;

// Consecutive pairs in subgroup order: invocation i of subgroup s is number
// t = s * gl_SubgroupSize + i and holds elements 2t and 2t + 1. (GLSL does not promise
// that t is gl_LocalInvocationIndex; the 256 invocations fill whole subgroups, since
// subgroup sizes are powers of two up to 128, so t covers 0..255 once.)
uint scanElement(uint which) { return 2u * (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID) + which; }

uvec4 blockScanInclusive(inout uvec4 v0, inout uvec4 v1) {
  const uvec4 pair = v0 + v1;
  const uvec4 inclusive = subgroupInclusiveAdd(pair);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) subgroupTotals[gl_SubgroupID] = inclusive;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uvec4 run = uvec4(0u);
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      const uvec4 next = run + subgroupTotals[s];
      subgroupTotals[s] = run;  // exclusive: what the subgroups before s add up to
      run = next;
    }
    blockTotal = run;
  }
  barrier();
  const uvec4 before = subgroupTotals[gl_SubgroupID] + inclusive - pair;
  v0 += before;
  v1 += v0;
  const uvec4 total = blockTotal;
  barrier();  // the totals may be reused by the caller's next block
  return total;
}

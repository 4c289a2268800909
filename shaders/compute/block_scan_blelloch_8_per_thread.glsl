// shaders/compute/block_scan_blelloch_8_per_thread.glsl — the "blelloch-8-per-thread"
// block scan of the gl-compute backend: 64 invocations, each holding 8 consecutive
// elements; each scans its 8 in registers, the Blelloch tree (blelloch_tree.glsl, padded)
// scans the 64 invocation totals, and each adds its total's exclusive prefix back. The
// tree is 8x smaller than the 2-per-invocation variants' (12 barriers instead of 20).
// Contract: block_scan_blelloch_conflict_free.glsl's header. An invocation's elements
// are neighbours, so its stores would be 128 bytes apart across a warp: reduce-then-scan
// stages each row of the table in shared memory first (SAT_STAGED_STORES).
#define SAT_STAGED_STORES 1

const uint kScanThreads = 64u;
const uint kPerThread = 8u;
const uint kScanElements = kScanThreads * kPerThread;
layout(local_size_x = 64) in;  // before any use of the work-group built-ins (NVIDIA)
#include "compute/scan_index.glsl"

const uint kTreeSize = kScanThreads;
uint treeSlot(uint n) { return bankPaddedSlot(n); }
shared uvec4 scanTree[kTreeSize + (kTreeSize >> 5u)];  // bankPaddedSize(kTreeSize), by hand (scan_tree.h checks it)
uint scanElement(uint k) { return blockedFirst(gl_LocalInvocationIndex, kPerThread) + k; }
#include "compute/blelloch_tree.glsl"

uvec4 blockScanInclusive(inout uvec4 v[kPerThread]) {
  for (uint k = 1u; k < kPerThread; ++k) v[k] += v[k - 1u];
  scanTree[treeSlot(gl_LocalInvocationIndex)] = v[kPerThread - 1u];
  const uvec4 total = treeScanExclusive();
  const uvec4 before = scanTree[treeSlot(gl_LocalInvocationIndex)];
  for (uint k = 0u; k < kPerThread; ++k) v[k] += before;
  barrier();  // the tree may be reused by the caller's next block
  return total;
}

// shaders/compute/blelloch_tree.glsl — the work-efficient tree of the Blelloch block scans
// (GPU Gems 3, ch. 39): an up-sweep that leaves the total at the root, then a down-sweep
// that turns the tree into the exclusive prefix sums of its leaves, in place.
//
// The including variant declares, before including this file:
//   const uint kTreeSize;                // leaves, a power of two, at most 2 x the work group
//   uint treeSlot(uint n);               // where leaf/node n lives (the padding, or none)
//   shared uvec4 scanTree[...];          // at least treeSlot(kTreeSize - 1) + 1 entries
//   uint scanElement(uint k);            // the block scan's element mapping
// Invocation t < kTreeSize / 2 works at each level; every invocation of the work group
// must call treeScanExclusive (it has barriers). The caller fills the leaves and issues no
// barrier before the call; the call ends with one, so the leaves may be read at once.
// leavesBlockScanInclusive is the whole block scan where the leaves are the block's
// elements (kTreeSize == kScanElements: blelloch, blelloch-conflict-free). The nodes are
// scan_index.glsl's blellochLeft/blellochRight, as in the CUDA kernels and the lesson.
#include "compute/scan_index.glsl"

uvec4 treeScanExclusive() {
  const uint t = gl_LocalInvocationIndex;
  // ---- up-sweep (reduction): after it, the root holds the total --------------------------
  uint offset = 1u;
  for (uint d = kTreeSize >> 1u; d > 0u; d >>= 1u) {
    barrier();
    if (t < d) {
      scanTree[treeSlot(blellochRight(offset, t))] += scanTree[treeSlot(blellochLeft(offset, t))];
    }
    offset <<= 1u;
  }
  barrier();
  const uvec4 total = scanTree[treeSlot(kTreeSize - 1u)];
  barrier();
  if (t == 0u) scanTree[treeSlot(kTreeSize - 1u)] = uvec4(0u);
  // ---- down-sweep: each node passes its value left and value + left right ---------------
  for (uint d = 1u; d < kTreeSize; d <<= 1u) {
    offset >>= 1u;
    barrier();
    if (t < d) {
      const uint a = treeSlot(blellochLeft(offset, t)), b = treeSlot(blellochRight(offset, t));
      const uvec4 left = scanTree[a];
      scanTree[a] = scanTree[b];
      scanTree[b] += left;
    }
  }
  barrier();
  return total;
}

uvec4 leavesBlockScanInclusive(inout uvec4 v[kPerThread]) {
  for (uint k = 0u; k < kPerThread; ++k) scanTree[treeSlot(scanElement(k))] = v[k];
  const uvec4 total = treeScanExclusive();
  // The tree holds the exclusive scan; the inclusive one adds each element back.
  for (uint k = 0u; k < kPerThread; ++k) v[k] += scanTree[treeSlot(scanElement(k))];
  barrier();  // the tree may be reused by the caller's next block
  return total;
}

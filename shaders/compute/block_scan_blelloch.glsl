// shaders/compute/block_scan_blelloch.glsl — the "blelloch" block scan of the gl-compute
// backend: the Blelloch tree (blelloch_tree.glsl) with no padding, two elements per
// invocation: at the tree's deep levels the power-of-two strides send a warp's accesses
// to the same banks (bank conflicts and all; blelloch-conflict-free pads them apart).
// Contract: block_scan_blelloch_conflict_free.glsl's header.

const uint kScanThreads = 256u;
const uint kPerThread = 2u;
const uint kScanElements = kScanThreads * kPerThread;
layout(local_size_x = 256) in;  // before any use of the work-group built-ins (NVIDIA)
#include "compute/scan_index.glsl"

const uint kTreeSize = kScanElements;
uint treeSlot(uint n) { return n; }
shared uvec4 scanTree[kTreeSize];
// One element of each half of the block, as blelloch-conflict-free (the CUDA blelloch
// takes adjacent pairs).
uint scanElement(uint k) { return tileHalvesElement(gl_LocalInvocationIndex, k, kScanElements); }
#include "compute/blelloch_tree.glsl"

uvec4 blockScanInclusive(inout uvec4 v[kPerThread]) { return leavesBlockScanInclusive(v); }

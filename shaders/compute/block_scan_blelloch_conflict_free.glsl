// shaders/compute/block_scan_blelloch_conflict_free.glsl — the "blelloch-conflict-free"
// block scan of the gl-compute backend: the Blelloch tree (blelloch_tree.glsl) with the
// chapter's conflict-free padding, two elements per invocation.
//
// Contract of every block_scan_<name>.glsl (the SAT shaders include "compute/block_scan.glsl",
// which the loader aliases to the chosen variant):
//   kScanThreads invocations (the variant declares the work group) hold kPerThread values
//   each, kScanElements = kScanThreads * kPerThread = 512 in all; invocation t holds the
//   block's elements scanElement(0) .. scanElement(kPerThread - 1) (which ones is the
//   variant's choice);
//   blockScanInclusive(v) replaces them by their inclusive prefix sums over the block
//   (uvec4 lanes, wrapping modulo 2^32) and returns the block's total.
// Every invocation of the work group must call it (it has barriers); it ends with a
// barrier, so the caller may call it again at once.
//
// Padding: index n is stored at n + (n >> 5) (32 banks; the chapter wrote it for 16 and
// its macro is often written with + binding before >>, which makes the padding zero).
// An entry is a uvec4 (four banks), so the padding breaks the power-of-two strides of
// the tree into distinct bank groups rather than making every access conflict-free.

const uint kScanThreads = 256u;
const uint kPerThread = 2u;
const uint kScanElements = kScanThreads * kPerThread;
// The work group is declared here, before any use of the work-group built-ins (NVIDIA's
// compiler requires that order).
layout(local_size_x = 256) in;
#include "compute/scan_index.glsl"

const uint kTreeSize = kScanElements;
uint treeSlot(uint n) { return bankPaddedSlot(n); }
shared uvec4 scanTree[kTreeSize + (kTreeSize >> 5u)];  // bankPaddedSize(kTreeSize), by hand (scan_tree.h checks it)
// The chapter's split: invocation t owns an element of each half of the block.
uint scanElement(uint k) { return tileHalvesElement(gl_LocalInvocationIndex, k, kScanElements); }
#include "compute/blelloch_tree.glsl"

uvec4 blockScanInclusive(inout uvec4 v[kPerThread]) { return leavesBlockScanInclusive(v); }

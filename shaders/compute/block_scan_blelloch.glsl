// shaders/compute/block_scan_blelloch.glsl — the "blelloch" block scan of the gl-compute
// backend's SAT (GPU Gems 3, ch. 39): the work-efficient up-sweep / down-sweep over a
// balanced tree in shared memory, with the chapter's conflict-free padding.
//
// Contract shared with block_scan_subgroup.glsl (the SAT shaders include
// "compute/block_scan.glsl", which the loader aliases to one of the two):
//   kScanThreads invocations hold kScanElements = 2 * kScanThreads values; each holds
//   the block's elements scanElement(0) and scanElement(1) (which ones is the scan's
//   choice);
//   blockScanInclusive(v0, v1) replaces them by their inclusive prefix sums over the
//   block (uvec4 lanes, wrapping modulo 2^32) and returns the block's total.
// Every invocation of the work group must call it (it has barriers).
//
// Padding: index n is stored at n + (n >> 5) (32 banks; the chapter wrote it for 16 and
// its macro is often written with + binding before >>, which makes the padding zero).
// An entry is a uvec4 (four banks), so the padding breaks the power-of-two strides of
// the tree into distinct bank groups rather than making every access conflict-free.

const uint kScanThreads = 256u;
const uint kScanElements = 2u * kScanThreads;
// The work group is declared here, before any use of the work-group built-ins (NVIDIA's
// compiler requires that order).
layout(local_size_x = 256) in;

uint conflictFree(uint n) { return n + (n >> 5u); }

shared uvec4 scanTree[kScanElements + (kScanElements >> 5u)];

// The chapter's split: invocation t owns an element of each half of the block.
uint scanElement(uint which) { return gl_LocalInvocationIndex + which * kScanThreads; }

uvec4 blockScanInclusive(inout uvec4 v0, inout uvec4 v1) {
  const uint t = gl_LocalInvocationIndex;
  const uint ai = scanElement(0u), bi = scanElement(1u);
  scanTree[conflictFree(ai)] = v0;
  scanTree[conflictFree(bi)] = v1;
  // ---- up-sweep (reduction): after it, the root holds the block's total ---------------
  uint offset = 1u;
  for (uint d = kScanElements >> 1u; d > 0u; d >>= 1u) {
    barrier();
    if (t < d) {
      const uint a = offset * (2u * t + 1u) - 1u, b = offset * (2u * t + 2u) - 1u;
      scanTree[conflictFree(b)] += scanTree[conflictFree(a)];
    }
    offset <<= 1u;
  }
  barrier();
  const uvec4 total = scanTree[conflictFree(kScanElements - 1u)];
  barrier();
  if (t == 0u) scanTree[conflictFree(kScanElements - 1u)] = uvec4(0u);
  // ---- down-sweep: each node passes its value left and value + left right --------------
  for (uint d = 1u; d < kScanElements; d <<= 1u) {
    offset >>= 1u;
    barrier();
    if (t < d) {
      const uint a = conflictFree(offset * (2u * t + 1u) - 1u), b = conflictFree(offset * (2u * t + 2u) - 1u);
      const uvec4 left = scanTree[a];
      scanTree[a] = scanTree[b];
      scanTree[b] += left;
    }
  }
  barrier();
  // The tree holds the exclusive scan; the inclusive one adds each element back.
  v0 += scanTree[conflictFree(ai)];
  v1 += scanTree[conflictFree(bi)];
  barrier();  // the tree may be reused by the caller's next block
  return total;
}

// shaders/compute/block_scan_hillis_steele.glsl — the "hillis-steele" block scan of the
// gl-compute backend: the naive double-buffered scan (GPU Gems 3, ch. 39.2.1): at step d
// every element adds the one d before it, log2(512) = 9 steps, n log n adds in all, two
// shared-memory buffers so no step reads what it writes. Two elements per invocation.
// Contract: block_scan_blelloch_conflict_free.glsl's header.

const uint kScanThreads = 256u;
const uint kPerThread = 2u;
const uint kScanElements = kScanThreads * kPerThread;
layout(local_size_x = 256) in;  // before any use of the work-group built-ins (NVIDIA)
#include "compute/scan_index.glsl"

shared uvec4 scanBuffers[2u * kScanElements];  // buffer b at b * kScanElements

// One element of each half of the block (the CUDA kernel has a thread an element).
uint scanElement(uint k) { return tileHalvesElement(gl_LocalInvocationIndex, k, kScanElements); }

uvec4 blockScanInclusive(inout uvec4 v[kPerThread]) {
  for (uint k = 0u; k < kPerThread; ++k) scanBuffers[scanElement(k)] = v[k];
  uint from = 0u;
  for (uint d = 1u; d < kScanElements; d <<= 1u) {
    barrier();
    const uint to = hillisSteeleOtherBuffer(from, kScanElements);
    for (uint k = 0u; k < kPerThread; ++k) {
      const uint i = scanElement(k);
      uvec4 x = scanBuffers[from + i];
      if (hillisSteeleAdds(i, d)) x += scanBuffers[from + hillisSteeleSource(i, d)];
      scanBuffers[to + i] = x;
    }
    from = to;
  }
  barrier();
  for (uint k = 0u; k < kPerThread; ++k) v[k] = scanBuffers[from + scanElement(k)];
  const uvec4 total = scanBuffers[from + kScanElements - 1u];
  barrier();  // the buffers may be reused by the caller's next block
  return total;
}

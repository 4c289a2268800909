#version 430
// shaders/compute/sat_scan.comp — one pass of the gl-compute backend's multi-block scan
// (GPU Gems 3, ch. 39, "arbitrary sizes"), over many lines at once: work group
// (b, line) scans block b (kScanElements elements) of one line and writes its total.
//
// A summed-area table of the uint32 format is two such scans (satdof/sat_format.h):
//   rows:    uMode 0, a line is an image row, read from the RGBA8 texture, written to the
//            table (inclusive scan within the block);
//   columns: uMode 1, a line is a column of the table, scanned in place;
//   uMode 2: the block totals of every line (sums[line * uBlocks + b]) replaced by their
//            exclusive scan, one work group per line (uBlocks <= kScanElements; the
//            backend checks it); sat_add.comp then adds them to the blocks.
// This is the gl-compute SAT algorithm "rows-columns" (sat_tile_*.comp: "reduce-then-scan").
// With the decoupled-lookback variant (SAT_TILE_LOOKBACK) a line's blocks pass their sums
// by look-back instead of uMode 2 and sat_add.comp: see "Look-back" below.
// Line L's element i is table[L * uLineStride + i * uElementStride]. Sums wrap modulo
// 2^32, as the reference's do, so the table holds exactly the reference's bits.
// The block scan (block_scan_<variant>.glsl) also declares the work group.
#include "compute/block_scan.glsl"

layout(binding = 0) uniform sampler2D uSource;  // uMode 0: the image (RGBA8)
layout(std430, binding = 0) buffer Table { uvec4 table[]; };
layout(std430, binding = 1) buffer BlockSums { uvec4 blockSums[]; };

uniform int uMode;
uniform int uLength;         // elements per line
uniform int uLineStride;     // table index step from one line to the next
uniform int uElementStride;  // table index step along a line
uniform int uBlocks;         // blocks per line (the block sums' row length)

#ifdef SAT_TILE_LOOKBACK
// Look-back: a first dispatch (uLookBack 1) leaves each block's total in blockSums (its
// aggregate) and writes nothing else; the second (uLookBack 2) scans each block again,
// and its invocation 0 walks back along the line from block b - 1, adding aggregates until
// a block that has published its inclusive sum (lineInclusive, linePublished = 1), then
// publishes the block's own at once; the block stores its elements plus that carry. Every
// aggregate exists before the second dispatch, so nothing waits (GL promises no forward
// progress between work groups): visibility only, as in sat_tile_lookback.glsl.
layout(std430, binding = 4) coherent buffer LinePublished { uint linePublished[]; };  // [line * uBlocks + b]
layout(std430, binding = 5) coherent buffer LineInclusive { uvec4 lineInclusive[]; };
uniform int uLookBack;  // 0: the hierarchy's passes (unused here), 1: aggregates, 2: scan
shared uvec4 lineCarry;

// The sum of the line's blocks before b (invocation 0), after publishing b's inclusive sum.
uvec4 lookBackCarry(uint line, uint b, uvec4 total) {
  const uint first = line * uint(uBlocks);
  uvec4 carry = uvec4(0u);
  int j = int(b) - 1;
  for (; j >= 0; --j) {
    if (atomicOr(linePublished[first + uint(j)], 0u) != 0u) break;
    carry += blockSums[first + uint(j)];
  }
  if (j >= 0) {
    memoryBarrierBuffer();
    carry += lineInclusive[first + uint(j)];
  }
  lineInclusive[first + b] = carry + total;
  memoryBarrierBuffer();
  atomicExchange(linePublished[first + b], 1u);
  return carry;
}
#endif

// An RGBA8 texel as its four bytes (unorm -> float -> byte is exact after rounding).
uvec4 texelBytes(ivec2 p) { return uvec4(round(texelFetch(uSource, p, 0) * 255.0)); }

uvec4 load(uint line, int i) {
  if (i >= uLength) return uvec4(0u);  // the padded tail of the last block
  if (uMode == 0) return texelBytes(ivec2(i, line));
  if (uMode == 1) return table[line * uint(uLineStride) + uint(i) * uint(uElementStride)];
  return blockSums[line * uint(uBlocks) + uint(i)];
}

void store(uint line, int i, uvec4 value, uvec4 original) {
  if (i >= uLength) return;
  if (uMode == 2)
    blockSums[line * uint(uBlocks) + uint(i)] = value - original;  // exclusive
  else
    table[line * uint(uLineStride) + uint(i) * uint(uElementStride)] = value;
}

void main() {
  const uint line = gl_WorkGroupID.y;
  const int base = int(gl_WorkGroupID.x * kScanElements);
  uvec4 original[kPerThread], v[kPerThread];
  for (uint k = 0u; k < kPerThread; ++k) v[k] = original[k] = load(line, base + int(scanElement(k)));
  const uvec4 total = blockScanInclusive(v);
#ifdef SAT_TILE_LOOKBACK
  if (uLookBack == 1) {
    if (gl_LocalInvocationIndex == 0u) blockSums[line * uint(uBlocks) + gl_WorkGroupID.x] = total;
    return;
  }
  if (uLookBack == 2) {
    if (gl_LocalInvocationIndex == 0u) lineCarry = lookBackCarry(line, gl_WorkGroupID.x, total);
    barrier();
    for (uint k = 0u; k < kPerThread; ++k) store(line, base + int(scanElement(k)), v[k] + lineCarry, original[k]);
    return;
  }
#endif
  for (uint k = 0u; k < kPerThread; ++k) store(line, base + int(scanElement(k)), v[k], original[k]);
  if (uMode != 2 && gl_LocalInvocationIndex == 0u) blockSums[line * uint(uBlocks) + gl_WorkGroupID.x] = total;
}

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
  for (uint k = 0u; k < kPerThread; ++k) store(line, base + int(scanElement(k)), v[k], original[k]);
  if (uMode != 2 && gl_LocalInvocationIndex == 0u) blockSums[line * uint(uBlocks) + gl_WorkGroupID.x] = total;
}

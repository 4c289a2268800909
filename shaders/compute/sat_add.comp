#version 430
// shaders/compute/sat_add.comp — the last pass of the multi-block scan: every element of
// block b >= 1 of a line gets the exclusive scan of the blocks' totals (sat_scan.comp,
// uMode 2) added. Invocation (i, line) handles element kScanElements + i of the line.
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Table { uvec4 table[]; };
layout(std430, binding = 1) readonly buffer BlockSums { uvec4 blockSums[]; };

uniform int uLength, uLineStride, uElementStride, uBlocks;
const uint kScanElements = 512u;  // block_scan_*.glsl's block (the backend checks it)

void main() {
  const uint line = gl_WorkGroupID.y;
  const uint i = kScanElements + gl_GlobalInvocationID.x;
  if (i >= uint(uLength)) return;
  table[line * uint(uLineStride) + i * uint(uElementStride)] += blockSums[line * uint(uBlocks) + i / kScanElements];
}

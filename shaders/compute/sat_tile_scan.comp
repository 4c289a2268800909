#version 430
// shaders/compute/sat_tile_scan.comp — pass 3 of the gl-compute SAT "reduce-then-scan"
// (sat_tile.glsl): work group (bx, by) reads its tile of the image again and writes its
// entries of the table, in the frame's SAT format, once:
//   SAT(x, y) = corner + colCarry[by][x] + sum over rows y0..y of
//               (rowCarry[row][bx] + the row's inclusive prefix inside the tile at x)
// where corner = the sum of colCarry[by] at the last column of every tile left of bx (the
// bands above, left of the tile). The work group walks down its rows; each row is one
// call of the chosen block scan; each invocation keeps the running column sums of its
// elements in registers and fetches the next row's texels (and row carry) before scanning
// this one.
//   uFormat 0: uint32; 1: float32; 2: float32-offset (entries are round(S - m (x+1) (y+1));
//   work group (0, 0) writes the trailer m, the mean of the whole image's sum at
//   colCarry's band tilesY); 3: uint21x3 (into PackedTable).
// With the decoupled-lookback variant the carries come by look-back instead of the
// carries pass (sat_tile_lookback.glsl).
// The float formats are exact while the image's total stays below 2^31 (the backend
// refuses larger images for them): then every sum here is the exact integer.
#define SAT_TILE_SCAN_PASS 1
#include "compute/block_scan.glsl"
#include "compute/sat_tile.glsl"
#include "compute/sat_entry_bits.glsl"

layout(std430, binding = 0) writeonly buffer Table { uvec4 table[]; };
layout(std430, binding = 3) writeonly buffer PackedTable { uvec2 packedTable[]; };

uniform int uFormat;

// Per invocation: its share of the corner and of the whole image's sum.
shared uvec4 cornerParts[kScanThreads], totalParts[kScanThreads];
shared uvec4 tileCorner, imageMean;

#ifdef SAT_STAGED_STORES
// A variant whose invocations hold runs of consecutive elements (blelloch-8-per-thread)
// stores each row through shared memory, so that a warp's stores are neighbours: slot
// c + c / 8 keeps both the runs' writes and the rows' reads free of bank conflicts.
shared uvec4 staged[kScanElements + kScanElements / 8u];
uint stagedSlot(uint c) { return c + (c >> 3u); }
#endif

#ifdef SAT_TILE_LOOKBACK
#include "compute/sat_tile_lookback.glsl"
#endif

void store(uint i, uint x, uint y, uvec4 s) {
  if (uFormat == 0) table[i] = s;
  else if (uFormat == 1) table[i] = float32Bits(s);
  else if (uFormat == 2) table[i] = signedFloat32Bits(s - imageMean * (x + 1u) * (y + 1u));
  else packedTable[i] = uint21x3Bits(s);
}

void loadRow(int y, int x0, int columns, out uvec4 v[kPerThread]) {
  for (uint k = 0u; k < kPerThread; ++k) {
    const int c = int(scanElement(k));
    v[k] = c < columns ? texelBytes(x0 + c, y) : uvec4(0u);
  }
}

void main() {
  const uint t = gl_LocalInvocationIndex;
  const uint width = uint(uExtent.x), tilesX = uint(uTiles.x), tilesY = uint(uTiles.y);
  const uint bx = gl_WorkGroupID.x, by = gl_WorkGroupID.y;
  const int x0 = int(bx * kScanElements), y0 = int(by * kTileRows);
  const int rows = min(int(kTileRows), uExtent.y - y0), columns = min(int(kScanElements), uExtent.x - x0);
#ifdef SAT_TILE_LOOKBACK
  lookBackStart(bx, by, y0, rows);  // cornerParts, rowsLeft, stopBand; ends with a barrier
#else
  {  // the tiles' last columns, read side by side
    uvec4 corner = uvec4(0u), total = uvec4(0u);
    for (uint b = t; b < tilesX; b += kScanThreads) {
      const uint x = lastColumn(b);
      if (b < bx) corner += colCarry[by * width + x];
      total += colCarry[tilesY * width + x];
    }
    cornerParts[t] = corner;
    totalParts[t] = total;
  }
  barrier();
#endif
  if (t == 0u) {
    uvec4 corner = uvec4(0u), total = uvec4(0u);
    for (uint i = 0u; i < min(tilesX, kScanThreads); ++i) corner += cornerParts[i];
#ifdef SAT_TILE_LOOKBACK
    total = imageTotalSum();
#else
    for (uint i = 0u; i < min(tilesX, kScanThreads); ++i) total += totalParts[i];
#endif
    tileCorner = corner;
    const uint n = width * uint(uExtent.y);
    imageMean = offsetMean(total, n);
    if (uFormat == 2 && bx == 0u && by == 0u) table[n] = floatBitsToUint(vec4(imageMean));
  }
  uvec4 next[kPerThread];
  loadRow(y0, x0, columns, next);
#ifndef SAT_TILE_LOOKBACK
  uvec4 nextLeft = rowCarry[uint(y0) * tilesX + bx];
#endif
  barrier();
  uvec4 column[kPerThread];  // this tile's part of the entries, down to the current row
  for (uint k = 0u; k < kPerThread; ++k) {
    const int c = int(scanElement(k));
#ifdef SAT_TILE_LOOKBACK
    column[k] = c < columns ? columnAbove(by, uint(x0 + c)) + tileCorner : uvec4(0u);
#else
    column[k] = c < columns ? colCarry[by * width + uint(x0 + c)] + tileCorner : uvec4(0u);
#endif
  }
#ifdef SAT_TILE_LOOKBACK
  publish(bx, by);
#endif
  for (int r = 0; r < rows; ++r) {  // the same count in the whole work group
    const uint y = uint(y0 + r);
    uvec4 v[kPerThread] = next;
#ifdef SAT_TILE_LOOKBACK
    const uvec4 left = rowsLeft[r];
#else
    const uvec4 left = nextLeft;
    if (r + 1 < rows) nextLeft = rowCarry[(y + 1u) * tilesX + bx];
#endif
    if (r + 1 < rows) loadRow(y0 + r + 1, x0, columns, next);
    blockScanInclusive(v);
#ifdef SAT_STAGED_STORES
    for (uint k = 0u; k < kPerThread; ++k) {
      column[k] += v[k] + left;
      staged[stagedSlot(scanElement(k))] = column[k];
    }
    barrier();  // the next row's writes come after the next scan's barriers
    for (uint c = t; c < uint(columns); c += kScanThreads)
      store(y * width + uint(x0) + c, uint(x0) + c, y, staged[stagedSlot(c)]);
#else
    for (uint k = 0u; k < kPerThread; ++k) {
      const int c = int(scanElement(k));
      column[k] += v[k] + left;
      if (c < columns) store(y * width + uint(x0 + c), uint(x0 + c), y, column[k]);
    }
#endif
  }
}

#version 430
// shaders/compute/sat_tile_reduce.comp — pass 1 of the gl-compute SAT "reduce-then-scan"
// (sat_tile.glsl): work group (bx, by) reads its tile of the image and writes
//   * each of its rows' totals to rowCarry (invocation t sums every kSegments-th texel of
//     row t / kSegments, so a warp's fetches are neighbours; the kSegments partial sums of
//     a row meet in shared memory);
//   * its column totals, inclusive-scanned along the tile by the chosen block scan, to
//     colCarry (at the tile's last column: the tile's total);
//   * with the decoupled-lookback variant, also its total into imageTotal
//     (sat_tile_lookback.glsl).
// The block scan (block_scan_<variant>.glsl) declares the work group.
#include "compute/block_scan.glsl"
#include "compute/sat_tile.glsl"
#ifdef SAT_TILE_LOOKBACK
#include "compute/sat_tile_lookback.glsl"
#endif

const uint kSegments = kScanThreads / kTileRows;  // invocations per tile row
shared uvec4 rowPartials[kScanThreads];

void main() {
  const uint t = gl_LocalInvocationIndex;
  const int width = uExtent.x, bx = int(gl_WorkGroupID.x), by = int(gl_WorkGroupID.y);
  const int x0 = bx * int(kScanElements), y0 = by * int(kTileRows);
  const int rows = min(int(kTileRows), uExtent.y - y0), columns = min(int(kScanElements), width - x0);

  const int r = int(t / kSegments);
  uvec4 partial = uvec4(0u);
  if (r < rows)
    for (int c = int(t % kSegments); c < columns; c += int(kSegments)) partial += texelBytes(x0 + c, y0 + r);
  rowPartials[t] = partial;

  uvec4 column[kPerThread];
  for (uint k = 0u; k < kPerThread; ++k) {
    const int c = int(scanElement(k));
    column[k] = uvec4(0u);
    if (c < columns)
      for (int y = 0; y < rows; ++y) column[k] += texelBytes(x0 + c, y0 + y);
  }
  barrier();
  if (t < uint(rows)) {
    uvec4 total = uvec4(0u);
    for (uint s = 0u; s < kSegments; ++s) total += rowPartials[t * kSegments + s];
    rowCarry[uint(y0) * uint(uTiles.x) + t * uint(uTiles.x) + uint(bx)] = total;
  }
  const uvec4 tileTotal = blockScanInclusive(column);
#ifdef SAT_TILE_LOOKBACK
  if (t == 0u) addToImageTotal(tileTotal);
#endif
  for (uint k = 0u; k < kPerThread; ++k) {
    const int c = int(scanElement(k));
    if (c < columns) colCarry[uint(by) * uint(width) + uint(x0 + c)] = column[k];
  }
}

// shaders/compute/sat_tile_lookback.glsl — the carries of "reduce-then-scan" by decoupled
// look-back (scan variant decoupled-lookback): sat_tile_scan.comp without the carries pass
// (sat_tile_carries.comp). The reduce pass left rowCarry and colCarry unscanned (each
// tile's own sums, its aggregates) and added every tile's total to imageTotal. A tile of
// the scan pass then
//   * sums its rows' totals over the tiles to its left (tilesX - 1 at most: no scan);
//   * walks up its tile column from the band above: a band whose tile has published its
//     inclusive column sums (colInclusive, flag published = 1) ends the walk, the
//     aggregates of the bands passed on the way are added; invocation b < bx does the
//     same at the last column of tile column b for the corner;
//   * publishes its own inclusive column sums at once, before it scans its rows.
// No tile ever waits: every aggregate exists before the pass starts (the reduce pass),
// so the look-back needs no forward-progress guarantee between work groups (GL gives
// none); only visibility: the publisher's coherent stores, memoryBarrierBuffer(),
// barrier(), then the flag by atomicExchange; the reader sees the flag by an atomic,
// then memoryBarrierBuffer(), then reads coherent data (GLSL 4.60, 4.10 and 8.17).
layout(std430, binding = 4) coherent buffer LookBack {
  uint imageTotal[4];  // reduce pass: the whole image's sum (atomicAdd per tile)
  uint published[];    // [by * tilesX + bx]: 1 once colInclusive of that tile is written
};
layout(std430, binding = 5) coherent buffer ColInclusive { uvec4 colInclusive[]; };  // [by * width + x]

// The tile's total into imageTotal (reduce pass, invocation 0).
void addToImageTotal(uvec4 tileTotal) {
  for (int c = 0; c < 4; ++c) atomicAdd(imageTotal[c], tileTotal[c]);
}

uvec4 imageTotalSum() { return uvec4(imageTotal[0], imageTotal[1], imageTotal[2], imageTotal[3]); }

#ifdef SAT_TILE_SCAN_PASS  // the rest is the scan pass's (sat_tile_scan.comp)
shared uvec4 rowsLeft[kTileRows];
shared int stopBand;  // the nearest band above with published sums in this tile column; -1: none

// Walks tile column b up from band by - 1; returns the sum at column x over the bands above
// (the aggregates passed plus the published band's inclusive sums) and the band it stopped at.
uvec4 walkUp(uint b, uint by, uint x, out int stop) {
  const uint width = uint(uExtent.x), tilesX = uint(uTiles.x);
  uvec4 sum = uvec4(0u);
  int band = int(by) - 1;
  for (; band >= 0; --band) {
    if (atomicOr(published[uint(band) * tilesX + b], 0u) != 0u) break;
    sum += colCarry[uint(band) * width + x];
  }
  stop = band;
  if (band >= 0) {
    memoryBarrierBuffer();
    sum += colInclusive[uint(band) * width + x];
  }
  return sum;
}

// rowsLeft, cornerParts (sat_tile_scan.comp's) and stopBand, ready for the whole work
// group when it returns.
void lookBackStart(uint bx, uint by, int y0, int rows) {
  const uint t = gl_LocalInvocationIndex, tilesX = uint(uTiles.x);
  if (t < uint(rows)) {
    uvec4 left = uvec4(0u);
    for (uint b = 0u; b < bx; ++b) left += rowCarry[(uint(y0) + t) * tilesX + b];
    rowsLeft[t] = left;
  }
  uvec4 corner = uvec4(0u);
  for (uint b = t; b <= bx; b += kScanThreads) {
    int stop;
    if (b < bx) {
      corner += walkUp(b, by, lastColumn(b), stop);
    } else {  // this tile column: only where the walk ends (each column sums its own)
      walkUp(b, by, lastColumn(b), stop);
      stopBand = stop;
    }
  }
  cornerParts[t] = corner;
  barrier();
}

// After it: the sum over the bands above at column x of this tile (exclusive), published
// with this band's aggregate added.
uvec4 columnAbove(uint by, uint x) {
  const uint width = uint(uExtent.x);
  uvec4 sum = stopBand >= 0 ? colInclusive[uint(stopBand) * width + x] : uvec4(0u);
  for (uint band = uint(stopBand + 1); band < by; ++band) sum += colCarry[band * width + x];
  colInclusive[by * width + x] = sum + colCarry[by * width + x];
  return sum;
}

// After every columnAbove of the work group: the flag.
void publish(uint bx, uint by) {
  memoryBarrierBuffer();
  barrier();
  if (gl_LocalInvocationIndex == 0u) atomicExchange(published[by * uint(uTiles.x) + bx], 1u);
}
#endif

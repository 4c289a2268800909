// shaders/compute/conv_index.glsl — the index arithmetic of the gl-compute backend's
// convolutions, written once for both sides: the shaders (conv_*.comp) include it through
// conv_common.glsl as "compute/conv_index.glsl", and core/include/satdof/conv_tiles.h
// includes it by its relative path ("../../../shaders/compute/conv_index.glsl") inside
// namespace satdof::conv_tiles::glsl, for the lesson's traces. It lives with the shaders for
// the reason scan_index.glsl does (the shader loader resolves includes in the shaders
// folder only).
//
// The common subset of C++ and GLSL, as scan_index.glsl's header describes: no includes,
// namespaces, default arguments or structs; `int` and `bool` only (GLSL's uint is no C++
// type: the shaders convert); functions under SATDOF_CONV_FN, constants under
// SATDOF_CONV_CONST, which conv_tiles.h defines (`SATDOF_HOST_DEVICE constexpr`, `inline
// constexpr`) and GLSL leaves as nothing and `const`. No min, max or clamp (C++ has none
// unqualified): the conditionals say the same.
#ifndef SATDOF_CONV_INDEX_GLSL
#define SATDOF_CONV_INDEX_GLSL

#ifndef SATDOF_CONV_FN
#define SATDOF_CONV_FN
#define SATDOF_CONV_CONST const
#endif

// ---- the work group ------------------------------------------------------------------------
// kTile x kTile invocations (conv_common.glsl's local_size, written there as the literal
// GLSL 4.30 asks for), an output pixel each; the group at (gx, gy) outputs the pixels from
// (groupFirst(gx), groupFirst(gy)). kMaxRadius is satdof::kMaxFilterRadius.
SATDOF_CONV_CONST int kTile = 16;
SATDOF_CONV_CONST int kGroupInvocations = kTile * kTile;
SATDOF_CONV_CONST int kMaxRadius = 15;

SATDOF_CONV_FN int groupFirst(int group) { return group * kTile; }

// ---- the border rule (conv_common.glsl's uBorder) -------------------------------------------
SATDOF_CONV_CONST int kBorderZero = 0;   // ghost cells are 0
SATDOF_CONV_CONST int kBorderClamp = 1;  // edge pixels repeat

// The source index for coordinate c of a line of n, or -1 for a ghost cell (zero border).
SATDOF_CONV_FN int sourceIndex(int c, int n, int border) {
  if (c >= 0 && c < n) return c;
  if (border == kBorderZero) return -1;
  return c < 0 ? 0 : n - 1;
}

// Tap i (0 .. 2r) of the window of radius r around coordinate c.
SATDOF_CONV_FN int tapSource(int c, int r, int i) { return c - r + i; }

// ---- tiles in shared memory (glsl-tiled-halo, glsl-separable) -----------------------------
// A tile of the group's kTile outputs and r more on each side along an axis: inputTileSide(r)
// cells. Its cells are numbered row by row, `side` a row; the group's invocations take them
// in strides of kGroupInvocations, invocation v the cells v, v + 256, ...: cell k is column
// cellColumn(k, side) of row cellRow(k, side).
SATDOF_CONV_FN int inputTileSide(int r) { return kTile + 2 * r; }
SATDOF_CONV_FN int cellRow(int k, int side) { return k / side; }
SATDOF_CONV_FN int cellColumn(int k, int side) { return k - cellRow(k, side) * side; }
// The shared word invocation (lx, ly) reads for tap (i, j) of its window, in a tile `side`
// words a row whose (0, 0) is its window's top-left for invocation (0, 0).
SATDOF_CONV_FN int tileWord(int lx, int ly, int i, int j, int side) { return (ly + i) * side + lx + j; }

// glsl-tiled-halo: the input tile, inputTileSide(r) on a side, from (haloFirst(gx, r),
// haloFirst(gy, r)); cell k is image pixel (first + column, first + row) under the border.
SATDOF_CONV_FN int haloFirst(int group, int r) { return groupFirst(group) - r; }

// glsl-separable: its row pass fills kTile columns (the group's) of inputTileSide(r) rows,
// kTile words a row: cell k is the horizontal value of image column groupFirst(gx) +
// cellColumn(k, kTile) at source row tapSource(groupFirst(gy), r, cellRow(k, kTile)). The
// column pass reads word tileWord(lx, ly, i, 0, kTile) for tap i.

// ---- glsl-sat-box: the summed-area table S and the border rule ------------------------------
// S(x, y) is read at satIndex(x, y, width): the load always happens (at a clamped index) and
// is replaced by 0 where satBeforeTable(x, y), left of column 0 or above row 0.
SATDOF_CONV_FN int satIndex(int x, int y, int width) { return (y > 0 ? y : 0) * width + (x > 0 ? x : 0); }
SATDOF_CONV_FN bool satBeforeTable(int x, int y) { return x < 0 || y < 0; }

// The rectangle [x0, x1] x [y0, y1]'s sum is S at its four corners, c = 0 .. 3 in this
// order: (x1, y1) added, (x0 - 1, y1) and (x1, y0 - 1) subtracted, (x0 - 1, y0 - 1) added.
SATDOF_CONV_FN int satCornerX(int c, int x0, int x1) { return (c & 1) == 0 ? x1 : x0 - 1; }
SATDOF_CONV_FN int satCornerY(int c, int y0, int y1) { return c < 2 ? y1 : y0 - 1; }
SATDOF_CONV_FN bool satCornerAdds(int c) { return c == 0 || c == 3; }

// The window of output coordinate p on an axis of n, radius r, as up to three ranges
// k = 0 .. 2: the window clipped to the image (weight 1), the edge line 0 and the edge line
// n - 1, each weighted by the lines of the window past that edge under the clamp border
// (the edge line repeated), 0 under the zero border (ghost cells add nothing). The sum over
// the window is the sum over the 3 x 3 (row range, column range) pairs of weight product x
// rectangle sum.
SATDOF_CONV_FN int satRangeLow(int k, int p, int r, int n) {
  if (k == 0) return p - r > 0 ? p - r : 0;
  return k == 1 ? 0 : n - 1;
}
SATDOF_CONV_FN int satRangeHigh(int k, int p, int r, int n) {
  if (k == 0) return p + r < n - 1 ? p + r : n - 1;
  return satRangeLow(k, p, r, n);
}
SATDOF_CONV_FN int satRangeWeight(int k, int p, int r, int n, int border) {
  if (k == 0) return 1;
  if (border != kBorderClamp) return 0;
  const int past = k == 1 ? r - p : p + r - (n - 1);
  return past > 0 ? past : 0;
}

#endif  // SATDOF_CONV_INDEX_GLSL

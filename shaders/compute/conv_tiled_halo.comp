#version 430
// shaders/compute/conv_tiled_halo.comp — "glsl-tiled-halo": the work group loads its
// output tile plus a halo of r cells on every side into shared memory, then every
// invocation reads its (2r+1)^2 taps from there (PMPP's tiled kernel with the halo in
// shared memory). Unlike the book's IN_TILE_DIM = 32 with OUT_TILE_DIM = 32 - 2r (two
// outputs per side at r = 15), the output tile stays 16x16 and the (16 + 2r)^2 input
// tile is loaded cooperatively in strides of the work group; any image size works (the
// tile's cells outside the image hold the border's value).
// Direct maths, as conv_basic.comp. Pixels are kept packed (4 bytes) to fit the largest
// radius in shared memory: (16 + 30)^2 * 4 bytes = 8.5 KB.
#include "compute/conv_common.glsl"

const int kInTileMax = kTile + 2 * kMaxRadius;  // inputTileSide(kMaxRadius)
shared uint tile[kInTileMax * kInTileMax];

void main() {
  const ivec2 size = imageSize2D();
  const int inTile = inputTileSide(uRadius);
  const ivec2 group = ivec2(gl_WorkGroupID.xy);
  const ivec2 origin = ivec2(haloFirst(group.x, uRadius), haloFirst(group.y, uRadius));  // the tile's (0, 0)
  // ---- load the input tile and its halo ------------------------------------------------
  for (int k = int(gl_LocalInvocationIndex); k < inTile * inTile; k += kGroupInvocations) {
    const int ty = cellRow(k, inTile), tx = cellColumn(k, inTile);
    const int sx = sourceIndex(origin.x + tx, size.x), sy = sourceIndex(origin.y + ty, size.y);
    // A ghost cell (zero border) holds 0: fma(w, 0, acc) == acc, the same as skipping it.
    tile[k] = sx < 0 || sy < 0 ? 0u : packUnorm4x8(texelFetch(uInput, ivec2(sx, sy), 0));
  }
  barrier();
  // ---- convolve from shared memory -----------------------------------------------------
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  const ivec2 local = ivec2(gl_LocalInvocationID.xy);
  precise vec4 acc = vec4(0.0);
  for (int i = 0; i < taps1D(); ++i)
    for (int j = 0; j < taps1D(); ++j) {
      const uint cell = tile[tileWord(local.x, local.y, i, j, inTile)];
      const vec4 value = vec4(cell & 255u, (cell >> 8u) & 255u, (cell >> 16u) & 255u, cell >> 24u);
      acc = fmaRounded(vec4(weight2D(i, j)), value, acc);
    }
  storeRounded(p, acc);
}

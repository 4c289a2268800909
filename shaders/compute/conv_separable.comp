#version 430
// shaders/compute/conv_separable.comp — "glsl-separable": the horizontal pass of the
// tile's rows and their halo rows into shared memory, then the vertical pass from there,
// in one dispatch (no full-size intermediate). Separable maths (reference
// convolveSeparable): the horizontal value of source row sy is one fma chain over the
// row factors (j ascending); the output is one fma chain over the column factors
// (i ascending) of those values, where a ghost row is skipped (zero border) or is the
// clamped row's value (clamp border; clamping commutes with the horizontal pass).
#include "compute/conv_common.glsl"

const int kRowsMax = kTile + 2 * kMaxRadius;  // inputTileSide(kMaxRadius)
shared vec4 horizontal[kRowsMax * kTile];

void main() {
  const ivec2 size = imageSize2D();
  const int rows = inputTileSide(uRadius);
  const ivec2 origin = ivec2(groupFirst(int(gl_WorkGroupID.x)), groupFirst(int(gl_WorkGroupID.y)));
  // ---- horizontal pass: tile row ty is source row sourceIndex(origin.y - r + ty) --------
  for (int k = int(gl_LocalInvocationIndex); k < rows * kTile; k += kGroupInvocations) {
    const int ty = cellRow(k, kTile), x = origin.x + cellColumn(k, kTile);
    const int sy = sourceIndex(tapSource(origin.y, uRadius, ty), size.y);
    precise vec4 acc = vec4(0.0);
    if (sy >= 0 && x < size.x)
      for (int j = 0; j < taps1D(); ++j) {
        const int sx = sourceIndex(tapSource(x, uRadius, j), size.x);
        if (sx < 0) continue;
        acc = fmaRounded(vec4(rowWeight(j)), texelValue(ivec2(sx, sy)), acc);
      }
    horizontal[k] = acc;
  }
  barrier();
  // ---- vertical pass -------------------------------------------------------------------
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  const ivec2 local = ivec2(gl_LocalInvocationID.xy);
  precise vec4 acc = vec4(0.0);
  for (int i = 0; i < taps1D(); ++i) {
    if (sourceIndex(tapSource(p.y, uRadius, i), size.y) < 0) continue;  // a ghost row
    acc = fmaRounded(vec4(colWeight(i)), horizontal[tileWord(local.x, local.y, i, 0, kTile)], acc);
  }
  storeRounded(p, acc);
}

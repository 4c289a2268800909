// shaders/dof_layers_dilate.comp — the largest near radius within maxRadius of each tile
// (reference::splitLayers' dilation): how far a near object's blur reaches.
#version 450 core

layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 2, r32i) readonly uniform iimage2D uTileMax;
layout(binding = 3, r32i) writeonly uniform iimage2D uTileReach;

#include "dof_layers.glsl"

void main() {
  ivec2 tiles = imageSize(uTileMax);
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= tiles.x || t.y >= tiles.y) return;
  int reach = (uMaxRadius + kLayerTile - 1) / kLayerTile;
  int m = 0;
  for (int j = max(0, t.y - reach); j <= min(tiles.y - 1, t.y + reach); ++j)
    for (int i = max(0, t.x - reach); i <= min(tiles.x - 1, t.x + reach); ++i)
      m = max(m, imageLoad(uTileMax, ivec2(i, j)).r);
  imageStore(uTileReach, t, ivec4(m));
}

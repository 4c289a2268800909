// shaders/dof_layers.glsl — what the layered DoF passes share (satdof/reference/
// layered_dof.h): the circle of confusion, the field weight, the tile size.
#include "coc.glsl"

const int kLayerTile = 16;  // reference::kLayerTile

// 0 in focus, 128 at one pixel of blur, 255 beyond (reference::fieldWeight).
int fieldWeight(int r) { return r >= 2 ? 255 : r * 128; }

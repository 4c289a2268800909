// shaders/dof_layers.glsl — what the layered DoF passes share (satdof/reference/
// layered_dof.h): the circle of confusion, the field weight, the tile size.
#include "coc.glsl"

const int kLayerTile = 16;  // reference::kLayerTile

// Near: 0 in focus, 128 at one pixel of blur, 255 beyond (reference::fieldWeight); far:
// 0 below two pixels, 255 from there (reference::farFieldWeight).
int fieldWeight(int r) { return r >= 2 ? 255 : r * 128; }
int farFieldWeight(int r) { return r >= 2 ? 255 : 0; }

// shaders/dof_layers_reach.comp — the layered DoF's reach R(p) (reference::nearReach): how
// large the largest near blur is whose box reaches each pixel. uPass 1: along rows over
// each pixel's own near radius (the split's, 0 unless it is a blurred near pixel); 2:
// along columns over pass 1's (reference::reachPass). Each window is bounded by the largest near
// radius of the tiles within maxRadius of the pixel's tile, which holds every radius that
// can reach it (a tile with none writes 0 at once). Radii fit 16 bits (max blur <= 256).
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 2, r16i) readonly uniform iimage2D uIn;
layout(binding = 3, r32i) readonly uniform iimage2D uTileReach;
layout(binding = 4, r16i) writeonly uniform iimage2D uOut;
layout(location = 10) uniform int uPass;

#include "dof_layers.glsl"

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= uSize.x || p.y >= uSize.y) return;
  int bound = imageLoad(uTileReach, p / kLayerTile).r;
  if (bound == 0) {  // no near blur within reach of this tile: nothing to look for
    imageStore(uOut, p, ivec4(0));
    return;
  }
  ivec2 step = uPass == 1 ? ivec2(1, 0) : ivec2(0, 1);
  int m = 0;
  for (int k = -bound; k <= bound; ++k) {
    ivec2 q = p + k * step;
    if (q.x < 0 || q.y < 0 || q.x >= uSize.x || q.y >= uSize.y) continue;
    int n = imageLoad(uIn, q).r;
    if (n >= abs(k)) m = max(m, n);
  }
  imageStore(uOut, p, ivec4(m));
}

// shaders/dof_layers_reach.comp — the layered DoF's reach R(p) (reference::nearReach): how
// large the largest near blur is whose box reaches each pixel. uPass 1: along rows over
// each pixel's own near radius (the split's, 0 unless it is a blurred near pixel); 2:
// along columns over pass 1's (reference::reachPass). Each window is bounded by the largest near
// radius of the tiles within maxRadius of the pixel's tile, which holds every radius that
// can reach it (a tile with none writes 0 at once). Radii fit 16 bits (max blur <= 256).
//
// One work group is one 16x16 tile (the split's), so the bound B is the group's: 16 lines
// of 16 pixels along the pass's axis. Rather than each pixel reading the 2B + 1 radii of
// its window, each radius n within B of the tile is read once and scattered: it reaches
// the pixels of its line within min(n, B) of it, an interval, with the value n. An
// interval that covers the whole line goes into one maximum per line; one that starts
// before the line into the maximum of the pixel it ends at, one that ends after it into
// that of the pixel it starts at (a pixel then takes the largest of those ending at or
// after it, starting at or before it); one inside the line (n < 8) into each pixel. Per
// pixel: 2 * ceil(B / 16) + 1 reads and shared-memory atomics, not 2B + 1 reads.
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 2, r16i) readonly uniform iimage2D uIn;
layout(binding = 3, r32i) readonly uniform iimage2D uTileReach;
layout(binding = 4, r16i) writeonly uniform iimage2D uOut;
layout(location = 10) uniform int uPass;

#include "dof_layers.glsl"

const int kLast = kLayerTile - 1;
// Per line: the largest value of the intervals covering it all; and per pixel (17 wide, so
// a column pass's 16 lines fall in 16 banks) of those ending there having started before
// the line, starting there and ending after it, and lying inside it.
shared int wholeLine[kLayerTile];
shared int endsAt[kLayerTile][kLayerTile + 1];
shared int startsAt[kLayerTile][kLayerTile + 1];
shared int inside[kLayerTile][kLayerTile + 1];

void main() {
  int bound = imageLoad(uTileReach, ivec2(gl_WorkGroupID.xy)).r;  // the same for the whole group
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  bool inImage = p.x < uSize.x && p.y < uSize.y;
  if (bound == 0) {  // no near blur within reach of this tile: nothing to look for
    if (inImage) imageStore(uOut, p, ivec4(0));
    return;
  }
  bool rows = uPass == 1;
  ivec2 local = ivec2(gl_LocalInvocationID.xy);
  int at = rows ? local.x : local.y, line = rows ? local.y : local.x;  // position along the axis, line
  ivec2 step = rows ? ivec2(1, 0) : ivec2(0, 1);
  if (at == 0) wholeLine[line] = 0;
  endsAt[line][at] = 0;
  startsAt[line][at] = 0;
  inside[line][at] = 0;
  barrier();
  int tiles = (bound + kLayerTile - 1) / kLayerTile;
  for (int t = -tiles; t <= tiles; ++t) {
    ivec2 q = p + t * kLayerTile * step;  // this invocation's radius: same line, t tiles on
    if (q.x < 0 || q.y < 0 || q.x >= uSize.x || q.y >= uSize.y) continue;
    int n = imageLoad(uIn, q).r;
    int span = min(n, bound), from = t * kLayerTile + at;  // q's position along the line
    int lo = from - span, hi = from + span;
    if (n == 0 || hi < 0 || lo > kLast) continue;
    if (lo <= 0 && hi >= kLast)
      atomicMax(wholeLine[line], n);
    else if (lo <= 0)
      atomicMax(endsAt[line][hi], n);
    else if (hi >= kLast)
      atomicMax(startsAt[line][lo], n);
    else
      for (int c = lo; c <= hi; ++c) atomicMax(inside[line][c], n);
  }
  barrier();
  int m = max(wholeLine[line], inside[line][at]);
  for (int c = 0; c < kLayerTile; ++c) {
    if (c >= at) m = max(m, endsAt[line][c]);
    if (c <= at) m = max(m, startsAt[line][c]);
  }
  if (inImage) imageStore(uOut, p, ivec4(m));
}

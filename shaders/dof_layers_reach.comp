// shaders/dof_layers_reach.comp — the layered DoF's reach R(p) (reference::nearReach): how
// large the largest near blur is whose box reaches each pixel, in two separable passes
// (reference::reachPass). uPass 1: along rows, over each pixel's own near radius (0
// unless it is a blurred near pixel), computed here from the depth; 2: along columns, over
// pass 1's result. Each window is bounded by the largest near radius of the tiles within
// maxRadius of the pixel's tile, which holds every radius that can reach it (a tile with
// none writes 0 at once). A workgroup is one 16x16 tile: it loads the line segments its
// windows share into shared memory once (16 lines of 16 + 2 bound radii), so a radius is
// computed or read from memory once per tile, not once per window that covers it; a bound
// too wide for that (more than kSharedBound) reads each radius where the window needs it.
// Radii fit 16 bits (max blur <= 256).
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uDistance;  // linear view depth (pass 1)
layout(binding = 2, r16i) readonly uniform iimage2D uIn;  // pass 1's result (pass 2)
layout(binding = 3, r32i) readonly uniform iimage2D uTileReach;
layout(binding = 4, r16i) writeonly uniform iimage2D uOut;
layout(location = 10) uniform int uPass;

#include "dof_layers.glsl"

const int kSharedBound = 120;                     // 16 lines of 256 radii: 16 KiB
const int kSpan = kLayerTile + 2 * kSharedBound;  // a line segment's length
shared int segment[kLayerTile][kSpan];

// The radius the window reads at q (inside the image): pass 1 the pixel's own near radius
// (reference::nearRadiusOf), pass 2 the rows' reach.
int radiusAt(ivec2 q) {
  if (uPass == 2) return imageLoad(uIn, q).r;
  float depth = texelFetch(uDistance, q, 0).r;
  int r = cocRadius(depth);
  return depth < uFocus && fieldWeight(r) > 0 ? r : 0;
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const bool inside = p.x < uSize.x && p.y < uSize.y;
  const int bound = imageLoad(uTileReach, ivec2(gl_WorkGroupID.xy)).r;  // the same for the whole tile
  if (bound == 0) {  // no near blur within reach of this tile: nothing to look for
    if (inside) imageStore(uOut, p, ivec4(0));
    return;
  }
  const ivec2 step = uPass == 1 ? ivec2(1, 0) : ivec2(0, 1);
  // This invocation's place along its line (lane) and which of the tile's lines (line).
  const int lane = uPass == 1 ? int(gl_LocalInvocationID.x) : int(gl_LocalInvocationID.y);
  const int line = uPass == 1 ? int(gl_LocalInvocationID.y) : int(gl_LocalInvocationID.x);
  int m = 0;
  if (bound <= kSharedBound) {
    // segment[line][i] = the radius at lane offset i - bound from the tile's first lane.
    const ivec2 first = p - lane * step - bound * step;
    const int length = kLayerTile + 2 * bound;
    for (int i = lane; i < length; i += kLayerTile) {
      const ivec2 q = first + i * step;
      const bool onImage = q.x >= 0 && q.y >= 0 && q.x < uSize.x && q.y < uSize.y;
      segment[line][i] = onImage ? radiusAt(q) : 0;
    }
    barrier();
    for (int k = -bound; k <= bound; ++k) {
      const int n = segment[line][lane + bound + k];
      if (n >= abs(k)) m = max(m, n);
    }
  } else {
    for (int k = -bound; k <= bound; ++k) {
      const ivec2 q = p + k * step;
      if (q.x < 0 || q.y < 0 || q.x >= uSize.x || q.y >= uSize.y) continue;
      const int n = radiusAt(q);
      if (n >= abs(k)) m = max(m, n);
    }
  }
  if (inside) imageStore(uOut, p, ivec4(m));
}

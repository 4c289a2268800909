// shaders/compute/sat_tile.glsl — what the three passes of the gl-compute SAT algorithm
// "reduce-then-scan" share (sat_tile_reduce.comp, sat_tile_carries.comp,
// sat_tile_scan.comp; the CUDA backend's cuda/sat/reduce_then_scan.cu is the same plan).
//
// The image is cut into tiles of kTileColumns (512) columns x kTileRows rows; tile
// (bx, by) covers columns x0 = 512 bx .. and rows y0 = kTileRows by ... Carry arrays:
//   rowCarry[y * tilesX + bx]   after the reduce pass: row y's sum over tile bx; after the
//                               carries pass: row y's sum over the tiles left of bx;
//   colCarry[by * width + x]    after the reduce pass: band by's sum over its rows and the
//                               columns x0(bx) .. x of x's tile (the tile's column totals,
//                               prefix-summed along the tile); after the carries pass: the
//                               sum of those over the bands above by (exclusive), and at
//                               by = tilesY the sum over every band.
// Sums wrap modulo 2^32 like the reference's, so every entry is its uint32 bits exactly.
const uint kTileColumns = 512u;  // every block scan's kScanElements (the backend's kBlock)
const uint kTileRows = 16u;

layout(binding = 0) uniform sampler2D uSource;  // the image (RGBA8)
layout(std430, binding = 1) buffer RowCarry { uvec4 rowCarry[]; };
layout(std430, binding = 2) buffer ColCarry { uvec4 colCarry[]; };

uniform ivec2 uExtent;  // the image's width and height
uniform ivec2 uTiles;   // tiles across and down

// The last column of tile b.
uint lastColumn(uint b) { return min(b * kTileColumns + kTileColumns - 1u, uint(uExtent.x) - 1u); }

// An RGBA8 texel as its four bytes (unorm -> float -> byte is exact after rounding).
uvec4 texelBytes(int x, int y) { return uvec4(round(texelFetch(uSource, ivec2(x, y), 0) * 255.0)); }

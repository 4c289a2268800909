// shaders/compute/block_scan_decoupled_lookback.glsl — the "decoupled-lookback" variant of
// the gl-compute backend: SAT_TILE_LOOKBACK turns "reduce-then-scan" into two passes
// (sat_tile_lookback.glsl): the carries pass goes, and each tile of the scan pass takes
// the column sums of the bands above by a decoupled look-back over the tiles of its tile
// column. Its block scan ("compute/lookback_block_scan.glsl", which the backend aliases)
// is the subgroup one where the GL has subgroup arithmetic in compute shaders, else the
// padded Blelloch tree (block_scan_blelloch_conflict_free.glsl). Under "rows-columns",
// which has no tiles, the blocks of each row and column pass their sums by look-back the
// same way (sat_scan.comp) instead of the hierarchy's scan of block sums and add pass.
// Contract: block_scan_blelloch_conflict_free.glsl's header.
#define SAT_TILE_LOOKBACK 1
#include "compute/lookback_block_scan.glsl"

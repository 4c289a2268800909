// shaders/compute/block_scan_decoupled_lookback.glsl — the "decoupled-lookback" variant of
// the gl-compute backend: the blelloch-conflict-free block scan, plus SAT_TILE_LOOKBACK,
// which turns "reduce-then-scan" into two passes (sat_tile_lookback.glsl): the carries
// pass goes, and each tile of the scan pass takes the column sums of the bands above by a
// decoupled look-back over the tiles of its tile column. Under "rows-columns", which has
// no tiles, the block scan alone. Contract: block_scan_blelloch_conflict_free.glsl's header.
#define SAT_TILE_LOOKBACK 1
#include "compute/block_scan_blelloch_conflict_free.glsl"

// sat/by_scan/warp_shuffle.cu — the SAT kernels built from the `warp-shuffle` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/warp_shuffle.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/warp_shuffle.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = WarpShufflePolicy;
extern const SatKernelsOfScan kSatKernelsWarpShuffle{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

// sat/by_scan/cub.cu — the SAT kernels built from the `cub` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/cub.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/cub.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = CubPolicy;
extern const SatKernelsOfScan kSatKernelsCub{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

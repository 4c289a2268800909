// sat/by_scan/blelloch.cu — the SAT kernels built from the `blelloch` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/blelloch.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/blelloch.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = BlellochPolicy;
extern const SatKernelsOfScan kSatKernelsBlelloch{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

// sat/by_scan/hillis_steele.cu — the SAT kernels built from the `hillis-steele` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/hillis_steele.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/hillis_steele.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = HillisSteelePolicy;
extern const SatKernelsOfScan kSatKernelsHillisSteele{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

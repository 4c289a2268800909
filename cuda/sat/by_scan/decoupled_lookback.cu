// sat/by_scan/decoupled_lookback.cu — the SAT kernels built from the `decoupled-lookback` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/decoupled_lookback.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/decoupled_lookback.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = DecoupledLookbackPolicy;
extern const SatKernelsOfScan kSatKernelsDecoupledLookback{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

// sat/by_scan/blelloch_8_per_thread.cu — the SAT kernels built from the `blelloch-8-per-thread` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/blelloch_8_per_thread.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/blelloch_8_per_thread.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = Blelloch8PerThreadPolicy;
extern const SatKernelsOfScan kSatKernelsBlelloch8PerThread{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

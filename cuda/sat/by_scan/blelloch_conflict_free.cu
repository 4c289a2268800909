// sat/by_scan/blelloch_conflict_free.cu — the SAT kernels built from the `blelloch-conflict-free` scan variant:
// reduce-then-scan and single-pass instantiated with its policy
// (detail/scan_policy/blelloch_conflict_free.cuh). One file per variant, each compiled on its own.
#include "detail/scan_policy/blelloch_conflict_free.cuh"
#include "sat/reduce_then_scan.cuh"
#include "sat/single_pass.cuh"

namespace satdof::detail {

using Policy = BlellochConflictFreePolicy;
extern const SatKernelsOfScan kSatKernelsBlellochConflictFree{Policy::kScan, launchSat<rts::ReduceThenScan<Policy>>,
                                             launchSat<sp::SinglePass<Policy>>};

}  // namespace satdof::detail

// sat/by_scan/kernels_of.cpp — which instantiation of the policy-templated SAT kernels a
// scan variant runs (sat/algorithms.h): one entry per registered scan variant, matched
// by name. An explicit list, as for the registries.
#include <array>

#include "sat/algorithms.h"

namespace satdof::detail {

const SatKernelsOfScan* satKernelsOf(const ScanVariant& scan) {
  static const std::array<const SatKernelsOfScan*, 7> all{
      &kSatKernelsHillisSteele,      &kSatKernelsBlelloch,    &kSatKernelsBlellochConflictFree,
      &kSatKernelsBlelloch8PerThread, &kSatKernelsWarpShuffle, &kSatKernelsDecoupledLookback,
      &kSatKernelsCub};
  for (const SatKernelsOfScan* k : all)
    if (k->scan == scan.name) return k;
  return nullptr;
}

}  // namespace satdof::detail

// scan/registry.cpp — the list of scan variants, and the small public helpers of scan.h.
//
// An explicit array rather than self-registering statics: satdof_cuda is a static
// library, and the linker drops object files nobody references, taking any
// self-registration with them. Order is teaching order: naive first, library last; an
// executable's own file may append one (registerScanVariant).
#include <array>
#include <string>
#include <vector>

#include "satdof/registry.h"
#include "satdof/scan.h"
#include "scan/variants.h"

namespace satdof {

std::string_view toString(ScanOp op) {
  switch (op) {
    case ScanOp::Inclusive:
      return "inclusive";
    case ScanOp::Exclusive:
      return "exclusive";
  }
  return "?";
}

std::string_view toString(ScanType type) {
  switch (type) {
    case ScanType::U32:
      return "u32";
    case ScanType::F32:
      return "f32";
  }
  return "?";
}

std::size_t sizeOf(ScanType type) {
  switch (type) {
    case ScanType::U32:
      return sizeof(std::uint32_t);
    case ScanType::F32:
      return sizeof(float);
  }
  return 0;
}

namespace {

constexpr std::array kVariants{
    ScanVariant{"hillis-steele",
                "naive double-buffered block scan (n log n adds), multi-block hierarchy",
                detail::kHillisSteeleTuning, detail::hillisSteeleScratchBytes,
                detail::hillisSteeleLaunch, "hierarchy"},
    ScanVariant{"blelloch", "work-efficient up-sweep/down-sweep tree, bank conflicts and all",
                detail::kBlellochTuning, detail::blellochScratchBytes, detail::blellochLaunch, "hierarchy"},
    ScanVariant{"blelloch-conflict-free",
                "Blelloch tree with shared-memory padding against bank conflicts",
                detail::kBlellochConflictFreeTuning, detail::blellochConflictFreeScratchBytes,
                detail::blellochConflictFreeLaunch, "hierarchy"},
    ScanVariant{"blelloch-8-per-thread",
                "8 per thread (two 16-byte loads), tree over thread totals; reduce-then-scan",
                detail::kBlelloch8Tuning, detail::blelloch8ScratchBytes, detail::blelloch8Launch, "hierarchy"},
    ScanVariant{"warp-shuffle", "block scan from __shfl_up_sync warp scans, 4 per thread",
                detail::kWarpShuffleTuning, detail::warpShuffleScratchBytes,
                detail::warpShuffleLaunch, "hierarchy"},
    ScanVariant{"decoupled-lookback",
                "single pass, warp-wide decoupled look-back (Merrill & Garland 2016)",
                detail::kDecoupledLookbackTuning, detail::decoupledLookbackScratchBytes,
                detail::decoupledLookbackLaunch, "look-back"},
    ScanVariant{"cub", "cub::DeviceScan (CCCL), the library baseline; batches by key",
                detail::kCubTuning, detail::cubScratchBytes, detail::cubLaunch, "look-back"},
};

std::vector<ScanVariant>& entries() {
  static std::vector<ScanVariant> list(kVariants.begin(), kVariants.end());
  return list;
}

}  // namespace

std::span<const ScanVariant> scanVariants() { return entries(); }

void registerScanVariant(ScanVariant variant) { appendEntry(entries(), variant); }

const ScanVariant* findScanVariant(std::string_view name) { return findByName<ScanVariant>(entries(), name); }

const ScanVariant& defaultScanVariant() {
  // The single-pass scan moves each element twice (read, write) where the hierarchy
  // variants move it four times plus the sums levels, so it is the fastest of ours by
  // construction; `satdof bench scan` puts it against CUB.
  return *findScanVariant("decoupled-lookback");
}

}  // namespace satdof

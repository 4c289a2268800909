// sort/registry.cpp — the list of radix-sort variants (an explicit array, as in
// scan/registry.cpp). Teaching order: the textbook split first, the library last.
#include <array>

#include "satdof/registry.h"
#include "satdof/sort.h"
#include "sort/variants.h"

namespace satdof {
namespace {

constexpr std::array kVariants{
    SortVariant{"split-scan",
                "the chapter's split: one bit per pass, flags, exclusive scan, scatter (32 passes)",
                true, detail::splitScanScratchBytes, detail::splitScanLaunch},
    SortVariant{"radix-4",
                "4-bit digits: per-tile histograms, a scan of them, tiles ranked by per-thread "
                "counts and one block scan",
                true, detail::radix4ScratchBytes, detail::radix4Launch},
    SortVariant{"onesweep",
                "8-bit digits: all histograms in one read, then per digit one kernel that ranks "
                "a tile, looks back over the digit counts and scatters",
                false, detail::onesweepScratchBytes, detail::onesweepLaunch},
    SortVariant{"cub", "cub::DeviceRadixSort (CCCL, onesweep), the library baseline", false,
                detail::cubSortScratchBytes, detail::cubSortLaunch},
};

}  // namespace

std::span<const SortVariant> sortVariants() { return kVariants; }

const SortVariant* findSortVariant(std::string_view name) { return findByName<SortVariant>(kVariants, name); }

const SortVariant& defaultSortVariant() { return *findSortVariant("onesweep"); }

}  // namespace satdof

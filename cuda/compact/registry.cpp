// compact/registry.cpp — the list of stream-compaction variants (an explicit array, as in
// scan/registry.cpp: a static library drops self-registering objects). Teaching order.
#include <array>

#include "satdof/registry.h"
#include "compact/variants.h"
#include "satdof/compact.h"

namespace satdof {
namespace {

constexpr std::array kVariants{
    CompactVariant{"scan-scatter",
                   "the chapter's three steps: flags, exclusive scan (any scan variant), scatter",
                   true, detail::scanScatterScratchBytes, detail::scanScatterLaunch},
    CompactVariant{"single-pass",
                   "flags, look-back scan and scatter fused in one kernel (as CUB's select)",
                   false, detail::singlePassCompactScratchBytes, detail::singlePassCompactLaunch},
    CompactVariant{"cub", "cub::DeviceSelect::If (CCCL), the library baseline", false,
                   detail::cubSelectScratchBytes, detail::cubSelectLaunch},
};

}  // namespace

std::span<const CompactVariant> compactVariants() { return kVariants; }

const CompactVariant* findCompactVariant(std::string_view name) { return findByName<CompactVariant>(kVariants, name); }

const CompactVariant& defaultCompactVariant() { return *findCompactVariant("single-pass"); }

}  // namespace satdof

// sat/registry.cpp — the list of SAT algorithms (see satdof/sat.h). An explicit array, as
// for the scans: the static library would drop self-registering objects; an executable's
// own file may append one (registerSatAlgorithm).
#include <array>
#include <vector>

#include "satdof/registry.h"
#include "sat/algorithms.h"

namespace satdof {
namespace {

std::optional<std::string> integerFormatsOnly(SatFormat format) {
  if (format == SatFormat::Uint32 || format == SatFormat::Uint21x3) return std::nullopt;
  return "builds the integer formats only (uint32, uint21x3)";
}

std::optional<std::string> anyFormat(SatFormat) { return std::nullopt; }

std::optional<std::string> policyKernels(const ScanVariant& scan) {
  if (detail::satKernelsOf(scan)) return std::nullopt;
  return "builds its scans from a variant's policy kernels (cuda/sat/by_scan/), which '" + std::string(scan.name) +
         "' lacks; rows-columns and rows-transpose-rows run any variant";
}

constexpr std::array kAlgorithms{
    SatAlgorithm{"rows-transpose-rows",
                 "the chapter's: unpack, scan rows, transpose, scan rows, transpose back",
                 true, integerFormatsOnly, detail::rowsTransposeRowsScratchBytes,
                 detail::rowsTransposeRowsLaunch},
    SatAlgorithm{"rows-columns",
                 "unpack, scan rows, then a column pass (warps walk adjacent columns down; "
                 "chunks of rows linked as the scan variant links blocks)",
                 true, anyFormat, detail::rowsColumnsScratchBytes, detail::rowsColumnsLaunch},
    SatAlgorithm{"single-pass",
                 "one read of the image, one write of the table; tiles pass row and column "
                 "sums on by a two-stage decoupled look-back",
                 true, anyFormat, detail::singlePassScratchBytes, detail::singlePassLaunch, policyKernels},
    SatAlgorithm{"reduce-then-scan",
                 "two reads of the image, one write: tile sums, then the table; the sums "
                 "cross tiles as the scan variant crosses blocks (a carries pass, or a "
                 "look-back); no tile waits for another",
                 true, anyFormat, detail::reduceThenScanScratchBytes,
                 detail::reduceThenScanLaunch, policyKernels},
};

std::vector<SatAlgorithm>& entries() {
  static std::vector<SatAlgorithm> list(kAlgorithms.begin(), kAlgorithms.end());
  return list;
}

}  // namespace

std::span<const SatAlgorithm> satAlgorithms() { return entries(); }

void registerSatAlgorithm(SatAlgorithm algorithm) { appendEntry(entries(), algorithm); }

const SatAlgorithm* findSatAlgorithm(std::string_view name) { return findByName<SatAlgorithm>(entries(), name); }

std::optional<std::string> whyNotWithScan(const SatAlgorithm& algorithm, const ScanVariant& scan) {
  if (!algorithm.whyNotScan) return std::nullopt;
  if (auto why = algorithm.whyNotScan(scan)) return std::string(algorithm.name) + ": " + *why;
  return std::nullopt;
}

// The fastest on the H200 at 1080p and up, and it builds every format
// (docs/PERFORMANCE.md); the list itself stays in the chapter's order.
const SatAlgorithm& defaultSatAlgorithm() { return *findSatAlgorithm("reduce-then-scan"); }

// The fastest with the default algorithm at every size and format on the H200: the
// carries pass between tiles, shuffle scans inside them (docs/PERFORMANCE.md, "The SAT
// from each scan variant").
const ScanVariant& defaultSatScanVariant() { return *findScanVariant("warp-shuffle"); }

}  // namespace satdof

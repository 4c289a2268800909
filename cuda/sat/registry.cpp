// sat/registry.cpp — the list of SAT algorithms (see satdof/sat.h). An explicit array, as
// for the scans: the static library would drop self-registering objects.
#include <array>

#include "satdof/registry.h"
#include "sat/algorithms.h"

namespace satdof {
namespace {

std::optional<std::string> uint32Only(SatFormat format) {
  if (format == SatFormat::Uint32) return std::nullopt;
  return "builds the uint32 format only";
}

constexpr std::array kAlgorithms{
    SatAlgorithm{"rows-transpose-rows",
                 "the chapter's: unpack, scan rows, transpose, scan rows, transpose back",
                 true, uint32Only, detail::rowsTransposeRowsScratchBytes,
                 detail::rowsTransposeRowsLaunch},
};

}  // namespace

std::span<const SatAlgorithm> satAlgorithms() { return kAlgorithms; }

const SatAlgorithm* findSatAlgorithm(std::string_view name) { return findByName<SatAlgorithm>(kAlgorithms, name); }

const SatAlgorithm& defaultSatAlgorithm() { return kAlgorithms.front(); }

}  // namespace satdof

// satdof/reference/compact.h — plain C++ stream compaction: the ground truth for every
// compaction variant (satdof/compact.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "satdof/predicate.h"

namespace satdof::reference {

// Appends, in input order, every in[i] with pred(in[i]) to *out and its index i to
// *indices (either may be nullptr). Returns the number selected.
std::size_t compact(std::span<const std::uint32_t> in, Predicate pred,
                    std::vector<std::uint32_t>* out, std::vector<std::uint32_t>* indices);

}  // namespace satdof::reference

// satdof/reference/sort.h — plain C++ stable radix sort of (key, value) pairs: the ground
// truth for every sort variant (satdof/sort.h).
#pragma once

#include <cstdint>
#include <span>

namespace satdof::reference {

// Sorts keys (and values alongside, when values is not empty: then values.size() ==
// keys.size()) stably by the key bits [beginBit, endBit), 0 <= beginBit <= endBit <= 32:
// equal digits keep their input order, other bits of the keys do not take part. An LSD
// counting sort with 8-bit digits: O(n) per digit, so 2^28 pairs take seconds, not the
// minutes a comparison sort needs.
void sortPairs(std::span<std::uint32_t> keys, std::span<std::uint32_t> values, int beginBit = 0,
               int endBit = 32);

}  // namespace satdof::reference

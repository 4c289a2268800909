// reference/sort.cpp — LSD radix sort with 8-bit digits (a counting sort per digit).
#include "satdof/reference/sort.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace satdof::reference {

void sortPairs(std::span<std::uint32_t> keys, std::span<std::uint32_t> values, int beginBit,
               int endBit) {
  if (beginBit < 0 || endBit > 32 || beginBit > endBit)
    throw std::invalid_argument("sortPairs: need 0 <= beginBit <= endBit <= 32");
  const bool withValues = !values.empty();
  if (withValues && values.size() != keys.size())
    throw std::invalid_argument("sortPairs: values and keys differ in length");
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> keyTmp(n), valueTmp(withValues ? n : 0);
  std::span<std::uint32_t> srcK = keys, dstK = keyTmp;
  std::span<std::uint32_t> srcV = values, dstV = valueTmp;
  for (int bit = beginBit; bit < endBit; bit += 8) {
    const int width = std::min(8, endBit - bit);
    const std::uint32_t mask = (1u << width) - 1u;
    std::array<std::size_t, 257> start{};
    for (std::size_t i = 0; i < n; ++i) ++start[((srcK[i] >> bit) & mask) + 1];
    for (std::size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = start[(srcK[i] >> bit) & mask]++;
      dstK[at] = srcK[i];
      if (withValues) dstV[at] = srcV[i];
    }
    std::swap(srcK, dstK);
    std::swap(srcV, dstV);
  }
  if (srcK.data() != keys.data()) {
    std::copy(srcK.begin(), srcK.end(), keys.begin());
    if (withValues) std::copy(srcV.begin(), srcV.end(), values.begin());
  }
}

}  // namespace satdof::reference

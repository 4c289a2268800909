// reference/compact.cpp — stream compaction, sequentially.
#include "satdof/reference/compact.h"

namespace satdof::reference {

std::size_t compact(std::span<const std::uint32_t> in, Predicate pred,
                    std::vector<std::uint32_t>* out, std::vector<std::uint32_t>* indices) {
  std::size_t selected = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!pred(in[i])) continue;
    ++selected;
    if (out) out->push_back(in[i]);
    if (indices) indices->push_back(static_cast<std::uint32_t>(i));
  }
  return selected;
}

}  // namespace satdof::reference

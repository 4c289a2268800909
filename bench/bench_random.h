// bench/bench_random.h — fast, deterministic pseudo-random uint32 data for the compaction
// and sort benches (splitmix64: the content is uniform over the full 32-bit range, so a
// threshold selects a known fraction and keys exercise every digit, top bit included).
#pragma once

#include <cstdint>
#include <vector>

namespace satdof::bench {

inline std::vector<std::uint32_t> uniformWords(std::size_t count, std::uint64_t seed) {
  std::vector<std::uint32_t> v(count);
  std::uint64_t state = seed;
  for (auto& e : v) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    e = static_cast<std::uint32_t>((z ^ (z >> 31)) >> 32);
  }
  return v;
}

}  // namespace satdof::bench

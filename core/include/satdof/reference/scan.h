// satdof/reference/scan.h — plain C++ prefix sums: the ground truth for every scan variant.
//
// Accumulation happens in `Acc` (defaults to T): uint32 wraps modulo 2^32 like the GPU;
// pass Acc = double for the float64 reference the float tests compare against.
#pragma once

#include <cstddef>
#include <span>

namespace satdof::reference {

// out[i] = in[0] + ... + in[i]. `out` may alias `in`.
template <class T, class Acc = T>
void inclusiveScan(std::span<const T> in, std::span<T> out) {
  Acc sum{};
  for (std::size_t i = 0; i < in.size(); ++i) {
    sum = static_cast<Acc>(sum + static_cast<Acc>(in[i]));
    out[i] = static_cast<T>(sum);
  }
}

// out[i] = in[0] + ... + in[i-1], out[0] = 0. `out` may alias `in`.
template <class T, class Acc = T>
void exclusiveScan(std::span<const T> in, std::span<T> out) {
  Acc sum{};
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Acc x = static_cast<Acc>(in[i]);
    out[i] = static_cast<T>(sum);
    sum = static_cast<Acc>(sum + x);
  }
}

}  // namespace satdof::reference

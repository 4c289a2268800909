// detail/scan_op.cuh — the scan operator and small device utilities shared by every variant.
//
// All variants are templates over the element type T (uint32_t, float) and an operator
// Op. Op supplies the combine function and its identity; the identity is what a padded
// slot (past the end of a row) holds, so partial tiles need no special cases in the
// tree phases. uint32_t addition wraps modulo 2^32, which is exactly what the contract
// asks for, so SumOp needs no special handling per type.
#pragma once

#include <cstddef>
#include <cstdint>

namespace satdof::detail {

// Addition. Kept as a type (not a lambda) so kernels can be explicitly instantiated.
struct SumOp {
  template <class T>
  __host__ __device__ __forceinline__ static constexpr T identity() {
    return T(0);
  }
  template <class T>
  __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a + b;
  }
};

// Integer ceil(a / b) for sizes.
__host__ __device__ constexpr std::size_t ceilDiv(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}

// Largest gridDim.y (and gridDim.z) a launch may use; kernels that index rows with
// blockIdx.y loop over rows in strides of gridDim.y to cover larger batches.
inline constexpr unsigned kMaxGridY = 65535;

}  // namespace satdof::detail

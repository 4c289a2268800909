// cuda/sat/sat_source.cuh — where a SAT algorithm's kernels read the RGBA8 image from:
// linear memory (a pitch) or a CUDA array through a surface object (a mapped GL texture).
// Kernels are templates on the source, so each algorithm is instantiated for both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace satdof::detail {

struct LinearSource {
  const std::uint8_t* base;
  std::size_t pitchBytes;
  __device__ uchar4 read(int x, int y) const {
    return *reinterpret_cast<const uchar4*>(base + y * pitchBytes + std::size_t(x) * 4);
  }
};

struct SurfaceSource {
  cudaSurfaceObject_t surface;
  __device__ uchar4 read(int x, int y) const {
    return surf2Dread<uchar4>(surface, x * int(sizeof(uchar4)), y);
  }
};

}  // namespace satdof::detail

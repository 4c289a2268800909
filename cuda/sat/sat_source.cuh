// cuda/sat/sat_source.cuh — where a SAT algorithm's kernels read the RGBA8 image from:
// linear memory (a pitch) or a CUDA array through a surface object (a mapped GL texture).
// Kernels are templates on the source, so each algorithm is instantiated for both.
//
// read4(x, y, width, height): the 4 pixels x .. x+3 of row y packed in a uint4 (one
// RGBA8 pixel per component), zeros outside the image. Linear memory with 16-byte
// aligned rows reads them with one 16-byte load. read2: the same for pixels x, x+1 (x
// even), one 8-byte load where the row is 8-byte aligned.
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
  bool aligned16;  // base and pitchBytes are multiples of 16
  __device__ uint4 read4(int x, int y, int width, int height) const {
    uint4 v = make_uint4(0, 0, 0, 0);
    if (y >= height) return v;
    const std::uint8_t* row = base + y * pitchBytes;
    if (aligned16 && x + 3 < width) return *reinterpret_cast<const uint4*>(row + std::size_t(x) * 4);
    const auto* px = reinterpret_cast<const std::uint32_t*>(row);
    if (x < width) v.x = px[x];
    if (x + 1 < width) v.y = px[x + 1];
    if (x + 2 < width) v.z = px[x + 2];
    if (x + 3 < width) v.w = px[x + 3];
    return v;
  }
  __device__ uint2 read2(int x, int y, int width, int height) const {
    uint2 v = make_uint2(0, 0);
    if (y >= height) return v;
    const std::uint8_t* row = base + y * pitchBytes;
    const auto* px = reinterpret_cast<const std::uint32_t*>(row);
    if (x + 1 < width && reinterpret_cast<std::uintptr_t>(row) % 8 == 0)
      return *reinterpret_cast<const uint2*>(px + x);
    if (x < width) v.x = px[x];
    if (x + 1 < width) v.y = px[x + 1];
    return v;
  }
};

struct SurfaceSource {
  cudaSurfaceObject_t surface;
  __device__ uchar4 read(int x, int y) const {
    return surf2Dread<uchar4>(surface, x * int(sizeof(uchar4)), y);
  }
  __device__ uint4 read4(int x, int y, int width, int height) const {
    uint4 v = make_uint4(0, 0, 0, 0);
    if (y >= height) return v;
    if (x < width) v.x = surf2Dread<unsigned int>(surface, x * 4, y);
    if (x + 1 < width) v.y = surf2Dread<unsigned int>(surface, (x + 1) * 4, y);
    if (x + 2 < width) v.z = surf2Dread<unsigned int>(surface, (x + 2) * 4, y);
    if (x + 3 < width) v.w = surf2Dread<unsigned int>(surface, (x + 3) * 4, y);
    return v;
  }
  __device__ uint2 read2(int x, int y, int width, int height) const {
    uint2 v = make_uint2(0, 0);
    if (y >= height) return v;
    if (x < width) v.x = surf2Dread<unsigned int>(surface, x * 4, y);
    if (x + 1 < width) v.y = surf2Dread<unsigned int>(surface, (x + 1) * 4, y);
    return v;
  }
};

}  // namespace satdof::detail

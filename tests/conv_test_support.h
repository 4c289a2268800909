// tests/conv_test_support.h — shared by the GPU convolution tests (test_conv_cuda,
// test_conv_trace_cuda): a pitched device image, poisoned, and one variant run through the
// registry on it.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "satdof/conv2d.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"
#include "satdof/reference/image.h"

namespace satdof::test {

// What the device images hold before a kernel writes them (and past each row's end).
inline constexpr std::uint8_t kPoison = 0xCD;

// A device image with `padBytes` of slack after each row (poisoned), and its host copy.
struct DeviceImage {
  DeviceBuffer<std::uint8_t> bytes;
  std::size_t pitch = 0;
  int width = 0, height = 0;

  DeviceImage(int w, int h, std::size_t padBytes)
      : pitch(std::size_t(w) * 4 + padBytes), width(w), height(h) {
    bytes.resize(std::max<std::size_t>(pitch * h, 1));
    SATDOF_CUDA_CHECK(cudaMemset(bytes.data(), kPoison, bytes.bytes()));
  }
  uchar4* data() { return reinterpret_cast<uchar4*>(bytes.data()); }
  void upload(const reference::ImageRgba8& img) {
    SATDOF_CUDA_CHECK(cudaMemcpy2D(bytes.data(), pitch, img.pixels.data(), std::size_t(width) * 4,
                                   std::size_t(width) * 4, height, cudaMemcpyHostToDevice));
  }
  std::vector<std::uint8_t> download() const {
    std::vector<std::uint8_t> host(pitch * height);
    if (!host.empty())
      SATDOF_CUDA_CHECK(cudaMemcpy(host.data(), bytes.data(), host.size(), cudaMemcpyDeviceToHost));
    return host;
  }
};

// Runs one variant on a fresh stream; returns the downloaded output (pitched).
inline std::vector<std::uint8_t> runVariant(const ConvVariant& v, const DeviceImage& in, DeviceImage& out,
                                            const Filter& f, Border border) {
  SATDOF_CUDA_CHECK(cudaMemset(out.bytes.data(), kPoison, out.bytes.bytes()));
  const std::size_t need = v.scratchBytes(in.width, in.height);
  DeviceBuffer<std::uint8_t> scratch(need);
  if (need) SATDOF_CUDA_CHECK(cudaMemset(scratch.data(), 0xAB, need));
  cudaStream_t stream = nullptr;
  SATDOF_CUDA_CHECK(cudaStreamCreate(&stream));
  ConvArgs args;
  args.in = reinterpret_cast<const uchar4*>(in.bytes.data());
  args.inPitchBytes = in.pitch;
  args.out = out.data();
  args.outPitchBytes = out.pitch;
  args.width = in.width;
  args.height = in.height;
  args.filter = &f;
  args.border = border;
  const cudaError_t launched = v.launch(args, scratch.data(), need, stream);
  const cudaError_t synced = cudaStreamSynchronize(stream);
  const cudaError_t destroyed = cudaStreamDestroy(stream);
  SATDOF_CUDA_CHECK(launched);
  SATDOF_CUDA_CHECK(synced);
  SATDOF_CUDA_CHECK(destroyed);
  return out.download();
}

}  // namespace satdof::test

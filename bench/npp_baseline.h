// bench/npp_baseline.h — NPP's integral image as the library baseline of `satdof bench sat`.
//
// NPP offers nppiIntegral_8u32s_C1R (one 8-bit channel in, (W+1) x (H+1) int32 out, sums
// wrapping like our uint32 format), so the baseline is four calls on four pre-split 8-bit
// planes: 4 x (1 + 4) = 20 bytes per pixel, the same floor as our RGBA8 -> uint4 table
// (the split is not timed, in NPP's favour).
//
// NPP is optional twice over: its headers are found at configure time (cmake/Npp.cmake;
// without them this compiles to a stub), and its library is opened at run time with
// dlopen, so a satdof built with the headers still runs where NPP is missing; either way
// available() is false and whyNot() says why.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "bench.h"
#include "satdof/reference/sat.h"

namespace satdof::bench {

class NppBaseline {
 public:
  NppBaseline();
  ~NppBaseline();
  NppBaseline(const NppBaseline&) = delete;
  NppBaseline& operator=(const NppBaseline&) = delete;

  bool available() const { return impl_ != nullptr; }
  const std::string& whyNot() const { return whyNot_; }

  struct Result {
    double ms = 0.0;       // median, 4 calls per run
    bool correct = false;  // all four channels equal the reference's uint32 table
  };
  // Checks once against `expected` (the uint32 table of `image`), then times.
  Result run(const BenchOptions& options, const reference::ImageRgba8& image,
             const reference::Sat& expected, cudaStream_t stream);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string whyNot_;
};

}  // namespace satdof::bench

// tests/test_scan_trace_cuda.cpp — each traced scan variant's trace (lesson/scan_trace.h)
// against its CUDA kernel on the same input: the kernel through the scan registry, the
// trace with the kernel's own tile (512 elements for hillis-steele, 1024 for the Blelloch
// trees), one block and several, exclusive, element for element.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda_test_support.h"
#include "lesson/scan_trace.h"
#include "satdof/device_buffer.h"
#include "satdof/scan.h"

namespace {

using satdof::DeviceBuffer;

#define EXPECT_CUDA_OK(expr)                                                    \
  do {                                                                          \
    const cudaError_t traceTestErr_ = (expr);                                   \
    EXPECT_EQ(traceTestErr_, cudaSuccess) << #expr << ": " << cudaGetErrorString(traceTestErr_); \
  } while (0)

std::vector<std::uint32_t> onTheGpu(const satdof::ScanVariant& variant, const std::vector<std::uint32_t>& in) {
  DeviceBuffer<std::uint32_t> dIn(in.size()), dOut(in.size());
  EXPECT_CUDA_OK(cudaMemcpy(dIn.data(), in.data(), dIn.bytes(), cudaMemcpyHostToDevice));
  satdof::ScanArgs args;
  args.in = dIn.data();
  args.out = dOut.data();
  args.length = in.size();
  args.type = satdof::ScanType::U32;
  args.op = satdof::ScanOp::Exclusive;
  const std::size_t scratchBytes = variant.scratchBytes(args);
  DeviceBuffer<unsigned char> scratch(scratchBytes);
  EXPECT_CUDA_OK(variant.launch(args, scratchBytes ? scratch.data() : nullptr, scratchBytes, nullptr));
  EXPECT_CUDA_OK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> out(in.size());
  EXPECT_CUDA_OK(cudaMemcpy(out.data(), dOut.data(), dOut.bytes(), cudaMemcpyDeviceToHost));
  return out;
}

TEST(ScanTraceCuda, EveryTraceEndsWithItsKernelsResult) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  std::mt19937 random(41);
  std::uniform_int_distribution<std::uint32_t> any;
  for (const std::string& name : satdof::lesson::tracedScanVariants()) {
    const satdof::ScanVariant* variant = satdof::findScanVariant(name);
    ASSERT_NE(variant, nullptr) << name << " is traced but not in the CUDA scan registry";
    const int tile = name == "hillis-steele" ? 512 : 1024;
    for (int n : {1, 31, 32, 33, tile - 1, tile, tile + 1, 3 * tile + 5}) {
      SCOPED_TRACE(name + " n=" + std::to_string(n));
      std::vector<std::uint32_t> in(static_cast<std::size_t>(n));
      for (auto& v : in) v = any(random);
      EXPECT_EQ(satdof::lesson::traceScan(name, in, tile).result, onTheGpu(*variant, in));
    }
  }
}

// One launch of each traced variant on exactly one tile of its kernel (one block), in the
// order tracedScanVariants() gives: what scripts/ncu-lesson-conflicts.sh profiles, to set
// Nsight Compute's shared-memory bank conflicts beside the trace's count for the same tile.
TEST(ScanTraceCuda, OneKernelTileOfEachVariant) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  for (const std::string& name : satdof::lesson::tracedScanVariants()) {
    const satdof::ScanVariant* variant = satdof::findScanVariant(name);
    ASSERT_NE(variant, nullptr) << name;
    const int tile = name == "hillis-steele" ? 512 : 1024;
    const std::vector<std::uint32_t> in(static_cast<std::size_t>(tile), 1u);
    EXPECT_EQ(satdof::lesson::traceScan(name, in, tile).result, onTheGpu(*variant, in)) << name;
  }
}

}  // namespace

// tests/test_scan_trace_cuda.cpp — each traced scan variant's trace (lesson/scan_trace.h)
// against its CUDA kernel on the same input: the kernel through the scan registry, the
// trace with the kernel's own tile (the registry's threads x items: 512 elements for
// hillis-steele and blelloch-8-per-thread, 1024 for the Blelloch trees, 2048 for
// warp-shuffle) and block shape, one block and several, exclusive, element for element.
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

// The kernel's tile: its block's threads x items, as the registry prints them.
int tileOf(const satdof::ScanVariant& variant) {
  return variant.tuning.threadsPerBlock * variant.tuning.itemsPerThread;
}

// Runs without a device: the trace's idea of each kernel's tile and block is the registry's.
TEST(ScanTraceCuda, TheTracesRunTheKernelsBlocks) {
  for (const std::string& name : satdof::lesson::tracedCudaScanVariants()) {
    const satdof::ScanVariant* variant = satdof::findScanVariant(name);
    ASSERT_NE(variant, nullptr) << name << " is traced but not in the CUDA scan registry";
    EXPECT_EQ(satdof::lesson::kernelTile(name), tileOf(*variant)) << name;
    const satdof::lesson::BlockShape shape = satdof::lesson::blockShape(name, tileOf(*variant));
    EXPECT_EQ(shape.threads, variant->tuning.threadsPerBlock) << name;
    EXPECT_EQ(shape.itemsPerThread, variant->tuning.itemsPerThread) << name;
    if (shape.warpLanes > 0) {
      EXPECT_EQ(shape.warpLanes, 32) << name << ": a GPU's warp";
    }
  }
}

TEST(ScanTraceCuda, EveryTraceEndsWithItsKernelsResult) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  std::mt19937 random(41);
  std::uniform_int_distribution<std::uint32_t> any;
  for (const std::string& name : satdof::lesson::tracedCudaScanVariants()) {
    const satdof::ScanVariant* variant = satdof::findScanVariant(name);
    ASSERT_NE(variant, nullptr) << name << " is traced but not in the CUDA scan registry";
    const int tile = tileOf(*variant);
    for (int n : {1, 31, 32, 33, tile - 1, tile, tile + 1, 3 * tile + 5}) {
      SCOPED_TRACE(name + " n=" + std::to_string(n));
      std::vector<std::uint32_t> in(static_cast<std::size_t>(n));
      for (auto& v : in) v = any(random);
      EXPECT_EQ(satdof::lesson::traceScan(name, in, tile).result, onTheGpu(*variant, in));
    }
  }
}

// One launch of each traced variant on exactly one tile of its kernel (one block), in the
// order tracedCudaScanVariants() gives: what scripts/ncu-lesson-conflicts.sh profiles, to set
// Nsight Compute's shared-memory bank conflicts beside the trace's count for the same tile
// (blelloch-8-per-thread's one tile runs scanTilesSeededKernel, the others scanTilesKernel).
// Random values, so that a lane or a warp total taken from the wrong place shows.
TEST(ScanTraceCuda, OneKernelTileOfEachVariant) {
  SATDOF_SKIP_WITHOUT_DEVICE();
  std::mt19937 random(43);
  std::uniform_int_distribution<std::uint32_t> any;
  for (const std::string& name : satdof::lesson::tracedCudaScanVariants()) {
    const satdof::ScanVariant* variant = satdof::findScanVariant(name);
    ASSERT_NE(variant, nullptr) << name;
    const int tile = tileOf(*variant);
    std::vector<std::uint32_t> in(static_cast<std::size_t>(tile));
    for (auto& v : in) v = any(random);
    EXPECT_EQ(satdof::lesson::traceScan(name, in, tile).result, onTheGpu(*variant, in)) << name;
  }
}

}  // namespace

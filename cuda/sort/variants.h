// sort/variants.h — the sort variants' entry points and tuning, the argument checks, and
// the ping-pong plan every multi-pass variant shares. Private to cuda/.
#pragma once

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

#include "satdof/cuda_check.h"
#include "satdof/sort.h"

namespace satdof::detail {

// `split-scan`: streaming kernels, one element per thread.
inline constexpr int kSplitThreads = 256;
// `radix-4`: 4-bit digits; a block ranks a tile of 256 x 12 = 3072 keys locally (per-
// thread counts, one block scan, sorted in shared memory), so each of the 16 digits leaves
// a tile as a run of ~192 consecutive keys on average: whole 128-byte lines for the
// scattered stores. The scatter is held to 64 registers (4 blocks of 256 per SM): at 2^24
// pairs on the H200 (2026-12-01, docs/measurements/h200-bench-sort-radix4.txt) 256 x 12
// at 4 blocks per SM took 0.913 ms in the run where 256 x 16 took 1.015 ms at 4 blocks
// (spilling) and 1.11 ms at 2 (90 registers), 256 x 8 1.00 ms, 512 x 8 1.00 ms; with the
// histogram counted in shared memory since, 0.881 ms (CUB 0.558 ms).
inline constexpr int kRadixBits = 4;
inline constexpr int kRadixThreads = 256;
inline constexpr int kRadixItems = 12;
inline constexpr int kRadixMinBlocks = 4;
// `onesweep`: 8-bit digits (4 passes for 32 bits), one thread per digit (256) in the
// look-back. Items per thread, measured at 2^24 pairs on the H200 (2026-12-01,
// docs/PERFORMANCE.md, "Stream compaction and radix sort"): 14 -> 0.80 ms, 18 -> 0.74 ms (80 registers,
// 3 blocks per SM), 22 -> 0.77 ms (103 registers, 2 blocks per SM), 22 held to 3 blocks
// per SM -> 0.75 ms (spills). A tile of 4608 keys leaves a digit's run ~18 keys long on
// average. The histogram pass: 256 threads, 8 keys each per chunk, 8 blocks per SM at most.
inline constexpr int kOnesweepBits = 8;
inline constexpr int kOnesweepThreads = 256;
inline constexpr int kOnesweepItems = 18;
inline constexpr int kOnesweepHistThreads = 256;
inline constexpr int kOnesweepHistItems = 8;

inline cudaError_t validateSortArgs(const SortArgs& args, const void* scratch,
                                    std::size_t scratchBytes, std::size_t requiredBytes) {
  if (args.beginBit < 0 || args.endBit > 32 || args.beginBit > args.endBit)
    return cudaErrorInvalidValue;
  if ((args.valuesIn == nullptr) != (args.valuesOut == nullptr)) return cudaErrorInvalidValue;
  if (args.n > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  if (args.n == 0) return cudaSuccess;
  if (args.keysIn == nullptr || args.keysOut == nullptr) return cudaErrorInvalidValue;
  if (requiredBytes > 0 && (scratch == nullptr || scratchBytes < requiredBytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

// Scratch for the alternate key / value buffers of the ping-pong.
inline std::size_t pingPongBytes(const SortArgs& args) {
  const std::size_t one = alignUp(args.n * sizeof(std::uint32_t));
  return args.hasValues() ? 2 * one : one;
}

// One pass reads src and writes dst (never the same buffers).
struct PassBuffers {
  const std::uint32_t* keysSrc;
  const std::uint32_t* valuesSrc;  // nullptr without values
  std::uint32_t* keysDst;
  std::uint32_t* valuesDst;
};

// Runs `passes` passes, pass(p, buffers), alternating between the output and the
// alternate buffers (carved from the front of `scratch`) so that the last pass lands in
// the output. An odd pass count with the input aliasing the output copies the input
// to the alternate buffers first; zero passes copy input to output.
template <class Pass>
cudaError_t runPingPong(const SortArgs& args, int passes, void* scratch, cudaStream_t stream,
                        Pass pass) {
  const std::size_t bytes = args.n * sizeof(std::uint32_t);
  auto* altKeys = static_cast<std::uint32_t*>(scratch);
  auto* altValues = args.hasValues()
                        ? reinterpret_cast<std::uint32_t*>(static_cast<std::byte*>(scratch) +
                                                           alignUp(bytes))
                        : nullptr;
  const auto copy = [&](void* dst, const void* src) {
    return dst == src ? cudaSuccess
                      : cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
  };
  if (passes == 0) {
    SATDOF_TRY(copy(args.keysOut, args.keysIn));
    if (args.hasValues()) SATDOF_TRY(copy(args.valuesOut, args.valuesIn));
    return cudaSuccess;
  }
  PassBuffers b{args.keysIn, args.valuesIn, nullptr, nullptr};
  if (passes % 2 == 1) {
    if (args.keysIn == args.keysOut) {
      SATDOF_TRY(copy(altKeys, args.keysIn));
      b.keysSrc = altKeys;
    }
    if (args.hasValues() && args.valuesIn == args.valuesOut) {
      SATDOF_TRY(copy(altValues, args.valuesIn));
      b.valuesSrc = altValues;
    }
  }
  for (int p = 0; p < passes; ++p) {
    const bool toOut = (passes - 1 - p) % 2 == 0;
    b.keysDst = toOut ? args.keysOut : altKeys;
    b.valuesDst = args.hasValues() ? (toOut ? args.valuesOut : altValues) : nullptr;
    SATDOF_TRY(pass(p, b));
    b.keysSrc = b.keysDst;
    b.valuesSrc = b.valuesDst;
  }
  return cudaSuccess;
}

std::size_t splitScanScratchBytes(const SortArgs& args);
cudaError_t splitScanLaunch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream);
std::size_t radix4ScratchBytes(const SortArgs& args);
cudaError_t radix4Launch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                         cudaStream_t stream);
std::size_t onesweepScratchBytes(const SortArgs& args);
cudaError_t onesweepLaunch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                           cudaStream_t stream);
std::size_t cubSortScratchBytes(const SortArgs& args);
cudaError_t cubSortLaunch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                          cudaStream_t stream);

}  // namespace satdof::detail

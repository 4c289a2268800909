// satdof/sort.h — the registry of radix-sort variants for (key, value) pairs of uint32
// (GPU Gems 3, 39.3.2-39.3.3: radix sort from the split primitive).
//
// Every variant is an LSD radix sort and therefore stable: pairs whose keys agree on the
// sorted bits keep their input order. Keys compare as unsigned integers (a key with the
// top bit set sorts last). Tests and `satdof bench sort` iterate sortVariants(); the
// depth-of-field demo sorts selected pixels by a depth key.
//
// Contract shared by all variants:
//   * n in [0, 2^31 - 1]; n == 0 is a no-op returning success;
//   * only the key bits [beginBit, endBit) take part, 0 <= beginBit <= endBit <= 32;
//     the output still carries whole keys;
//   * the result goes to keysOut / valuesOut; in == out (in place) is allowed, other
//     overlap is not; keysIn is never written unless it is keysOut;
//   * values are optional: valuesIn and valuesOut both nullptr sorts keys alone;
//   * scratch is owned by the caller (it holds the ping-pong buffers): at least
//     scratchBytes(args) bytes of device memory, 256-byte aligned; no allocation in
//     launch(); launch() is asynchronous on `stream` and checks every launch it makes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace satdof {

struct ScanVariant;

struct SortArgs {
  const std::uint32_t* keysIn = nullptr;
  std::uint32_t* keysOut = nullptr;
  const std::uint32_t* valuesIn = nullptr;  // optional, with valuesOut
  std::uint32_t* valuesOut = nullptr;
  std::size_t n = 0;
  int beginBit = 0;
  int endBit = 32;
  // The scan behind the split (`split-scan`) or behind the digit histograms (`radix-4`);
  // nullptr means defaultScanVariant(). Ignored by variants with usesScan == false
  // (`onesweep` scans its histograms with its own block scan and look-back).
  const ScanVariant* scan = nullptr;

  bool hasValues() const { return valuesIn != nullptr; }
};

struct SortVariant {
  std::string_view name;
  std::string_view description;
  bool usesScan;
  std::size_t (*scratchBytes)(const SortArgs& args);
  cudaError_t (*launch)(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream);
};

std::span<const SortVariant> sortVariants();
const SortVariant* findSortVariant(std::string_view name);
// The fastest of ours: `onesweep` (docs/PERFORMANCE.md, radix sort).
const SortVariant& defaultSortVariant();

}  // namespace satdof

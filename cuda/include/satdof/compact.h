// satdof/compact.h — the registry of stream-compaction variants (GPU Gems 3, 39.3.1).
//
// Compaction keeps, in input order (stable), the elements of a uint32 array that satisfy
// a Predicate (satdof/predicate.h: a comparison with one operand, e.g. value > threshold),
// and can emit the kept elements' original indices too, so a caller can gather any other
// attribute of them (the bokeh pass selects pixel indices whose key passes a threshold).
// Tests and `satdof bench compact` iterate compactVariants().
//
// Contract shared by all variants:
//   * n in [0, 2^32 - 1]; n == 0 writes *count = 0 and nothing else;
//   * out and indices are optional (nullptr: not written), each has room for n elements
//     (the worst case); only their first *count elements are written; neither may
//     overlap `in`;
//   * count (device memory, required) receives the number of selected elements;
//   * scratch is owned by the caller: at least scratchBytes(args) bytes of device memory,
//     256-byte aligned; a variant never allocates in launch();
//   * launch() is asynchronous on `stream` and checks every launch it makes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "satdof/predicate.h"

namespace satdof {

struct ScanVariant;

struct CompactArgs {
  const std::uint32_t* in = nullptr;
  std::uint32_t* out = nullptr;      // selected values (optional)
  std::uint32_t* indices = nullptr;  // their indices in `in` (optional)
  std::uint32_t* count = nullptr;    // device: number selected (required)
  std::size_t n = 0;
  Predicate predicate;
  // `scan-scatter` only: the scan of the flags; nullptr means defaultScanVariant().
  const ScanVariant* scan = nullptr;
};

struct CompactVariant {
  std::string_view name;         // stable identifier: CLI, bench output
  std::string_view description;  // one line
  bool usesScan;                 // honours CompactArgs::scan
  std::size_t (*scratchBytes)(const CompactArgs& args);
  cudaError_t (*launch)(const CompactArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream);
};

// All variants in teaching order (the chapter's form first, the library baseline last).
std::span<const CompactVariant> compactVariants();
// nullptr when no variant has that name.
const CompactVariant* findCompactVariant(std::string_view name);
// The fastest of ours: `single-pass`.
const CompactVariant& defaultCompactVariant();

}  // namespace satdof

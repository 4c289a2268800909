// satdof/scan.h — the registry of device-wide scan variants.
//
// Every variant scans a batch of independent rows of one length (a single array is a
// batch of one row). The UI's scan combo, the tests and `satdof bench scan` all iterate
// scanVariants(), so a variant added to cuda/scan/registry.cpp shows up everywhere.
//
// Contract shared by all variants:
//   * any length >= 0 and any row count; length 0 or rows 0 is a no-op returning success;
//   * in == out (in place) is allowed; otherwise the ranges must not overlap;
//   * uint32 arithmetic wraps modulo 2^32 (the SAT relies on it), float is IEEE float;
//   * scratch is owned by the caller: at least scratchBytes(args) bytes of device memory,
//     256-byte aligned; a variant never allocates in launch();
//   * launch() is asynchronous on `stream` and checks every launch it makes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace satdof {

enum class ScanOp { Inclusive, Exclusive };
enum class ScanType { U32, F32 };

std::string_view toString(ScanOp op);
std::string_view toString(ScanType type);
std::size_t sizeOf(ScanType type);

// A batch of `rows` scans of `length` elements; row r starts at element r * pitch of
// both `in` and `out` (pitch in elements, >= length; 0 means tightly packed).
struct ScanArgs {
  const void* in = nullptr;
  void* out = nullptr;
  std::size_t length = 0;
  std::size_t rows = 1;
  std::size_t pitch = 0;
  ScanType type = ScanType::U32;
  ScanOp op = ScanOp::Inclusive;

  std::size_t rowPitch() const { return pitch ? pitch : length; }
};

// Launch shape of a variant (0 x 0: the library tunes itself).
struct ScanTuning {
  int threadsPerBlock = 0;
  int itemsPerThread = 0;
};

struct ScanVariant {
  std::string_view name;         // stable identifier: CLI, bench output, UI
  std::string_view description;  // one line for the UI and --help
  ScanTuning tuning;
  std::size_t (*scratchBytes)(const ScanArgs& args);
  cudaError_t (*launch)(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream);
  // How sums pass between blocks: "hierarchy" (block sums scanned in a pass of their own,
  // then added back) or "look-back" (each block reads its predecessors' published sums).
  // reduce-then-scan's SAT tiles and rows-columns' chunks cross the same way (satdof/sat.h).
  std::string_view acrossBlocks;
};

// All variants, in teaching order (naive first, library baseline last).
std::span<const ScanVariant> scanVariants();
// nullptr when no variant has that name.
const ScanVariant* findScanVariant(std::string_view name);
// Appends a variant to the list (before its first use: an executable's file does it from a
// static initialiser, as tests/add_one_more does); a name already listed throws. The SAT
// algorithms built from policy kernels (reduce-then-scan, single-pass) refuse a variant
// without them (cuda/sat/by_scan/); the others run its launch().
void registerScanVariant(ScanVariant variant);
// The variant the one-dimensional scans use unless told otherwise (compaction's
// scan-scatter, the radix sort, `satdof bench scan`'s highlight). The SAT's default is
// defaultSatScanVariant() (satdof/sat.h).
const ScanVariant& defaultScanVariant();

}  // namespace satdof

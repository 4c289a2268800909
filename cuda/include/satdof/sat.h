// satdof/sat.h — the registry of summed-area-table algorithms on the GPU.
//
// Every algorithm reads an RGBA8 image (linear memory, or a CUDA array such as a mapped
// GL texture through a surface object) and writes the table in a named format
// (satdof/sat_format.h: the layout, its size and its shader include live there alone).
// The UI's SAT combo, `--sat`, the tests and `satdof bench sat` iterate satAlgorithms(),
// so an algorithm added to cuda/sat/registry.cpp shows up everywhere.
//
// Contract shared by all algorithms:
//   * any width, height >= 0; an empty image is a no-op returning success;
//   * the table holds satTableBytes(format, width, height) bytes; every byte is written;
//   * scratch is owned by the caller: at least scratchBytes(args) bytes, 256-byte
//     aligned; an algorithm never allocates in launch() and sizes scratch from the shape,
//     the format and the scan variant only (not from the pointers);
//   * every algorithm is built from the scan variant args.scan (nullptr:
//     defaultSatScanVariant()), and usesScan is true for all: rows-transpose-rows runs the
//     variant's device-wide scan (its tile scan and its multi-block scheme) over rows and
//     transposed columns, rows-columns over rows (its column pass walks each column down
//     sequentially, its chunks of rows linked as the variant links blocks: a pass that
//     scans the chunks' sums, or a look-back); reduce-then-scan and single-pass make
//     every scan inside their tiles and over their tile sums from the variant's warp-level
//     policy (cuda/detail/scan_policy/). reduce-then-scan also passes the sums between
//     its tiles as the variant passes them between blocks (ScanVariant::acrossBlocks): a
//     carries pass for "hierarchy", a look-back for "look-back"; single-pass is a
//     look-back whatever the variant (it has no second pass to carry sums in). A variant
//     changes the time, never the bytes. A ScanVariant without policy kernels (one
//     registered from outside cuda/) is refused by those two: whyNotScan says so, and
//     their launch() returns cudaErrorInvalidValue;
//   * launch() is asynchronous on `stream` and checks every launch it makes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "satdof/sat_format.h"
#include "satdof/scan.h"

namespace satdof {

// The RGBA8 image a table is built from.
struct SatSource {
  const std::uint8_t* rgba = nullptr;  // linear memory, rows pitchBytes apart ...
  std::size_t pitchBytes = 0;
  cudaSurfaceObject_t surface = 0;     // ... or a CUDA array (when rgba is null)

  static SatSource linear(const void* rgba, std::size_t pitchBytes) {
    return {static_cast<const std::uint8_t*>(rgba), pitchBytes, 0};
  }
  static SatSource fromSurface(cudaSurfaceObject_t s) { return {nullptr, 0, s}; }
  bool isSurface() const { return rgba == nullptr; }
};

struct SatArgs {
  SatSource source;
  int width = 0;
  int height = 0;
  SatFormat format = SatFormat::Uint32;
  void* table = nullptr;               // satTableBytes(format, width, height) bytes
  const ScanVariant* scan = nullptr;   // the scans it is built from; null: the default
};

struct SatAlgorithm {
  std::string_view name;         // stable identifier: --sat, UI, bench, tests
  std::string_view description;  // one line for the UI and --help
  bool usesScan;                 // args.scan drives its scans (true for every algorithm today)
  // Why this algorithm cannot build `format` (nullopt: it can).
  std::optional<std::string> (*whyNot)(SatFormat format);
  std::size_t (*scratchBytes)(const SatArgs& args);
  cudaError_t (*launch)(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream);
  // Why this algorithm cannot be built from `scan` (nullptr or nullopt: it can). The two
  // made of policy kernels refuse a variant that has none (one added from outside cuda/).
  std::optional<std::string> (*whyNotScan)(const ScanVariant& scan) = nullptr;
};

// All algorithms, in teaching order (the chapter's first).
std::span<const SatAlgorithm> satAlgorithms();
const SatAlgorithm* findSatAlgorithm(std::string_view name);  // nullptr when unknown
// Why `algorithm` cannot run with `scan` (whyNotScan), or nullopt.
std::optional<std::string> whyNotWithScan(const SatAlgorithm& algorithm, const ScanVariant& scan);
// Appends an algorithm (before the list's first use, as registerScanVariant); a name
// already listed throws.
void registerSatAlgorithm(SatAlgorithm algorithm);
// The algorithm the app uses unless the user picks another.
const SatAlgorithm& defaultSatAlgorithm();
// The scan variant the SAT is built from unless the user picks another (and where
// args.scan is nullptr). Not defaultScanVariant(): in one dimension the look-back is the
// fastest, but a SAT tile's carries are vectors, and reduce-then-scan crossing its tiles
// by look-back is slower than by its carries pass (docs/PERFORMANCE.md).
const ScanVariant& defaultSatScanVariant();

}  // namespace satdof

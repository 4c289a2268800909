// satdof/conv2d.h — the registry of 2D convolution variants over RGBA8 images.
//
// The UI's kernel combo, the tests and `satdof bench conv` all iterate convVariants(), so
// a variant added to cuda/conv/registry.cpp shows up everywhere. Filters, borders and the
// CPU reference come from satdof/reference/conv.h (usable without CUDA).
//
// Contract shared by all variants:
//   * RGBA8 in, RGBA8 out, any width/height in 0..32768 (0 is a no-op returning success);
//   * `in` and `out` must not overlap (a tile reads its neighbours' input);
//   * the result equals reference::convolve(image, filter, border, variant.math) bit for
//     bit: float accumulation with fused multiply-adds in the documented tap order,
//     rounded once with clamp(floor(acc + 0.5), 0, 255) (or the exact integer mean for
//     ConvMath::BoxSum);
//   * scratch is owned by the caller: at least scratchBytes(width, height) bytes of
//     device memory, 256-byte aligned; a variant never allocates in launch();
//   * launch() is asynchronous on `stream`, checks every launch it makes, and refuses
//     bad arguments with cudaErrorInvalidValue and filters it does not support with
//     cudaErrorNotSupported (checkConvArgs() and supports() say why, in words);
//   * variants that keep the filter in __constant__ memory share that copy between
//     launches: run one such launch at a time (one stream), as the filter pass does.
//   * built without fast-math / flush-to-zero, which would change the float results.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "satdof/reference/conv.h"

namespace satdof {

struct ConvArgs {
  const uchar4* in = nullptr;
  std::size_t inPitchBytes = 0;  // bytes between rows, >= width * 4, a multiple of 4
  uchar4* out = nullptr;
  std::size_t outPitchBytes = 0;
  int width = 0;
  int height = 0;
  const Filter* filter = nullptr;
  Border border = Border::Zero;
};

struct ConvVariant {
  std::string_view name;         // stable identifier: CLI, bench output, UI
  std::string_view description;  // one line for the UI and --help
  std::string_view tuning;       // launch shape, printable ("256 threads, 64x64 tile")
  ConvMath math;                 // the reference this variant reproduces exactly
  // Empty when the variant can run this (valid) filter; otherwise why not, for the UI.
  std::optional<std::string> (*supports)(const Filter& filter);
  std::size_t (*scratchBytes)(int width, int height);
  cudaError_t (*launch)(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                        cudaStream_t stream);
};

// All variants, in teaching order (basic first, SAT box last).
std::span<const ConvVariant> convVariants();
// nullptr when no variant has that name.
const ConvVariant* findConvVariant(std::string_view name);
// Appends a variant (before the list's first use, as registerScanVariant); a name already
// listed throws.
void registerConvVariant(ConvVariant variant);
// The variant the filter pass uses unless the user picks another (supports every filter).
const ConvVariant& defaultConvVariant();
// The variant designed to be fastest for this filter: separable for separable filters,
// tiled-halo otherwise. (sat-box costs the same at every radius, but rounds the mean in
// integers: ConvMath::BoxSum, so its image can differ by one level from the others.)
const ConvVariant& preferredConvVariant(const Filter& filter);

// Empty when `args` is usable by any variant (sizes, pitches, alignment, no overlap, a
// valid filter); otherwise the reason launch() would return cudaErrorInvalidValue.
std::optional<std::string> checkConvArgs(const ConvArgs& args);

}  // namespace satdof

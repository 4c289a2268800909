// satdof/reference/conv.h — 2D convolution filters and the CPU reference convolution.
//
// The Filter value type and its builders live here (not in the CUDA library) because the
// CPU backend and the tests need them without a CUDA toolkit; satdof/conv2d.h includes
// this header and adds the GPU variant registry.
//
// Exactness contract (shared with every GPU variant):
//   * a pixel channel is converted to float exactly (0..255);
//   * each output channel is one float accumulator, starting at +0, updated tap by tap
//     with a fused multiply-add (std::fma here, __fmaf_rn on the GPU) in a fixed order;
//   * the result is rounded once: clamp(floor(acc + 0.5f), 0, 255) (roundToByte).
// Three orders ("maths") exist, and each GPU variant declares which one it follows:
//   Direct     taps row-major over the (2r+1)^2 kernel: i (y offset) outer, j (x) inner;
//   Separable  a horizontal pass (j ascending) into a float intermediate, then a vertical
//              pass over that intermediate (i ascending); for separable filters only;
//   BoxSum     an exact integer window sum, then (2*sum + n^2) / (2*n^2) with integers:
//              the mean rounded half up; for box filters only.
// A ghost cell under Border::Zero contributes nothing; fma(w, 0, acc) == acc, so skipping
// a tap and multiplying it by a zero-filled cell give the same bits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "satdof/reference/image.h"

namespace satdof {

inline constexpr int kMinFilterRadius = 1;
inline constexpr int kMaxFilterRadius = 15;
inline constexpr int kMaxFilterTaps = (2 * kMaxFilterRadius + 1) * (2 * kMaxFilterRadius + 1);
// Largest |weight| accepted: keeps every accumulator finite (961 * 255 * 1e6 < FLT_MAX).
inline constexpr float kMaxFilterWeight = 1.0e6f;

// What lies outside the image.
enum class Border {
  Zero,   // ghost cells are 0 (the book's convention)
  Clamp,  // the nearest edge pixel is repeated
};

enum class FilterKind { Box, Gaussian, Sharpen, Laplacian, Emboss, Identity, Custom };

// How an output value is computed, i.e. which reference reproduces a variant bit for bit.
enum class ConvMath { Direct, Separable, BoxSum };

std::string_view toString(Border border);
std::string_view toString(FilterKind kind);
std::string_view toString(ConvMath math);

// A square filter of radius r: (2r+1)^2 weights, row-major. weights[i * size() + j]
// multiplies the input pixel at (x - r + j, y - r + i). Build it with the functions
// below; a hand-made Filter is checked by validateFilter() before any use.
struct Filter {
  std::string name;
  FilterKind kind = FilterKind::Custom;
  int radius = 1;
  std::vector<float> weights;
  // Rank-one filters also carry their 1D factors, and then
  // weights[i * size() + j] == colWeights[i] * rowWeights[j] exactly (in float).
  bool separable = false;
  std::vector<float> rowWeights;  // along x (the horizontal pass), 2r+1 values
  std::vector<float> colWeights;  // along y (the vertical pass), 2r+1 values

  int size() const { return 2 * radius + 1; }
  int taps() const { return size() * size(); }
  float at(int i, int j) const { return weights[std::size_t(i) * size() + j]; }
};

// Empty when the filter is usable; otherwise why not (radius range, weight count,
// non-finite or too large weights, factors that do not reproduce the 2D kernel).
std::optional<std::string> validateFilter(const Filter& filter);

// ---- builders ------------------------------------------------------------------------
// All throw std::invalid_argument with a readable message on bad parameters.

// Mean of the (2r+1)^2 window; separable with factors 1/(2r+1).
Filter box(int radius);
// Normalised Gaussian of standard deviation sigma (pixels); separable.
Filter gaussian(int radius, float sigma);
// The sigma the UI offers by default for a radius: radius / 2.
float defaultGaussianSigma(int radius);
// 2 * identity - box(r): the classic unsharp mask; weights sum to 1.
Filter sharpen(int radius = 1);
// Edge detector: -1 everywhere, (2r+1)^2 - 1 in the centre (weights sum to 0);
// radius 1 is the 8-neighbour Laplacian.
Filter laplacian(int radius = 1);
// Relief: ((i - r) + (j - r)) / r off the centre, 1 in the centre (weights sum to 1);
// radius 1 is the classic [-2 -1 0; -1 1 1; 0 1 2].
Filter emboss(int radius = 1);
// 1 in the centre: returns the input unchanged (separable).
Filter identity(int radius = 1);
// Any (2r+1)^2 finite weights, row-major; treated as not separable.
Filter custom(int radius, std::span<const float> weights, std::string name = "custom");

}  // namespace satdof

namespace satdof::reference {

class ThreadPool;  // satdof/reference/parallel.h

// The one rounding rule: clamp(floor(acc + 0.5f), 0, 255), all in float.
std::uint8_t roundToByte(float acc);

// Direct maths: every output channel is one fma chain over the taps, row-major.
ImageRgba8 convolve2D(const ImageRgba8& image, const Filter& filter, Border border,
                      unsigned threads = 0);

// Separable maths: horizontal pass with rowWeights into a float intermediate (one fma
// chain per value), then vertical pass with colWeights. Throws unless filter.separable.
ImageRgba8 convolveSeparable(const ImageRgba8& image, const Filter& filter, Border border,
                             unsigned threads = 0);

// BoxSum maths: exact integer sum over the (2r+1)^2 window (ghost cells 0 or clamped),
// divided by (2r+1)^2 and rounded half up, in integers.
ImageRgba8 boxFilterExact(const ImageRgba8& image, int radius, Border border,
                          unsigned threads = 0);

// Each runs on `threads` threads over row bands, the separable and box-sum ones over
// tiles of rows x column blocks (0: every core the image has work for; see
// minRowsPerThread in satdof/reference/sat.h), with the same bytes for any count.
// Dispatches to one of the three. Box maths needs filter.kind == FilterKind::Box.
ImageRgba8 convolve(const ImageRgba8& image, const Filter& filter, Border border, ConvMath math,
                    unsigned threads = 0);

// The same on a caller's pool (no threads started) into `out`, whose storage is reused
// when it already has the image's size: for a caller that filters every frame. Bands
// and tiles of a few thousand pixels, kChunksPerThread a thread (parallel.h).
void convolve(const ImageRgba8& image, const Filter& filter, Border border, ConvMath math, ImageRgba8& out,
              ThreadPool& pool);

}  // namespace satdof::reference

// Filters, their builders and the CPU reference convolution (see satdof/reference/conv.h).
//
// Sections: names | validation | builders | rounding and pixel access | Direct maths |
// Separable maths | BoxSum maths | dispatch.
// Every accumulation uses std::fma in the documented order, so the GPU variants (which
// use __fmaf_rn in the same order) match bit for bit after rounding.
#include "satdof/reference/conv.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>

#include "satdof/reference/parallel.h"
#include "satdof/reference/sat.h"  // minRowsPerThread

namespace satdof {

// =====================================================================================
// names
// =====================================================================================

std::string_view toString(Border border) {
  switch (border) {
    case Border::Zero: return "zero";
    case Border::Clamp: return "clamp";
  }
  return "?";
}

std::string_view toString(FilterKind kind) {
  switch (kind) {
    case FilterKind::Box: return "box";
    case FilterKind::Gaussian: return "gaussian";
    case FilterKind::Sharpen: return "sharpen";
    case FilterKind::Laplacian: return "laplacian";
    case FilterKind::Emboss: return "emboss";
    case FilterKind::Identity: return "identity";
    case FilterKind::Custom: return "custom";
  }
  return "?";
}

std::string_view toString(ConvMath math) {
  switch (math) {
    case ConvMath::Direct: return "direct";
    case ConvMath::Separable: return "separable";
    case ConvMath::BoxSum: return "box-sum";
  }
  return "?";
}

// =====================================================================================
// validation
// =====================================================================================

namespace {

bool radiusInRange(int radius) {
  return radius >= kMinFilterRadius && radius <= kMaxFilterRadius;
}

std::string radiusMessage(int radius) {
  return "filter radius " + std::to_string(radius) + " is outside " +
         std::to_string(kMinFilterRadius) + ".." + std::to_string(kMaxFilterRadius);
}

// Empty when every value is finite and within kMaxFilterWeight.
std::optional<std::string> checkValues(std::span<const float> values, std::string_view what) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k]) || std::fabs(values[k]) > kMaxFilterWeight)
      return std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(values[k]) +
             " is not a finite value within +-1e6";
  }
  return std::nullopt;
}

void throwIfInvalid(const Filter& filter) {
  if (auto why = validateFilter(filter)) throw std::invalid_argument(*why);
}

// A rank-one filter from its 1D factors (the 2D weights are their float products).
Filter fromFactors(std::string name, FilterKind kind, int radius, std::vector<float> col,
                   std::vector<float> row) {
  Filter f;
  f.name = std::move(name);
  f.kind = kind;
  f.radius = radius;
  f.separable = true;
  const int n = f.size();
  f.weights.resize(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) f.weights[std::size_t(i) * n + j] = col[i] * row[j];
  f.colWeights = std::move(col);
  f.rowWeights = std::move(row);
  throwIfInvalid(f);
  return f;
}

void requireRadius(int radius) {
  if (!radiusInRange(radius)) throw std::invalid_argument(radiusMessage(radius));
}

}  // namespace

std::optional<std::string> validateFilter(const Filter& f) {
  if (!radiusInRange(f.radius)) return radiusMessage(f.radius);
  const std::size_t n = std::size_t(f.size());
  if (f.weights.size() != n * n)
    return "filter '" + f.name + "' of radius " + std::to_string(f.radius) + " needs " +
           std::to_string(n * n) + " weights, has " + std::to_string(f.weights.size());
  if (auto why = checkValues(f.weights, "weights")) return why;
  if (f.separable) {
    if (f.rowWeights.size() != n || f.colWeights.size() != n)
      return "separable filter '" + f.name + "' needs " + std::to_string(n) +
             " row and column weights, has " + std::to_string(f.rowWeights.size()) + " and " +
             std::to_string(f.colWeights.size());
    if (auto why = checkValues(f.rowWeights, "rowWeights")) return why;
    if (auto why = checkValues(f.colWeights, "colWeights")) return why;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (f.weights[i * n + j] != f.colWeights[i] * f.rowWeights[j])
          return "separable filter '" + f.name +
                 "': colWeights x rowWeights does not reproduce the 2D weights";
  }
  if (f.kind == FilterKind::Box) {
    const float k = float(1.0 / double(n));
    bool ok = f.separable;
    for (std::size_t i = 0; ok && i < n; ++i) ok = f.rowWeights[i] == k && f.colWeights[i] == k;
    if (!ok) return "filter '" + f.name + "' is marked as a box but is not box(" +
                    std::to_string(f.radius) + ")";
  }
  return std::nullopt;
}

// =====================================================================================
// builders
// =====================================================================================

Filter box(int radius) {
  requireRadius(radius);
  const int n = 2 * radius + 1;
  std::vector<float> k(n, float(1.0 / double(n)));
  return fromFactors("box", FilterKind::Box, radius, k, k);
}

float defaultGaussianSigma(int radius) { return 0.5f * float(radius); }

Filter gaussian(int radius, float sigma) {
  requireRadius(radius);
  if (!std::isfinite(sigma) || sigma <= 0.0f)
    throw std::invalid_argument("gaussian sigma must be a positive number, got " +
                                std::to_string(sigma));
  const int n = 2 * radius + 1;
  std::vector<double> g(n);
  double sum = 0.0;
  for (int k = 0; k < n; ++k) {
    const double d = double(k - radius);
    g[k] = std::exp(-d * d / (2.0 * double(sigma) * double(sigma)));
    sum += g[k];
  }
  std::vector<float> k1(n);
  for (int k = 0; k < n; ++k) k1[k] = float(g[k] / sum);
  return fromFactors("gaussian", FilterKind::Gaussian, radius, k1, k1);
}

Filter identity(int radius) {
  requireRadius(radius);
  std::vector<float> k(2 * radius + 1, 0.0f);
  k[radius] = 1.0f;
  return fromFactors("identity", FilterKind::Identity, radius, k, k);
}

namespace {

// A non-separable filter whose weight at (i, j) is given by `weight`.
template <class WeightOf>
Filter dense(std::string name, FilterKind kind, int radius, WeightOf weight) {
  requireRadius(radius);
  Filter f;
  f.name = std::move(name);
  f.kind = kind;
  f.radius = radius;
  const int n = f.size();
  f.weights.resize(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) f.weights[std::size_t(i) * n + j] = weight(i, j);
  throwIfInvalid(f);
  return f;
}

}  // namespace

Filter sharpen(int radius) {
  const double n2 = double(2 * radius + 1) * double(2 * radius + 1);
  return dense("sharpen", FilterKind::Sharpen, radius, [&](int i, int j) {
    return i == radius && j == radius ? float(2.0 - 1.0 / n2) : float(-1.0 / n2);
  });
}

Filter laplacian(int radius) {
  const float n2 = float((2 * radius + 1) * (2 * radius + 1));
  return dense("laplacian", FilterKind::Laplacian, radius, [&](int i, int j) {
    return i == radius && j == radius ? n2 - 1.0f : -1.0f;
  });
}

Filter emboss(int radius) {
  return dense("emboss", FilterKind::Emboss, radius, [&](int i, int j) {
    if (i == radius && j == radius) return 1.0f;
    return float(double((i - radius) + (j - radius)) / double(radius));
  });
}

Filter custom(int radius, std::span<const float> weights, std::string name) {
  requireRadius(radius);
  const std::size_t n = std::size_t(2 * radius + 1);
  if (weights.size() != n * n)
    throw std::invalid_argument("custom filter of radius " + std::to_string(radius) + " needs " +
                                std::to_string(n * n) + " weights, got " +
                                std::to_string(weights.size()));
  Filter f;
  f.name = std::move(name);
  f.kind = FilterKind::Custom;
  f.radius = radius;
  f.weights.assign(weights.begin(), weights.end());
  throwIfInvalid(f);
  return f;
}

}  // namespace satdof

namespace satdof::reference {

// =====================================================================================
// rounding and pixel access
// =====================================================================================

std::uint8_t roundToByte(float acc) {
  float v = std::floor(acc + 0.5f);
  v = std::min(std::max(v, 0.0f), 255.0f);
  return std::uint8_t(v);
}

namespace {

// Index of the source row/column for offset coordinate `c` in [0, n), or -1 for a ghost
// cell under Border::Zero.
int sourceIndex(int c, int n, Border border) {
  if (c >= 0 && c < n) return c;
  if (border == Border::Zero) return -1;
  return std::clamp(c, 0, n - 1);
}

void requireValid(const Filter& filter) {
  if (auto why = validateFilter(filter)) throw std::invalid_argument(*why);
}

// A scratch array left uninitialised: zero-filling it would be one thread's serial pass
// over memory (for 3840x2160 floats, 132 MB of page faults and stores) that the passes
// below, which write every element before any read, make on all threads anyway.
template <class T>
std::unique_ptr<T[]> uninitialised(std::size_t count) {
  return std::unique_ptr<T[]>(new T[count]);
}

// Where a call's rows run: a pool (nullptr: the calling thread alone) and the smallest
// band worth a task: 1 where the caller chose the thread count (tests splitting small
// images into single rows), more where the pool chooses its bands.
struct Rows {
  ThreadPool* pool;
  std::size_t minRows;
};

// body(y0, y1) over bands of the rows [0, height). Every pass below writes only its own
// rows, and each output value is computed by the same code in the same order whichever
// band it falls in, so the bytes never depend on the pool.
template <class Body>
void forRowBands(Rows rows, int height, Body&& body, std::size_t minRows = 0) {
  const std::size_t count = std::size_t(std::max(height, 0));
  if (!rows.pool) {
    if (count) body(0, height);
    return;
  }
  parallelFor(
      *rows.pool, count, [&](std::size_t b, std::size_t e) { body(int(b), int(e)); },
      std::max(rows.minRows, minRows));
}

// Where a pool's tiles are cut when the caller let the pool choose (Rows::minRows > 1):
// blocks of at least kMinTileColumns columns, their edges on multiples of 16 pixels (64
// bytes of output: two tiles side by side never write the same cache line).
constexpr std::size_t kMinTileColumns = 64, kTileColumnAlign = 16;

// body(y0, y1, x0, x1) over tiles of [0, height) x [0, width): row bands of at least
// minRows rows where the image has them, cut into column blocks when there are too few
// bands for every thread (parallelForTiles). For passes whose bands pay for their edges:
// a tile's output depends only on its own rectangle's position, never on its size.
template <class Body>
void forTiles(Rows rows, int height, int width, std::size_t minRows, Body&& body) {
  if (height <= 0 || width <= 0) return;
  if (!rows.pool) return body(0, height, 0, width);
  const bool automatic = rows.minRows > 1;
  parallelForTiles(
      *rows.pool, std::size_t(height), std::size_t(width),
      [&](std::size_t y0, std::size_t y1, std::size_t x0, std::size_t x1) { body(int(y0), int(y1), int(x0), int(x1)); },
      std::max(rows.minRows, minRows), automatic ? kMinTileColumns : 1, automatic ? kTileColumnAlign : 1);
}

// The minimum band of a pass that recomputes r rows on each side of every band (their
// first pass: the separable one's horizontal rows, the box sum's row sums): 8(2r+1)
// rows, so at most 1/8 more of that pass. On a pool of the caller's choosing (tests
// splitting small images): single rows.
std::size_t haloBandRows(Rows rows, int radius) {
  return rows.minRows > 1 ? std::size_t(8 * (2 * radius + 1)) : 1;
}

// The output image: `out` resized, its storage kept when it already has the size (every
// pixel is written by the passes).
void prepareOutput(const ImageRgba8& image, ImageRgba8& out) {
  if (out.width == image.width && out.height == image.height && out.pixels.size() == image.pixels.size()) return;
  out = ImageRgba8(image.width, image.height);
}

// A call with a thread count: a pool for this call alone (see minRowsPerThread).
template <class Run>
ImageRgba8 withThreads(const ImageRgba8& image, unsigned threads, Run&& run) {
  ImageRgba8 out;
  const std::size_t minRows = minRowsPerThread(threads, image.width);
  withTemporaryPool(threads, std::size_t(std::max(image.height, 0)) / minRows,
                    [&](ThreadPool* pool) { run(out, Rows{pool, minRows}); });
  return out;
}

}  // namespace

// =====================================================================================
// Direct maths
// =====================================================================================
//
// The float loops below are compiled twice where the compiler can (GCC and clang on
// x86-64): once for any x86-64, where std::fma is a call into libm, and once for CPUs
// with FMA instructions, chosen once at load time. Both round each fma exactly once
// (IEEE 754), so both give the same bytes; the FMA build is ~4-5x faster (measured on
// the 2-core machine, gaussian r2 at 1920x1080: 950 -> 200 ms on one thread).
// (target_clones needs the compiler's attribute and the C library's ifunc: glibc.)
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define SATDOF_FMA_CLONES __attribute__((target_clones("fma", "default")))
#endif
#endif
#ifndef SATDOF_FMA_CLONES
#define SATDOF_FMA_CLONES
#endif

namespace {

// Output rows [y0, y1) of the direct convolution.
SATDOF_FMA_CLONES void directRows(const ImageRgba8& image, const Filter& filter, Border border,
                                  ImageRgba8& out, int y0, int y1) {
  const int r = filter.radius, n = filter.size();
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < image.width; ++x) {
      float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int i = 0; i < n; ++i) {
        const int sy = sourceIndex(y - r + i, image.height, border);
        if (sy < 0) continue;  // a ghost row adds fma(w, 0, acc) == acc
        for (int j = 0; j < n; ++j) {
          const int sx = sourceIndex(x - r + j, image.width, border);
          if (sx < 0) continue;
          const float w = filter.weights[std::size_t(i) * n + j];
          const std::uint8_t* px = image.at(sx, sy);
          for (int c = 0; c < 4; ++c) acc[c] = std::fma(w, float(px[c]), acc[c]);
        }
      }
      std::uint8_t* dst = out.at(x, y);
      for (int c = 0; c < 4; ++c) dst[c] = roundToByte(acc[c]);
    }
  }
}

}  // namespace

namespace {

void convolve2D(const ImageRgba8& image, const Filter& filter, Border border, ImageRgba8& out, Rows rows) {
  requireValid(filter);
  prepareOutput(image, out);
  forRowBands(rows, image.height, [&](int y0, int y1) { directRows(image, filter, border, out, y0, y1); });
}

}  // namespace

ImageRgba8 convolve2D(const ImageRgba8& image, const Filter& filter, Border border,
                      unsigned threads) {
  return withThreads(image, threads, [&](ImageRgba8& out, Rows rows) { convolve2D(image, filter, border, out, rows); });
}

// =====================================================================================
// Separable maths
// =====================================================================================

namespace {

// Horizontal pass, row sy, columns [x0, x1): tmp[x - x0] = sum over j of rowWeights[j] *
// N(x - r + j, sy), four floats a pixel.
SATDOF_FMA_CLONES void separableRow(const ImageRgba8& image, const Filter& filter, Border border, int sy,
                                    int x0, int x1, float* tmp) {
  const int r = filter.radius, n = filter.size(), w = image.width;
  for (int x = x0; x < x1; ++x) {
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < n; ++j) {
      const int sx = sourceIndex(x - r + j, w, border);
      if (sx < 0) continue;
      const std::uint8_t* px = image.at(sx, sy);
      for (int c = 0; c < 4; ++c) acc[c] = std::fma(filter.rowWeights[j], float(px[c]), acc[c]);
    }
    std::copy(acc, acc + 4, &tmp[std::size_t(x - x0) * 4]);
  }
}

// Vertical pass, output row y, columns [x0, x1): window[i] is the horizontal row of tap i
// (from column x0), or nullptr for a ghost row (zero border): it adds nothing.
SATDOF_FMA_CLONES void separableColumns(const float* const* window, const Filter& filter, ImageRgba8& out, int y,
                                        int x0, int x1) {
  const int n = filter.size();
  for (int x = x0; x < x1; ++x) {
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < n; ++i) {
      if (!window[i]) continue;
      const float* t = &window[i][std::size_t(x - x0) * 4];
      for (int c = 0; c < 4; ++c) acc[c] = std::fma(filter.colWeights[i], t[c], acc[c]);
    }
    std::uint8_t* dst = out.at(x, y);
    for (int c = 0; c < 4; ++c) dst[c] = roundToByte(acc[c]);
  }
}

void convolveSeparable(const ImageRgba8& image, const Filter& filter, Border border, ImageRgba8& out,
                       Rows rows) {
  requireValid(filter);
  if (!filter.separable)
    throw std::invalid_argument("filter '" + filter.name + "' is not separable");
  const int h = image.height, r = filter.radius, n = filter.size();
  prepareOutput(image, out);
  // Each tile keeps the horizontal rows of its columns for the last n source rows in a
  // ring (slot = row mod n, as the box sum's row sums): an output row's n taps never
  // share a slot, every horizontal row is computed once per tile, and the intermediate
  // (n x tile width x 16 bytes) stays in the cache instead of an image-sized float
  // intermediate (at 4K 132 MB a call: page faults, and 32 bytes a pixel of traffic).
  // A tile recomputes the r rows on each side of it that its neighbours compute too:
  // the same floats, so the same bytes; tiles of at least 8n rows keep that within 1/8
  // of the horizontal pass. A ghost row (zero border) is skipped, a clamped one is the
  // edge row's slot (clamping commutes with the horizontal pass).
  forTiles(rows, h, image.width, haloBandRows(rows, r), [&](int y0, int y1, int x0, int x1) {
    const std::size_t rowFloats = std::size_t(x1 - x0) * 4;
    const auto ring = uninitialised<float>(std::size_t(n) * rowFloats);  // written before read
    auto slot = [&](int sy) { return ring.get() + std::size_t(sy % n) * rowFloats; };
    int next = std::max(0, y0 - r);  // the next source row to filter horizontally
    const float* window[2 * kMaxFilterRadius + 1];
    for (int y = y0; y < y1; ++y) {
      for (; next <= std::min(h - 1, y + r); ++next) separableRow(image, filter, border, next, x0, x1, slot(next));
      for (int i = 0; i < n; ++i) {
        const int sy = sourceIndex(y - r + i, h, border);
        window[i] = sy < 0 ? nullptr : slot(sy);
      }
      separableColumns(window, filter, out, y, x0, x1);
    }
  });
}

}  // namespace

ImageRgba8 convolveSeparable(const ImageRgba8& image, const Filter& filter, Border border,
                             unsigned threads) {
  return withThreads(image, threads,
                     [&](ImageRgba8& out, Rows rows) { convolveSeparable(image, filter, border, out, rows); });
}

// =====================================================================================
// BoxSum maths
// =====================================================================================

namespace {

void boxFilterExact(const ImageRgba8& image, int radius, Border border, ImageRgba8& out, Rows rows) {
  if (!(radius >= kMinFilterRadius && radius <= kMaxFilterRadius))
    throw std::invalid_argument("box radius " + std::to_string(radius) + " is outside " +
                                std::to_string(kMinFilterRadius) + ".." +
                                std::to_string(kMaxFilterRadius));
  const int r = radius, n = 2 * radius + 1;
  const int w = image.width, h = image.height;
  const std::uint32_t area = std::uint32_t(n) * std::uint32_t(n);
  prepareOutput(image, out);
  // Integer sums are exact, so the window sum may be taken as rows of row sums. Each tile
  // keeps the row sums of its columns for the last n source rows in a ring (slot = row
  // mod n): the n consecutive rows an output row reads never share a slot, and a tile's
  // working set stays in cache instead of a w*h*4-word table (measured: that table's
  // page faults and traffic held two threads to 1.1x at 3840x2160). A tile recomputes
  // the r rows on each side of it that its neighbours also sum: the same integers, so
  // the same bytes; tiles of at least 8n rows (haloBandRows) keep that within 1/8.
  forTiles(rows, h, w, haloBandRows(rows, r), [&](int y0, int y1, int x0, int x1) {
    const std::size_t rowValues = std::size_t(x1 - x0) * 4;
    std::vector<std::uint32_t> ring(std::size_t(n) * rowValues);
    auto slot = [&](int sy) { return &ring[std::size_t(sy % n) * rowValues]; };
    int next = std::max(0, y0 - r);  // the next source row to sum
    for (int y = y0; y < y1; ++y) {
      for (; next <= std::min(h - 1, y + r); ++next) {
        std::uint32_t* dst = slot(next);
        for (int x = x0; x < x1; ++x) {
          std::uint32_t sum[4] = {0, 0, 0, 0};
          for (int j = 0; j < n; ++j) {
            const int sx = sourceIndex(x - r + j, w, border);
            if (sx < 0) continue;
            for (int c = 0; c < 4; ++c) sum[c] += image.at(sx, next)[c];
          }
          std::copy(sum, sum + 4, dst + std::size_t(x - x0) * 4);
        }
      }
      const std::uint32_t* window[2 * kMaxFilterRadius + 1];  // row sums per tap, or ghost
      for (int i = 0; i < n; ++i) {
        const int sy = sourceIndex(y - r + i, h, border);
        window[i] = sy < 0 ? nullptr : slot(sy);
      }
      for (int x = x0; x < x1; ++x) {
        std::uint32_t sum[4] = {0, 0, 0, 0};
        for (int i = 0; i < n; ++i) {
          if (!window[i]) continue;
          const std::uint32_t* rowSums = window[i] + std::size_t(x - x0) * 4;
          for (int c = 0; c < 4; ++c) sum[c] += rowSums[c];
        }
        for (int c = 0; c < 4; ++c) out.at(x, y)[c] = std::uint8_t((2 * sum[c] + area) / (2 * area));
      }
    }
  });
}

}  // namespace

ImageRgba8 boxFilterExact(const ImageRgba8& image, int radius, Border border, unsigned threads) {
  return withThreads(image, threads,
                     [&](ImageRgba8& out, Rows rows) { boxFilterExact(image, radius, border, out, rows); });
}

// =====================================================================================
// dispatch
// =====================================================================================

namespace {

void convolve(const ImageRgba8& image, const Filter& filter, Border border, ConvMath math, ImageRgba8& out,
              Rows rows) {
  switch (math) {
    case ConvMath::Direct: return convolve2D(image, filter, border, out, rows);
    case ConvMath::Separable: return convolveSeparable(image, filter, border, out, rows);
    case ConvMath::BoxSum:
      requireValid(filter);
      if (filter.kind != FilterKind::Box)
        throw std::invalid_argument("box-sum maths needs a box filter, got '" + filter.name + "'");
      return boxFilterExact(image, filter.radius, border, out, rows);
  }
  throw std::invalid_argument("unknown convolution maths");
}

}  // namespace

ImageRgba8 convolve(const ImageRgba8& image, const Filter& filter, Border border, ConvMath math,
                    unsigned threads) {
  return withThreads(image, threads,
                     [&](ImageRgba8& out, Rows rows) { convolve(image, filter, border, math, out, rows); });
}

void convolve(const ImageRgba8& image, const Filter& filter, Border border, ConvMath math, ImageRgba8& out,
              ThreadPool& pool) {
  // A pool's task costs a step of a counter, not a thread's start or wake-up: bands of a
  // few thousand pixels (at least 2 rows: Rows::minRows > 1 marks the automatic choice),
  // so that a job is many tasks a thread (kChunksPerThread) and ends evenly.
  constexpr std::size_t kMinPixelsPerTask = 4096;
  const std::size_t minRows = std::max<std::size_t>(2, kMinPixelsPerTask / std::size_t(std::max(image.width, 1)));
  convolve(image, filter, border, math, out, Rows{&pool, minRows});
}

}  // namespace satdof::reference

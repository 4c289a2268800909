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
// band worth a task.
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

// The intermediate holds rows [first, ...) of tmp: row y at tmp + (y - first) * w * 4.

// Horizontal pass, rows [y0, y1): tmp(x, y) = sum over j of rowWeights[j] * N(x - r + j, y).
SATDOF_FMA_CLONES void separableRows(const ImageRgba8& image, const Filter& filter,
                                     Border border, float* tmp, int first, int y0, int y1) {
  const int r = filter.radius, n = filter.size(), w = image.width;
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < w; ++x) {
      float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int j = 0; j < n; ++j) {
        const int sx = sourceIndex(x - r + j, w, border);
        if (sx < 0) continue;
        const std::uint8_t* px = image.at(sx, y);
        for (int c = 0; c < 4; ++c) acc[c] = std::fma(filter.rowWeights[j], float(px[c]), acc[c]);
      }
      std::copy(acc, acc + 4, &tmp[(std::size_t(y - first) * w + x) * 4]);
    }
  }
}

// Vertical pass over the intermediate, output rows [y0, y1): a ghost row of tmp is 0
// (zero border) or the clamped row (clamping commutes with the horizontal pass).
SATDOF_FMA_CLONES void separableColumns(const float* tmp, int first, const Filter& filter,
                                        Border border, ImageRgba8& out, int y0, int y1) {
  const int r = filter.radius, n = filter.size(), w = out.width, h = out.height;
  for (int y = y0; y < y1; ++y) {
    for (int x = 0; x < w; ++x) {
      float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int i = 0; i < n; ++i) {
        const int sy = sourceIndex(y - r + i, h, border);
        if (sy < 0) continue;
        const float* t = &tmp[(std::size_t(sy - first) * w + x) * 4];
        for (int c = 0; c < 4; ++c) acc[c] = std::fma(filter.colWeights[i], t[c], acc[c]);
      }
      std::uint8_t* dst = out.at(x, y);
      for (int c = 0; c < 4; ++c) dst[c] = roundToByte(acc[c]);
    }
  }
}

}  // namespace

namespace {

void convolveSeparable(const ImageRgba8& image, const Filter& filter, Border border, ImageRgba8& out,
                       Rows rows) {
  requireValid(filter);
  if (!filter.separable)
    throw std::invalid_argument("filter '" + filter.name + "' is not separable");
  const int w = image.width, h = image.height, r = filter.radius;
  prepareOutput(image, out);
  // Each band runs both passes in slices of at most 8(2r+1) rows: the horizontal pass
  // over the rows a slice reads (its own and up to r on each side, which the slices
  // beside it compute too: the same floats) into an intermediate that stays in the
  // cache, then the vertical pass. No image-sized float intermediate (at 4K 132 MB a
  // call: page faults, and 32 bytes a pixel of traffic); the recomputed rows cost at
  // most 2r/8(2r+1) < 1/8 more horizontal work, and as much again for bands of the
  // pool's minimum, 4(2r+1) rows (unless the caller asked for single rows).
  const int slice = 8 * filter.size();
  const std::size_t minBand = rows.minRows > 1 ? std::size_t(4 * filter.size()) : 1;
  forRowBands(rows, h, [&](int y0, int y1) {
    const int most = std::min(y1 - y0, slice) + 2 * r;
    const auto tmp = uninitialised<float>(std::size_t(most) * w * 4);  // written before read
    for (int s0 = y0; s0 < y1; s0 += slice) {
      const int s1 = std::min(y1, s0 + slice);
      const int first = std::max(0, s0 - r), last = std::min(h, s1 + r);
      separableRows(image, filter, border, tmp.get(), first, first, last);
      separableColumns(tmp.get(), first, filter, border, out, s0, s1);
    }
  }, minBand);
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
  const std::size_t rowValues = std::size_t(w) * 4;
  const std::uint32_t area = std::uint32_t(n) * std::uint32_t(n);
  prepareOutput(image, out);
  // Integer sums are exact, so the window sum may be taken as rows of row sums. Each band
  // keeps the row sums of the last n source rows in a ring (slot = row mod n): the n
  // consecutive rows an output row reads never share a slot, and a band's working set
  // stays in cache instead of a w*h*4-word table (measured: that table's page faults and
  // traffic held two threads to 1.1x at 3840x2160). A band recomputes the r rows on
  // each side of it that its neighbours also sum: the same integers, so the same bytes.
  // Those 2r rows are why a band is at least 4n rows on a pool (at most +50 % row sums),
  // unless the caller asked for single rows (tests splitting small images).
  const std::size_t minBand = rows.minRows > 1 ? std::size_t(4 * n) : 1;
  forRowBands(rows, h, [&](int y0, int y1) {
    std::vector<std::uint32_t> ring(std::size_t(n) * rowValues);
    auto slot = [&](int sy) { return &ring[std::size_t(sy % n) * rowValues]; };
    int next = std::max(0, y0 - r);  // the next source row to sum
    for (int y = y0; y < y1; ++y) {
      for (; next <= std::min(h - 1, y + r); ++next) {
        std::uint32_t* dst = slot(next);
        for (int x = 0; x < w; ++x) {
          std::uint32_t sum[4] = {0, 0, 0, 0};
          for (int j = 0; j < n; ++j) {
            const int sx = sourceIndex(x - r + j, w, border);
            if (sx < 0) continue;
            for (int c = 0; c < 4; ++c) sum[c] += image.at(sx, next)[c];
          }
          std::copy(sum, sum + 4, dst + std::size_t(x) * 4);
        }
      }
      const std::uint32_t* window[2 * kMaxFilterRadius + 1];  // row sums per tap, or ghost
      for (int i = 0; i < n; ++i) {
        const int sy = sourceIndex(y - r + i, h, border);
        window[i] = sy < 0 ? nullptr : slot(sy);
      }
      for (int x = 0; x < w; ++x) {
        std::uint32_t sum[4] = {0, 0, 0, 0};
        for (int i = 0; i < n; ++i) {
          if (!window[i]) continue;
          const std::uint32_t* rowSums = window[i] + std::size_t(x) * 4;
          for (int c = 0; c < 4; ++c) sum[c] += rowSums[c];
        }
        for (int c = 0; c < 4; ++c) out.at(x, y)[c] = std::uint8_t((2 * sum[c] + area) / (2 * area));
      }
    }
  }, minBand);
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
  convolve(image, filter, border, math, out, Rows{&pool, minRowsPerThread(0, image.width)});
}

}  // namespace satdof::reference

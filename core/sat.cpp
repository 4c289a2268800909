// Reference summed-area table and box filter (see satdof/reference/sat.h).
#include "satdof/reference/sat.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "satdof/reference/parallel.h"

namespace satdof::reference {

// How the table is built on several threads with the exact bytes of one.
//
// All sums wrap modulo 2^32, so any order of additions gives the same bits; what matters
// is memory traffic. Each row keeps, per column, the column's running total down to that
// row (`col`, one row of words that stays in the core's cache), and the entry is the
// prefix of those totals along the row:
//     col(x) += I(x, y);   run += col(x);   S(x, y) = run
// so a row reads its image row and writes its table row, and never reads the table back.
// The image is cut into row bands (several per thread, for balance):
//   1. every band but the last sums its columns (one read of its rows, w*4 words out);
//   2. those totals, added down the bands column by column, are each band's starting
//      `col` (the column totals of everything above it): a few w*4-word passes;
//   3. each band runs the loop above from its starting `col`.
// So: the image read twice (4 + 4 bytes a pixel; the second read often from the last
// level cache), the table written once (16 bytes a pixel) with non-temporal stores
// where the processor has them, which skip the read-for-ownership an ordinary store
// makes of a line it does not hold (16 more bytes a pixel) and leave the cache to the
// image. A table the caller did not touch is first touched by the thread that writes
// it, band by band, so its page faults are taken on every core.

namespace {

// The padded length of a `col` row: rows of 16 words (64 bytes) never share a cache line.
std::size_t colStride(std::size_t rowValues) { return (rowValues + 15) / 16 * 16; }

#if defined(__SSE2__)
// Step 3 for rows [y0, y1), x86: four pixels a step, NonTemporal: 16-byte aligned table.
template <bool NonTemporal>
void scanBandSse2(const ImageRgba8& image, std::uint32_t* table, int y0, int y1, std::uint32_t* col) {
  const std::size_t w = std::size_t(image.width);
  const __m128i zero = _mm_setzero_si128();
  auto store = [](std::uint32_t* dst, __m128i v) {
    if constexpr (NonTemporal) _mm_stream_si128(reinterpret_cast<__m128i*>(dst), v);
    else _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), v);
  };
  // One pixel: its column total grows by it, the row's run by the column total.
  auto pixel = [&](__m128i px32, std::uint32_t* c, std::uint32_t* dst, __m128i& run) {
    const __m128i total = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c)), px32);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(c), total);
    run = _mm_add_epi32(run, total);
    store(dst, run);
  };
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* src = image.at(0, y);
    std::uint32_t* dst = table + std::size_t(y) * w * 4;
    __m128i run = zero;
    std::size_t x = 0;
    for (; x + 4 <= w; x += 4) {
      const __m128i px8 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + x * 4));
      const __m128i lo16 = _mm_unpacklo_epi8(px8, zero), hi16 = _mm_unpackhi_epi8(px8, zero);
      pixel(_mm_unpacklo_epi16(lo16, zero), col + x * 4, dst + x * 4, run);
      pixel(_mm_unpackhi_epi16(lo16, zero), col + x * 4 + 4, dst + x * 4 + 4, run);
      pixel(_mm_unpacklo_epi16(hi16, zero), col + x * 4 + 8, dst + x * 4 + 8, run);
      pixel(_mm_unpackhi_epi16(hi16, zero), col + x * 4 + 12, dst + x * 4 + 12, run);
    }
    for (; x < w; ++x) {
      std::uint32_t four;
      std::memcpy(&four, src + x * 4, 4);
      const __m128i px16 = _mm_unpacklo_epi8(_mm_cvtsi32_si128(int(four)), zero);
      pixel(_mm_unpacklo_epi16(px16, zero), col + x * 4, dst + x * 4, run);
    }
  }
  if constexpr (NonTemporal) _mm_sfence();  // the stores are visible before the job ends
}
#endif

// Step 3 for rows [y0, y1), starting from the column totals in `col` (updated in place).
void scanBand(const ImageRgba8& image, std::uint32_t* table, int y0, int y1, std::uint32_t* col) {
#if defined(__SSE2__)
  if (reinterpret_cast<std::uintptr_t>(table) % 16 == 0) return scanBandSse2<true>(image, table, y0, y1, col);
  return scanBandSse2<false>(image, table, y0, y1, col);
#else
  const std::size_t rowValues = std::size_t(image.width) * 4;
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* src = image.at(0, y);
    std::uint32_t* dst = table + std::size_t(y) * rowValues;
    std::uint32_t run[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < rowValues; ++i) {
      col[i] += src[i];  // wraps modulo 2^32, like the GPU
      run[i % 4] += col[i];
      dst[i] = run[i % 4];
    }
  }
#endif
}

// Step 1: the column totals of rows [y0, y1), per channel.
void columnSums(const ImageRgba8& image, int y0, int y1, std::uint32_t* out) {
  const std::size_t rowValues = std::size_t(image.width) * 4;
  std::fill(out, out + rowValues, 0u);
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* row = image.at(0, y);
    for (std::size_t i = 0; i < rowValues; ++i) out[i] += row[i];
  }
}

// Bands a thread, fewer than parallelFor's chunks: each band adds a row of w x 4 column
// totals to steps 1 and 2 (written, then added down the bands, column by column).
constexpr std::size_t kBandsPerThread = 4;

void buildSat(const ImageRgba8& image, std::uint32_t* table, ThreadPool* pool, std::size_t minRows) {
  if (image.width <= 0 || image.height <= 0) return;
  const std::size_t rows = std::size_t(image.height);
  const std::size_t rowValues = std::size_t(image.width) * 4, stride = colStride(rowValues);
  const std::size_t bands =
      pool && pool->size() > 1 ? std::max<std::size_t>(1, std::min(pool->size() * kBandsPerThread, rows / minRows)) : 1;
  // cols row k: band k's starting column totals, then its running ones. Only row 0 is
  // zeroed: step 1 writes the others whole (a zero-filled vector was a serial memset of
  // bands x w x 16 bytes on the caller's thread before any band started: 4 MB at 4K).
  const std::unique_ptr<std::uint32_t[]> cols(new std::uint32_t[bands * stride]);
  std::fill(cols.get(), cols.get() + rowValues, 0u);
  if (bands == 1) return scanBand(image, table, 0, image.height, cols.get());
  auto bandStart = [&](std::size_t k) { return int(rows * k / bands); };
  pool->run(bands - 1, [&](std::size_t k) {  // step 1: band k's totals into row k + 1
    columnSums(image, bandStart(k), bandStart(k + 1), &cols[(k + 1) * stride]);
  });
  parallelFor(  // step 2: down the bands, a slice of the columns per task
      *pool, rowValues,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t k = 2; k < bands; ++k)
          for (std::size_t i = b; i < e; ++i) cols[k * stride + i] += cols[(k - 1) * stride + i];
      },
      1024);
  pool->run(bands, [&](std::size_t k) {  // step 3
    scanBand(image, table, bandStart(k), bandStart(k + 1), &cols[k * stride]);
  });
}

}  // namespace

std::size_t minRowsPerThread(unsigned threads, int width) {
  constexpr std::size_t kMinPixelsPerThread = std::size_t(1) << 15;
  if (threads != 0) return 1;
  return std::max<std::size_t>(1, kMinPixelsPerThread / std::size_t(std::max(width, 1)));
}

Sat computeSat(const ImageRgba8& image, unsigned threads) {
  Sat sat;
  computeSat(image, sat, threads);
  return sat;
}

void computeSat(const ImageRgba8& image, Sat& sat, unsigned threads) {
  sat.width = image.width;
  sat.height = image.height;
  sat.values.resize(image.pixels.size());  // every value is overwritten below
  const std::size_t minRows = minRowsPerThread(threads, image.width);
  withTemporaryPool(threads, std::size_t(std::max(image.height, 0)) / minRows,
              [&](ThreadPool* pool) { buildSat(image, sat.values.data(), pool, minRows); });
}

void computeSat(const ImageRgba8& image, Sat& sat, ThreadPool& pool) {
  sat.width = image.width;
  sat.height = image.height;
  sat.values.resize(image.pixels.size());
  computeSat(image, sat.values.data(), pool);
}

void computeSat(const ImageRgba8& image, std::uint32_t* table, ThreadPool& pool) {
  buildSat(image, table, &pool, minRowsPerThread(0, image.width));
}

Box clipBox(Box b, int width, int height) {
  return {std::max(b.x0, 0), std::max(b.y0, 0), std::min(b.x1, width - 1),
          std::min(b.y1, height - 1)};
}

std::uint32_t boxSum(const Sat& s, Box b, int c) {
  return s.at(b.x1, b.y1, c) - s.at(b.x0 - 1, b.y1, c) - s.at(b.x1, b.y0 - 1, c) +
         s.at(b.x0 - 1, b.y0 - 1, c);
}

std::array<float, 4> boxMean(const Sat& sat, Box box) {
  const Box b = clipBox(box, sat.width, sat.height);
  std::array<float, 4> mean{0, 0, 0, 0};
  if (b.x1 < b.x0 || b.y1 < b.y0) return mean;
  const float area = float(b.x1 - b.x0 + 1) * float(b.y1 - b.y0 + 1);
  for (int c = 0; c < 4; ++c) mean[c] = float(boxSum(sat, b, c)) / area;
  return mean;
}

std::uint64_t boxSumBruteForce(const ImageRgba8& image, Box box, int c) {
  const Box b = clipBox(box, image.width, image.height);
  std::uint64_t sum = 0;
  for (int y = b.y0; y <= b.y1; ++y)
    for (int x = b.x0; x <= b.x1; ++x) sum += image.at(x, y)[c];
  return sum;
}

}  // namespace satdof::reference

// Reference summed-area table and box filter (see satdof/reference/sat.h).
#include "satdof/reference/sat.h"

#include <algorithm>

#include "satdof/reference/parallel.h"

namespace satdof::reference {

// How the table is built on several threads with the exact bytes of one.
//
// All sums wrap modulo 2^32, so any order of additions gives the same bits; what matters
// is memory traffic. The image is cut into row bands, one per thread:
//   1. every band but the last sums its columns (a read of its rows; w*4 words out),
//      in pieces small enough that every thread has one;
//   2. one thread adds each band's pieces, takes their prefix along x (the band's
//      contribution to every row below it) and adds those up into each band's carry
//      row: S of the row above the band (a few w*4-word passes per band);
//   3. each band runs the one-thread loop over its rows, starting from its carry row
//      instead of zeros.
// Step 3 reads the image once and writes the table once, like the one-thread loop, and
// step 1 only reads the image again; a "row prefixes, then a column pass" split would
// write the table and then read and rewrite it, twice the traffic of the memory-bound
// loop. With one band, steps 1 and 2 are skipped: one thread runs the original loop.

namespace {

// S for rows [y0, y1), given S of row y0 - 1 in `carry` (nullptr: zeros).
void satRows(const ImageRgba8& image, Sat& sat, int y0, int y1, const std::uint32_t* carry) {
  const std::size_t rowValues = std::size_t(image.width) * 4;
  for (int y = y0; y < y1; ++y) {
    std::uint32_t run[4] = {0, 0, 0, 0};  // running sum of this row, per channel
    std::uint32_t* dst = &sat.values[y * rowValues];
    const std::uint32_t* above = y > y0 ? dst - rowValues : carry;
    for (int x = 0; x < image.width; ++x) {
      const std::uint8_t* px = image.at(x, y);
      for (int c = 0; c < 4; ++c) {
        run[c] += px[c];  // wraps modulo 2^32, like the GPU
        dst[x * 4 + c] = run[c] + (above ? above[x * 4 + c] : 0u);
      }
    }
  }
}

// Step 1: the column sums of rows [y0, y1), per channel.
void columnSums(const ImageRgba8& image, int y0, int y1, std::uint32_t* out) {
  const std::size_t rowValues = std::size_t(image.width) * 4;
  std::fill(out, out + rowValues, 0u);
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* row = image.at(0, y);
    for (std::size_t i = 0; i < rowValues; ++i) out[i] += row[i];
  }
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
  if (image.width <= 0 || image.height <= 0) return;
  const std::size_t rows = std::size_t(image.height);
  const std::size_t rowValues = std::size_t(image.width) * 4;
  // The bands parallelFor will make: the same arithmetic, so band k is [b(k), b(k+1)).
  const std::size_t want = threads == 0 ? defaultThreadCount() : threads;
  const std::size_t bands =
      std::max<std::size_t>(1, std::min(want, rows / minRowsPerThread(threads, image.width)));
  if (bands == 1) {
    satRows(image, sat, 0, image.height, nullptr);
    return;
  }
  auto bandStart = [&](std::size_t k) { return int(rows * k / bands); };
  // Step 1 in (bands - 1) * split pieces, so that even with two bands (one to sum) every
  // thread has a piece; piece p is part p % split of band p / split.
  const std::size_t split = (want + bands - 2) / (bands - 1);
  auto pieceStart = [&](std::size_t p) {
    const int b0 = bandStart(p / split), b1 = bandStart(p / split + 1);
    return b0 + int(std::size_t(b1 - b0) * (p % split) / split);
  };
  std::vector<std::uint32_t> sums((bands - 1) * split * rowValues);
  parallelFor(
      (bands - 1) * split,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t p = b; p < e; ++p)
          columnSums(image, pieceStart(p), pieceStart(p + 1), &sums[p * rowValues]);
      },
      unsigned(want));
  // Step 2. carry[k]: S of the row above band k (band 0 has none and uses zeros).
  std::vector<std::uint32_t> carry(bands * rowValues), band(rowValues);
  for (std::size_t k = 1; k < bands; ++k) {
    std::copy_n(&sums[(k - 1) * split * rowValues], rowValues, band.begin());
    for (std::size_t s = 1; s < split; ++s)
      for (std::size_t i = 0; i < rowValues; ++i) band[i] += sums[((k - 1) * split + s) * rowValues + i];
    for (std::size_t i = 4; i < rowValues; ++i) band[i] += band[i - 4];  // prefix along x
    for (std::size_t i = 0; i < rowValues; ++i)
      carry[k * rowValues + i] = carry[(k - 1) * rowValues + i] + band[i];
  }
  parallelFor(
      bands,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k)
          satRows(image, sat, bandStart(k), bandStart(k + 1), k ? &carry[k * rowValues] : nullptr);
      },
      unsigned(bands));
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

// satdof/reference/sat.h — summed-area tables and box filters on the CPU.
//
// The SAT layout matches the GPU one (satdof/sat.h): four uint32 per pixel, row-major,
// S(x, y).c = sum of channel c over x' <= x, y' <= y, modulo 2^32. The other formats of
// satdof/sat_format.h (float32, float32-offset, uint21x3) come from computeSat(image,
// format) (sat_formats.cpp), which defines each format bit for bit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "satdof/reference/image.h"
#include "satdof/sat_format.h"

namespace satdof::reference {

class ThreadPool;  // satdof/reference/parallel.h

struct Sat {
  int width = 0;
  int height = 0;
  std::vector<std::uint32_t> values;  // width * height * 4 (bit patterns: floats for the
                                      // float formats); uint21x3: width * height * 2
                                      // packed words (satdof/reference/uint21x3.h)
  SatFormat format = SatFormat::Uint32;
  std::vector<std::uint32_t> trailer;  // the format's trailer words (float32-offset: m)

  // S(x, y) for channel c, with S = 0 left of column 0 and above row 0 (formats of four
  // words per entry; satValue() reads any format).
  std::uint32_t at(int x, int y, int c) const {
    if (x < 0 || y < 0) return 0;
    return values[(std::size_t(y) * width + x) * 4 + c];
  }
};

// The table of `image`, built on `threads` threads (0: as many as the hardware has and
// the image has work for). The bytes never depend on the thread count.
Sat computeSat(const ImageRgba8& image, unsigned threads = 0);

// The same into `sat`, reusing its storage when it already has the image's size: for a
// caller that builds a table per frame (a new std::vector is zero-filled by one thread,
// page faults and all: at 3840x2160 more than the table's build on every core).
void computeSat(const ImageRgba8& image, Sat& sat, unsigned threads = 0);

// The same on a caller's pool (no threads started; see satdof/reference/parallel.h).
void computeSat(const ImageRgba8& image, Sat& sat, ThreadPool& pool);

// The uint32 table's width * height * 4 words into `table`, which need not be
// initialised: memory the caller never touched is first touched by the thread that
// writes it (no serial page-fault storm). Any alignment; 16 bytes gets streaming stores.
void computeSat(const ImageRgba8& image, std::uint32_t* table, ThreadPool& pool);

// The threads parameter of the reference algorithms (computeSat, convolve, ...): an
// explicit count is honoured down to one row per thread (so tests can split even small
// images); 0 picks every hardware thread but gives each band at least ~32K pixels,
// because a band costs a wake-up (and, on a temporary pool, a thread start: tens of
// microseconds); the ThreadPool overloads use that floor too. Returns the smallest row
// band for parallelFor(rows, body, threads, minRows).
std::size_t minRowsPerThread(unsigned threads, int width);

// The table in any format, bit for bit what every backend must produce (sat_formats.cpp):
//   uint32          computeSat(image)
//   float32         entry = the exact integer sum, rounded once to the nearest float
//   float32-offset  m_c = round(mean of channel c) (integer, halves up); entry = the exact
//                   sum of (pixel - m_c), rounded once; trailer = m_c as 4 floats
//   uint21x3        computeSat(image)'s R, G, B packed by packUint21x3 (two words)
Sat computeSat(const ImageRgba8& image, SatFormat format);

// The float nearest to v, ties to even (IEEE round-to-nearest), by integer arithmetic
// alone: every float format's entry is this of its exact integer sum. A static_cast would
// round in the thread's current rounding mode (MXCSR on x86-64), which any library in the
// process may leave changed; the GPUs round to nearest whatever the host's state (CUDA's
// __ll2float_rn, sat_entry_bits.glsl's floatBits), so the reference may not depend on it.
float nearestFloat(std::int64_t v);

// The per-channel offsets m_c of float32-offset: (sum_c + n/2) / n in integers.
std::array<std::uint32_t, 4> satOffsets(const ImageRgba8& image);

// The table as the bytes a GPU backend writes (entries, then the trailer):
// satTableBytes(sat.format, width, height) bytes.
std::vector<std::uint8_t> satTableBytesOf(const Sat& sat);

// Entry (x, y) of channel c as the value the format stands for (0 outside the image;
// uint21x3: the channel's field, i.e. the sum modulo 2^21 or 2^22, and 0 for alpha).
double satValue(const Sat& sat, int x, int y, int c);

// A rectangle of pixels, inclusive on both ends.
struct Box {
  int x0, y0, x1, y1;
};

// Clips `box` to the image; an empty result has x1 < x0 or y1 < y0.
Box clipBox(Box box, int width, int height);

// Sum of channel c over a box already inside the image: four reads, wrapping arithmetic
// (exact whenever the true sum is below 2^32, even when the running totals overflowed).
std::uint32_t boxSum(const Sat& sat, Box box, int c);

// Mean of each channel over `box` clipped to the image (divided by the clipped area).
// uint32 tables only; formatBoxMean() reads any format.
std::array<float, 4> boxMean(const Sat& sat, Box box);

// The box mean as the format's shader computes it (sat_<format>.glsl): four reads, the
// four-term difference in the format's arithmetic (wrapping uint32, or float), the offset
// added back for float32-offset.
std::array<float, 4> formatBoxMean(const Sat& sat, Box box);

// The same box sum by brute force over the image (for tests).
std::uint64_t boxSumBruteForce(const ImageRgba8& image, Box box, int c);

}  // namespace satdof::reference

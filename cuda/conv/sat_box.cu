// conv/sat_box.cu — a box filter of any radius from integer prefix sums, in one kernel:
// four prefix reads per pixel, whatever the radius.
//
// The window sum is the summed-area identity S(x+r, y+r) - S(x-r-1, y+r) - S(x+r, y-r-1)
// + S(x-r-1, y-r-1), taken one direction at a time, so the table never exists whole (a
// global SAT moves >= 40 bytes per pixel; this kernel stays near the 8-byte floor):
//   row prefixes   P(x) along each input row: a serial scan in each lane, then a warp
//                  scan of the lane totals;
//   row windows    h(x) = P(x + r) - P(x - r - 1): two prefix reads per pixel;
//   column window  v(y) = v(y - 1) + h(y + r) - h(y - r - 1): the difference of two
//                  column prefixes, kept as a running sum: two reads per pixel;
//   mean           out = (2 * sum + n^2) / (2 n^2) per channel (ConvMath::BoxSum).
// A block of 128 threads owns a strip 128 columns wide and kSatChunkRows rows tall and
// walks down it, kSatStepRows input rows per step: each warp turns a quarter of the
// step's rows into h rows in a shared-memory ring, then each thread advances the running
// sums of its column and stores its pixels. Cost per output pixel: the row pass covers
// 128 + 2r columns and a chunk also reads the 2r rows around it, so the build takes
// (1 + 2r/128)(1 + 2r/kSatChunkRows) row-pass steps, at most 1.52 (r = 15), whatever
// the image size; the box pass is O(1) (two ring reads, a few adds and shifts,
// four multiply-highs). DRAM traffic stays near 8 bytes per pixel; the re-read halo
// columns and rows come from L2.
//
// Integer widths (all exact; unsigned arithmetic wraps, and a difference is exact when
// the true result fits):
//   * two channels share a 32-bit word as 16-bit fields: a row prefix over <= 160
//     columns is at most 160 * 255 < 2^16, so fields never carry into each other, and
//     neither does h, a difference of two such prefixes;
//   * a column window reaches 255 n^2 (up to 245055, over 2^16), so a running sum is
//     kept as the packed word (fields mixed by carries, still exact mod 2^32) plus its
//     high field alone; the low field is their difference.
// Zero border: ghost pixels load as 0 and the divisor is still n^2. Clamp border: rows
// and columns are clamped when loaded, so edge pixels count as often as the window
// covers them, exactly as the reference.
#include "conv/conv_device.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kLanes = 32;
constexpr int kStripWidth = kSatStripWidth;     // output columns per block
constexpr int kThreads = kStripWidth;           // one column each in the column pass
constexpr int kWarps = kThreads / kLanes;       // 4
constexpr int kLaneWords = conv_tiles::kSatLaneWords;  // consecutive input words per lane
constexpr int kSpan = conv_tiles::kSatSpan;            // 160 input columns per row pass
constexpr int kChunkRows = kSatChunkRows;       // output rows per block
constexpr int kStepRows = kSatStepRows;         // input rows per step
constexpr int kRowsPerWarp = kStepRows / kWarps;
static_assert(kStripWidth + 2 * kMaxFilterRadius <= kSpan, "a row pass covers the halo");
static_assert(kRowsPerWarp * kWarps == kStepRows, "whole rows per warp");
static_assert(kSpan == kLanes * kLaneWords, "the span is the warp's words");

template <int R>
struct Shape {
  static constexpr int kN = 2 * R + 1;
  // h rows kept in shared memory: the step's rows and the n before them, which the
  // column pass subtracts as they leave the window; whole steps, so that a step's rows
  // never wrap around the ring. 48 KiB at r >= 8.
  static constexpr int kRing = conv_tiles::satRingRows(R);
  // (2 * sum + n^2) / (2 n^2) == (sum + kHalf) / n^2 for integer sums, and that quotient
  // is a multiply-high: with M = ceil(2^32 / n^2) the error of x * M / 2^32 is below
  // x / 2^32 < 1 / n^2 for x < 256 n^2, so the floor is exact (checked for every sum and
  // radius). The running sums start at kHalf, so no add is needed per pixel.
  static constexpr unsigned kHalf = conv_tiles::satHalf(R);
  static constexpr unsigned kMagic = conv_tiles::satMagic(R);
};

// =====================================================================================
// loading rows under the border rule
// =====================================================================================

// The image columns a lane loads for every row: word i is span position 5 lane + i,
// i.e. column x0 - R + 5 lane + i. Positions past the region (128 + 2R) and, under the
// zero border, columns outside the image read as 0. When the whole span lies inside the
// image (`inside`), the words are simply consecutive from column x[0].
struct LaneColumns {
  int x[kLaneWords];
  unsigned live;  // bit i: word i is loaded
  bool inside;
};

template <int R>
__device__ __forceinline__ LaneColumns laneColumns(const ImageIo& io, int x0, int lane) {
  LaneColumns c{};
  c.inside = x0 - R >= 0 && x0 - R + kSpan <= io.width;
#pragma unroll
  for (int i = 0; i < kLaneWords; ++i) {
    const int pos = kLaneWords * lane + i;
    int x = conv_tiles::satSpanColumn(x0, R, pos);
    bool live = conv_tiles::satSpanLoads(pos, R);
    if (io.border == Border::Clamp) {
      x = conv_tiles::clampToEdge(x, io.width);
    } else {
      live = live && conv_tiles::insideAxis(x, io.width);
    }
    c.x[i] = live ? x : 0;
    c.live |= unsigned(live) << i;
  }
  return c;
}

struct RowWords {
  unsigned w[kLaneWords];
};

// Rows past the image are clamped (clamp border) or ghost rows of zeros (zero border);
// any row index is therefore safe to fetch.
__device__ __forceinline__ RowWords fetchRow(const ImageIo& io, const LaneColumns& c, int y) {
  bool ghost = false;
  if (io.border == Border::Clamp) {
    y = conv_tiles::clampToEdge(y, io.height);
  } else {
    ghost = !conv_tiles::insideAxis(y, io.height);
  }
  const unsigned* row = reinterpret_cast<const unsigned*>(inRow(io, ghost ? 0 : y));
  RowWords r;
  if (c.inside && !ghost) {
#pragma unroll
    for (int i = 0; i < kLaneWords; ++i) r.w[i] = __ldg(row + c.x[0] + i);
  } else {
#pragma unroll
    for (int i = 0; i < kLaneWords; ++i)
      r.w[i] = !ghost && (c.live >> i & 1u) ? __ldg(row + c.x[i]) : 0u;
  }
  return r;
}

// =====================================================================================
// row pass: one input row into h for the strip's 128 columns (one warp)
// =====================================================================================
// Lane l holds span positions 5l .. 5l + 4. Their prefix sums, two 16-bit channel
// fields per word (a: channels 0 and 1, b: 2 and 3), come from a serial scan in the
// lane and a warp scan of the lane totals. h(c) = P(c + 2R) - P(c - 1) for c = 5l + k:
// P(c - 1) is the lane's own (or its exclusive prefix), P(c + 2R) sits k + 2R positions
// further, in lane l + (k + 2R) / 5, word (k + 2R) % 5, the same for every lane.

template <int R>
__device__ __forceinline__ void rowPass(const RowWords& words, int lane, uint2* h) {
  unsigned a[kLaneWords], b[kLaneWords];
#pragma unroll
  for (int k = 0; k < kLaneWords; ++k) {
    a[k] = __byte_perm(words.w[k], 0u, 0x4140);  // channel 0 | channel 1 << 16
    b[k] = __byte_perm(words.w[k], 0u, 0x4342);  // channel 2 | channel 3 << 16
    if (k > 0) a[k] += a[k - 1], b[k] += b[k - 1];
  }
  unsigned sa = a[kLaneWords - 1], sb = b[kLaneWords - 1];
#pragma unroll
  for (int d = 1; d < kLanes; d *= 2) {
    const unsigned ta = __shfl_up_sync(kFullMask, sa, d);
    const unsigned tb = __shfl_up_sync(kFullMask, sb, d);
    if (lane >= d) sa += ta, sb += tb;
  }
  const unsigned ea = sa - a[kLaneWords - 1], eb = sb - b[kLaneWords - 1];  // P(5l - 1)
#pragma unroll
  for (int k = 0; k < kLaneWords; ++k) a[k] += ea, b[k] += eb;
#pragma unroll
  for (int k = 0; k < kLaneWords; ++k) {
    // P(c + 2R), the right corner, k + 2R positions from the lane's first: a
    // compile-time constant once unrolled.
    const int far = conv_tiles::satRightCorner(k, R);
    unsigned pa = a[far % kLaneWords], pb = b[far % kLaneWords];
    if (far >= kLaneWords) {
      pa = __shfl_down_sync(kFullMask, pa, far / kLaneWords);
      pb = __shfl_down_sync(kFullMask, pb, far / kLaneWords);
    }
    // P(c - 1), the left corner (satLeftCorner): the lane's word k - 1, or for k = 0 the
    // lane's exclusive prefix (0 in lane 0: nothing before the span).
    const unsigned na = k == 0 ? ea : a[k == 0 ? 0 : k - 1];
    const unsigned nb = k == 0 ? eb : b[k == 0 ? 0 : k - 1];
    const int c = kLaneWords * lane + k;
    if (c < kStripWidth) h[c] = make_uint2(pa - na, pb - nb);
  }
}

// =====================================================================================
// column pass: one step of kStepRows input rows for one thread's column
// =====================================================================================
// Input row t0 + k completes the window of output row y0 - 2R + t0 + k, which `dst`
// points at. `packed` is the window sum of a packed word (mod 2^32), `high` that of its
// high field alone. kChecks: the step holds rows before the first full window or past
// the chunk, or the column is past the image.

template <int R, bool kChecks>
__device__ __forceinline__ void columnStep(const ImageIo& io, const uint2 (*ring)[kStripWidth],
                                           int t0, int inRows, int slotIn, int slotOut,
                                           char* dst, bool xInside, unsigned (&packed)[2],
                                           unsigned (&high)[2]) {
  using S = Shape<R>;
  // This step's rows with an output: from input row 2R (satOutputRow: the chunk's first
  // output row) to the last input row.
  static_assert(conv_tiles::satOutputRow(0, R, 2 * R) == 0);
  const int kFirst = 2 * R - t0, kEnd = inRows - t0;
#pragma unroll
  for (int k = 0; k < kStepRows; ++k) {
    const int si = slotIn + k;  // a step never wraps
    const int so = slotOut + k < S::kRing ? slotOut + k : slotOut + k - S::kRing;
    const uint2 i2 = ring[si][threadIdx.x];
    uint2 o2 = make_uint2(0u, 0u);
    // The row leaving the window, the top corners (none before the chunk's first row).
    if (!kChecks || conv_tiles::satLeavingRow(t0 + k, R) >= 0) o2 = ring[so][threadIdx.x];
    const unsigned in[2] = {i2.x, i2.y}, out[2] = {o2.x, o2.y};
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      packed[p] += in[p] - out[p];
      high[p] += (in[p] >> 16) - (out[p] >> 16);
    }
    if (!kChecks || (k >= kFirst && k < kEnd && xInside)) {
      unsigned q[4];
#pragma unroll
      for (int p = 0; p < 2; ++p) {
        q[2 * p] = __umulhi(packed[p] - (high[p] << 16), S::kMagic);  // the low field
        q[2 * p + 1] = __umulhi(high[p], S::kMagic);
      }
      *reinterpret_cast<unsigned*>(dst) = (q[3] << 8 | q[2]) << 16 | (q[1] << 8 | q[0]);
    }
    dst += io.outPitch;
  }
}

// =====================================================================================
// the kernel
// =====================================================================================

template <int R>
__global__ void __launch_bounds__(kThreads, kSatMinBlocks) satBoxKernel(ImageIo io) {
  using S = Shape<R>;
  constexpr int kN = S::kN;
  constexpr int kRing = S::kRing;
  __shared__ uint2 ring[kRing][kStripWidth];  // h of input row t in slot t % kRing

  const int lane = threadIdx.x % kLanes;
  const int warp = threadIdx.x / kLanes;
  const int x0 = blockIdx.x * kStripWidth;
  const int y0 = blockIdx.y * kChunkRows;
  const int yEnd = min(y0 + kChunkRows, io.height);
  const int inRows = yEnd - y0 + 2 * R;  // input row t is image row y0 - R + t
  const LaneColumns cols = laneColumns<R>(io, x0, lane);

  // Row pass: warp w takes the step's rows w, w + 4, w + 8, w + 12. Every step row is
  // computed, also past the last input row (it reads clamped or ghost rows and lands in
  // a ring slot nobody reads). Rows are fetched a step early: their loads are in flight
  // during the column pass in between.
  RowWords ahead[kRowsPerWarp];
#pragma unroll
  for (int j = 0; j < kRowsPerWarp; ++j)
    ahead[j] = fetchRow(io, cols, conv_tiles::satInputRow(y0, R, warp + kWarps * j));

  // Column pass: both running sums start at kHalf (see Shape).
  const int x = x0 + threadIdx.x;
  const bool xInside = x < io.width;
  unsigned packed[2], high[2];
#pragma unroll
  for (int p = 0; p < 2; ++p) packed[p] = S::kHalf << 16 | S::kHalf, high[p] = S::kHalf;
  int slotIn = 0;            // t0 % kRing
  int slotOut = kRing - kN;  // (t0 - n) mod kRing: the row leaving the window

  for (int t0 = 0; t0 < inRows; t0 += kStepRows) {
#pragma unroll
    for (int j = 0; j < kRowsPerWarp; ++j)
      rowPass<R>(ahead[j], lane, ring[slotIn + warp + kWarps * j]);
#pragma unroll
    for (int j = 0; j < kRowsPerWarp; ++j)
      ahead[j] = fetchRow(io, cols, conv_tiles::satInputRow(y0, R, t0 + kStepRows + warp + kWarps * j));
    __syncthreads();

    char* dst = reinterpret_cast<char*>(io.out) +
                std::ptrdiff_t(conv_tiles::satOutputRow(y0, R, t0)) * std::ptrdiff_t(io.outPitch) +
                std::ptrdiff_t(x) * 4;
    if (t0 >= kN && t0 + kStepRows <= inRows && xInside)
      columnStep<R, false>(io, ring, t0, inRows, slotIn, slotOut, dst, xInside, packed, high);
    else
      columnStep<R, true>(io, ring, t0, inRows, slotIn, slotOut, dst, xInside, packed, high);
    __syncthreads();  // the next row pass rewrites ring slots
    slotIn = slotIn + kStepRows < kRing ? slotIn + kStepRows : 0;
    slotOut = slotOut + kStepRows < kRing ? slotOut + kStepRows : slotOut + kStepRows - kRing;
  }
}

}  // namespace

std::optional<std::string> satBoxSupports(const Filter& filter) {
  if (filter.kind != FilterKind::Box)
    return "box filters only (the mean of a window); '" + filter.name + "' is not a box";
  return std::nullopt;
}

cudaError_t satBoxLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                         cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, satBoxSupports, scratch, scratchBytes, 0));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const ImageIo io = makeImageIo(args);
  const dim3 grid(ceilDiv(args.width, kStripWidth), ceilDiv(args.height, kChunkRows));
  return withRadius(args.filter->radius, [&](auto radius) -> cudaError_t {
    constexpr int R = decltype(radius)::value;
    satBoxKernel<R><<<grid, kThreads, 0, stream>>>(io);
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  });
}

}  // namespace satdof::conv

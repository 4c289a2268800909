// conv/separable.cu — a rank-one filter as two 1D passes, horizontal then vertical,
// fused in one kernel through shared memory.
//
// A (2r+1)^2 filter that is an outer product col x row costs 2(2r+1) taps per pixel
// instead of (2r+1)^2: 4(2r+1) FMAs per pass and pixel over RGBA. Writing the float
// intermediate to global memory would move 40 bytes per pixel; keeping it on chip leaves
// the 8-byte floor (read RGBA8, write RGBA8) plus the halo re-reads, which come mostly
// from L2. What remains is arithmetic, so the kernel is built to spend its issue slots on
// FMAs, and to keep every warp busy:
//   * register blocking: every value converted from bytes or loaded from shared memory
//     feeds up to 16 accumulators held in registers (a sliding window);
//   * no block barrier: each warp works alone, down a strip 32 columns wide, and the
//     only synchronisation is __syncwarp(). (The same passes over 32x128 tiles, with
//     __syncthreads() between them, ran 20% slower at r = 7: at every barrier the
//     block's warps wait for its slowest.) A block holds up to 4 such warps, on adjacent
//     strips (kSeparableWarpsPerBlock).
//
// A warp owns the 32 columns x0 .. x0 + 31 of rows y0 .. y0 + segRows - 1, and walks down
// them in chunks of 16 rows. Its shared memory is a ring of intermediate rows (32 float4,
// 512 bytes each): kChunks chunks of 16 rows, enough for the 16 + 2r rows that 16 output
// rows need. Per chunk:
//   horizontal pass  lane l computes intermediate row 16c + l % 16, outputs 16 (l / 16)
//                    .. + 15: its 16 + 2r input pixels come straight from global memory as
//                    16-byte vectors (loaded while the warp ran the previous vertical
//                    pass), each is converted once and added to the outputs it touches;
//                    the 16 float4 go to the chunk's ring slot;
//   vertical pass    lane l owns column x0 + l and 16 output rows, and slides down their
//                    16 + 2r intermediate rows the same way: one 16-byte shared load per
//                    row for up to 16 FMA4s; then rounded and stored.
// The input rows just above a segment (2r, computed as whole chunks) run through the
// horizontal pass in two segments; segRows is the smallest that lets every warp be
// resident at once, 176 rows at 4K on 132 SMs, where that overhead is 9% at r = 7.
// Per output at r = 7: 120 FMAs, about 12 instructions of byte conversion, 11 of rounding
// and 3 shared-memory accesses of 16 bytes. Conversion and rounding use the quarter-rate
// conversion unit for part of their work (pixelToFloat4 here, roundChannel in
// conv_device.cuh).
//
// The maths is ConvMath::Separable: rowWeights j-ascending into a float, then colWeights
// i-ascending over those floats. A ghost row's intermediate is exactly +0 (zero border)
// or the clamped row's (clamp border), as in the reference; a ghost column is a zero
// pixel (fma(w, 0, acc) == acc) or the clamped column.
//
// Radius 1 and 2 take a streaming path (conv/strip_engine.cuh): each warp walks down a
// 128-column strip; per input row a lane takes its 4 pixels (copied asynchronously, 16
// bytes, into a shared-memory ring) and the r-pixel halo (through the caches, a row
// ahead), runs the row pass into 4 floats in registers and adds them to the 2r + 1
// output rows in progress. The intermediate never leaves registers; no block barrier.
#include <algorithm>

#include "conv/conv_device.cuh"
#include "detail/device_facts.h"
#include "conv/strip_engine.cuh"
#include "conv/variants.h"
#include "satdof/cuda_check.h"

namespace satdof::conv {
namespace {

constexpr int kLanes = 32;
constexpr int kStripW = conv_tiles::kSeparableStripWidth;  // output columns per warp: one per lane
constexpr int kChunk = kSeparableChunkRows;  // 16: rows per step, outputs per task
constexpr int kSegs = kStripW / kChunk;      // horizontal tasks per row (2)
static_assert(kSegs * kChunk == kStripW && kLanes == kSegs * kChunk,
              "a chunk's horizontal tasks are exactly the warp's lanes");
static_assert(kChunk % 8 == 0, "chunks start on a multiple of 8 rows (see swizzle)");

// A launch shape: up to kWarps independent warps per block (they share nothing but the
// SM), kMinBlocks blocks per SM for the register cap.
template <int Warps, int MinBlocks>
struct StripShape {
  static constexpr int kWarps = Warps;
  static constexpr int kMinBlocks = MinBlocks;
};

// Sizes for radius R.
//
// Ring layout and bank conflicts. A quarter warp (8 lanes) moving 16 bytes each is
// conflict-free when the 8 addresses fall in 8 distinct 16-byte bank groups, i.e. differ
// in bits 4..6. Rows are 512 bytes apart, so the same column of 8 rows would hit one
// group; so column c of intermediate row t is stored at 16-byte column c ^ (t & 7):
//   * horizontal pass, writing: 8 lanes write the same column of 8 consecutive rows;
//   * vertical pass, reading: 8 lanes read 8 consecutive columns of one row.
// Chunks start on multiples of 16 rows, so t & 7 is lane & 7 in the first and the row's
// offset & 7 (a constant) in the second.
template <int R>
struct StripLayout {
  static constexpr int kN = 2 * R + 1;
  static constexpr int kApron = conv_tiles::separableApron(R);  // halo columns loaded: whole vectors
  static constexpr int kSkip = conv_tiles::separableSkip(R);     // loaded words before a task's window
  static constexpr int kWindow = conv_tiles::separableWindow(R);  // pixels one horizontal task reads
  static constexpr int kWindowVecs = conv_tiles::separableWindowVecs(R);
  static constexpr int kChunks = conv_tiles::separableRingChunks(R);  // ring slots
  static constexpr int kRingRows = kChunks * kChunk;
  static constexpr std::size_t kRingBytes = std::size_t(kRingRows) * kStripW * sizeof(float4);
  static_assert(kChunk * (kSegs - 1) + 4 * kWindowVecs <= kStripW + 2 * kApron,
                "a task's vectors stay inside the strip and its apron");
};

// The 16-byte column where column c of intermediate row t is stored.
__device__ __forceinline__ int swizzle(int c, int t) { return c ^ (t & 7); }

// =====================================================================================
// exact conversions, cheaper for this kernel
// =====================================================================================
// Both use the quarter-rate conversion unit for part of the work, which runs beside the
// FMA pipes: here an issue slot is the scarce resource, not conversion throughput.

// Byte C of `word` as a float: I2F.U8 with a byte selector, one instruction (exact).
template <int C>
__device__ __forceinline__ float byteToFloatCvt(unsigned word) {
  float f;
  asm("{ .reg .b32 t; bfe.u32 t, %1, %2, 8; cvt.rn.f32.u32 %0, t; }"
      : "=f"(f)
      : "r"(word), "n"(8 * C));
  return f;
}

// Half the channels through the conversion unit, half through byteToFloat (two full-rate
// instructions each): 6 issue slots per pixel instead of 8, and the conversion unit,
// shared with roundChannel, stays far from saturation.
__device__ __forceinline__ float4 pixelToFloat4(unsigned word) {
  return make_float4(byteToFloatCvt<0>(word), byteToFloat(word, 1), byteToFloatCvt<2>(word),
                     byteToFloat(word, 3));
}

// =====================================================================================
// the horizontal task's input
// =====================================================================================

// Word x of an image row under the border rule (the row itself is real or clamped).
__device__ __forceinline__ unsigned borderWord(const ImageIo& io, const unsigned* row, int x) {
  if (io.border == Border::Clamp) return __ldg(row + conv_tiles::clampToEdge(x, io.width));
  return conv_tiles::insideAxis(x, io.width) ? __ldg(row + x) : 0u;
}

// Loads image row y's words xw .. xw + 4 kWindowVecs - 1 under the border rule. `fast`
// (warp-uniform): rows are 16-byte aligned and the strip's apron is inside the image, so
// each vector is one 16-byte load. Returns true for a ghost row (zero border, y outside
// the image): its words are not loaded, and its intermediate row is exactly +0. (Zeroing
// the loaded words instead would make the warp wait for the loads right here, and the
// prefetch would hide nothing.)
template <int R>
__device__ __forceinline__ bool fetchWindow(const ImageIo& io, bool fast, int xw, int y,
                                            uint4 (&vec)[StripLayout<R>::kWindowVecs]) {
  using L = StripLayout<R>;
  if (io.border == Border::Clamp) {
    y = conv_tiles::clampToEdge(y, io.height);
  } else if (!conv_tiles::insideAxis(y, io.height)) {
    return true;
  }
  const unsigned* src = reinterpret_cast<const unsigned*>(inRow(io, y));
  if (fast) {
#pragma unroll
    for (int p = 0; p < L::kWindowVecs; ++p)
      vec[p] = __ldg(reinterpret_cast<const uint4*>(src + xw) + p);
  } else {
#pragma unroll
    for (int p = 0; p < L::kWindowVecs; ++p) {
      const int x = xw + 4 * p;
      vec[p] = make_uint4(borderWord(io, src, x), borderWord(io, src, x + 1),
                          borderWord(io, src, x + 2), borderWord(io, src, x + 3));
    }
  }
  return false;
}

// =====================================================================================
// the two passes
// =====================================================================================

// Horizontal: the lane's kChunk outputs of one intermediate row from its window; output
// m gets window pixel q through tap j = q - m: pixels ascend, so taps ascend. Writes them
// to `row` (the row's ring slot), columns c0 .. c0 + kChunk - 1, swizzled by t & 7.
template <int R>
__device__ __forceinline__ void rowPass(const Taps1D<R>& taps,
                                        const uint4 (&vec)[StripLayout<R>::kWindowVecs],
                                        bool ghost, float4* row, int c0, int t) {
  using L = StripLayout<R>;
  if (ghost) {  // only lanes above or below the image, zero border
#pragma unroll
    for (int m = 0; m < kChunk; ++m) row[swizzle(c0 + m, t)] = make_float4(0.f, 0.f, 0.f, 0.f);
    return;
  }
  float4 acc[kChunk];
#pragma unroll
  for (int m = 0; m < kChunk; ++m) acc[m] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int p = 0; p < L::kWindowVecs; ++p) {
    const unsigned words[4] = {vec[p].x, vec[p].y, vec[p].z, vec[p].w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int q = 4 * p + e - L::kSkip;  // window pixel: image column x0 + c0 - R + q
      if (q < 0 || q >= L::kWindow) continue;
      const float4 v = pixelToFloat4(words[e]);
#pragma unroll
      for (int m = 0; m < kChunk; ++m) {
        const int j = q - m;
        if (j >= 0 && j < L::kN) fma4(taps.row[j], v, acc[m]);
      }
    }
  }
#pragma unroll
  for (int m = 0; m < kChunk; ++m) row[swizzle(c0 + m, t)] = acc[m];
}

// Vertical: output rows 16b .. 16b + 15 of the segment in column x0 + lane. Intermediate
// row 16b + rr feeds output k through tap i = rr - k: rows ascend, so taps ascend. Row
// 16b + rr lives in ring slot (b + rr / 16) % kChunks.
template <int R>
__device__ __forceinline__ void columnPass(const ImageIo& io, const Taps1D<R>& taps,
                                           const float4* ring, int b, int lane, int x,
                                           int y0, int outRows) {
  using L = StripLayout<R>;
  const float4* slot[L::kChunks];
#pragma unroll
  for (int s = 0; s < L::kChunks; ++s) {
    int c = b + s;
    c = c >= L::kChunks ? c % L::kChunks : c;
    slot[s] = ring + c * kChunk * kStripW;
  }
  float4 acc[kChunk];
#pragma unroll
  for (int k = 0; k < kChunk; ++k) acc[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int rr = 0; rr < kChunk + 2 * R; ++rr) {
    asm volatile("" ::: "memory");  // one row at a time: no hoisted loads, no spills
    const float4 v = slot[rr / kChunk][(rr % kChunk) * kStripW + swizzle(lane, rr)];
#pragma unroll
    for (int k = 0; k < kChunk; ++k) {
      const int i = rr - k;
      if (i >= 0 && i < L::kN) fma4(taps.col[i], v, acc[k]);
    }
  }
  if (x >= io.width) return;
  // One pointer, stepped by the pitch: no per-row 64-bit address arithmetic.
  const int rows = min(kChunk, outRows - b * kChunk);
  char* dst = reinterpret_cast<char*>(outRow(io, y0 + b * kChunk) + x);
#pragma unroll
  for (int k = 0; k < kChunk; ++k) {
    if (k >= rows) break;
    *reinterpret_cast<unsigned*>(dst) = roundToWord(acc[k]);
    dst += io.outPitch;
  }
}

// =====================================================================================
// the kernel
// =====================================================================================
// Warp g of the grid takes strip g % stripsX, segment g / stripsX. It computes chunk c
// (intermediate rows 16c .. 16c + 15, image rows y0 - R + 16c ..) in step c, and from
// step kChunks - 1 on, output rows 16b .. 16b + 15 with b = c - (kChunks - 1): their
// 16 + 2r intermediate rows are chunks b .. c. Chunk c goes to ring slot c % kChunks,
// whose previous chunk, c - kChunks = b - 1, the previous vertical pass was the last to
// read. The next chunk's input is loaded before the vertical pass, so that its latency
// hides behind the vertical pass's arithmetic.
template <int R, class S>
__global__ void __launch_bounds__(S::kWarps* kLanes, S::kMinBlocks)
    separableStripKernel(ImageIo io, const __grid_constant__ Taps1D<R> taps, int stripsX,
                         int segRows) {
  using L = StripLayout<R>;
  extern __shared__ float4 rings[];  // [warps in the block][kRingRows][kStripW]
  const int lane = threadIdx.x % kLanes;
  const int warp = threadIdx.x / kLanes;
  const int g = blockIdx.x * (blockDim.x / kLanes) + warp;
  const int x0 = conv_tiles::separableWarpColumn(g, stripsX);
  const int y0 = conv_tiles::separableWarpRow(g, stripsX, segRows);
  if (y0 >= io.height) return;  // warp-uniform, and no block barrier follows
  const int outRows = min(segRows, io.height - y0);
  float4* ring = rings + warp * (L::kRingRows * kStripW);

  // This lane's horizontal task in every chunk: row 16c + hr, outputs c0 .. c0 + 15,
  // input words from image column xw on.
  const int hr = conv_tiles::separableTaskRow(lane);
  const int c0 = conv_tiles::separableTaskColumn(lane);
  const int xw = x0 - L::kApron + c0;
  const bool fast = strip::rowsAligned16(io.in, io.inPitch) && x0 - L::kApron >= 0 &&
                    x0 + kStripW + L::kApron <= io.width;

  const int steps = conv_tiles::separableSteps(outRows, R);
  uint4 vec[L::kWindowVecs];
  bool ghost = fetchWindow<R>(io, fast, xw, y0 - R + hr, vec);
  for (int c = 0; c < steps; ++c) {
    const int t = c * kChunk + hr;  // this lane's intermediate row
    rowPass<R>(taps, vec, ghost, ring + (conv_tiles::separableRingSlot(c, R) * kChunk + hr) * kStripW, c0, t);
    asm volatile("" ::: "memory");  // the next window's loads after this row's FMAs
    if (c + 1 < steps) ghost = fetchWindow<R>(io, fast, xw, y0 - R + t + kChunk, vec);
    const int b = c - (L::kChunks - 1);
    if (b < 0) continue;  // still filling the ring
    __syncwarp();         // chunk c is written
    columnPass<R>(io, taps, ring, b, lane, x0 + lane, y0, outRows);
    __syncwarp();  // chunk b is read: step c + 1 overwrites its slot
  }
}

template <int R, class S>
cudaError_t launchStrips(const ImageIo& io, const Filter& f, cudaStream_t stream) {
  using L = StripLayout<R>;
  const auto kernel = separableStripKernel<R, S>;
  satdof::detail::DeviceFacts device;
  SATDOF_TRY(satdof::detail::currentDeviceFacts(device));
  const int sms = device.sms, sharedOptin = device.maxSharedPerBlockOptin;
  int blocksPerSm = 0;
  // kWarps rings per block where the device allows that much shared memory per block
  // (before sm_80 it allows 64 KiB: 2 warps at r > 8).
  const int warpsPerBlock =
      int(std::clamp<std::size_t>(std::size_t(sharedOptin) / L::kRingBytes, 1, S::kWarps));
  const std::size_t shared = warpsPerBlock * L::kRingBytes;
  if (shared > 48 * 1024)  // past the default, a kernel must opt in (a host-side setting)
    SATDOF_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(shared)));
  // Segments per strip: as many as make every warp resident at once (one wave: no warp
  // waits for another to finish, and the segments' halo overhead is as small as that
  // allows). Segment heights are whole chunks.
  SATDOF_TRY(satdof::detail::cachedOccupancy(kernel, warpsPerBlock * kLanes, shared, blocksPerSm));
  const int stripsX = int(ceilDiv(io.width, kStripW));
  const int residentWarps = std::max(1, sms * blocksPerSm * warpsPerBlock);
  const int segsWanted = std::max(1, residentWarps / stripsX);
  const int segRows = int(ceilDiv(int(ceilDiv(io.height, segsWanted)), kChunk)) * kChunk;
  const long long warps = (long long)stripsX * ceilDiv(io.height, segRows);
  const unsigned grid = unsigned((warps + warpsPerBlock - 1) / warpsPerBlock);
  kernel<<<grid, warpsPerBlock * kLanes, shared, stream>>>(io, makeTaps1D<R>(f), stripsX,
                                                           segRows);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

// The launch shape (kSeparableWarpsPerBlock in variants.h).
using SeparableShape = StripShape<kSeparableWarpsPerBlock, kSeparableMinBlocks>;

}  // namespace

std::optional<std::string> separableSupports(const Filter& filter) {
  if (!filter.separable)
    return "needs a separable (rank-one) filter; '" + filter.name + "' is not";
  return std::nullopt;
}

cudaError_t separableLaunch(const ConvArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  SATDOF_TRY(checkLaunch(args, separableSupports, scratch, scratchBytes, 0));
  if (args.width == 0 || args.height == 0) return cudaSuccess;
  const Filter& f = *args.filter;
  return strip::launchByRadius<ConvMath::Separable, strip::CachedSource>(
      args, stream, [&](auto radius) {
        constexpr int R = decltype(radius)::value;
        return launchStrips<R, SeparableShape>(makeImageIo(args), f, stream);
      });
}

}  // namespace satdof::conv

// cuda/sat/rows_columns.cu — the SAT algorithm `rows-columns`: scan the rows with the
// chosen scan variant, then scan the columns in place of the chapter's transposes.
//
//   source RGBA8 --unpack--> 4 planes [c][y][x] --scan rows (variant)-->
//     --column pass--> table [y][x] in the chosen format
//
// Why no transpose: the chapter transposes because a thread walking down a column reads
// with a stride of a whole row. But when the 32 lanes of a warp walk 32 adjacent columns
// down together, every step reads 32 consecutive words of a row: coalesced. The column
// pass therefore reads each plane row once per warp step and writes the interleaved
// table directly. The image is cut into chunks of 32 rows; a chunk's column sums reach
// the chunks below as the scan variant passes sums between its blocks
// (ScanVariant::acrossBlocks):
//   look-back  (decoupled-lookback, cub) one kernel: each warp sums its 32 columns over
//              its chunk (first read, from DRAM), publishes them, looks back for the sums
//              above (vector_lookback.cuh), and walks the chunk again (second read, from
//              L2) writing the entries;
//   hierarchy  (the others) three: the chunks' column sums, a pass that scans them down
//              each column (a thread per column), then the walk seeded with them.
//
// Bytes per pixel: unpack 4 + 16, row scan 16 + 16 (at best), column pass 16 + 16, plus
// the column carries (~1-1.5): about 85, four times the 20-byte floor. It is the middle
// step between the chapter's method and `single-pass`.
#include <cstdint>

#include "satdof/cuda_check.h"
#include "sat/algorithms.h"
#include "sat/sat_formats.cuh"
#include "sat/sat_source.cuh"
#include "sat/vector_lookback.cuh"

namespace satdof::detail {
namespace {

constexpr int kWarps = 4;
constexpr int kThreads = kWarps * 32;
constexpr int kChunkRows = 32;
constexpr int kChunkCols = kThreads;  // one column (4 channels) per lane
static_assert(kChunkRows * 255ll * kMaxFloatWidth < (1ll << 31), "chunk sums must fit int32");

// ---------------------------------------------------------------------------------------
// Unpack: RGBA8 -> 4 planes of (pixel - offset) as 32-bit words, 4 pixels per thread.
// ---------------------------------------------------------------------------------------
template <bool kOffset, class Source>
__global__ void __launch_bounds__(256)
    unpackPlanesKernel(Source src, int width, int height, std::uint32_t* planes,
                       const SatScratchHead* head) {
  const int x = (blockIdx.x * 256 + static_cast<int>(threadIdx.x)) * 4;
  if (x >= width) return;
  std::uint32_t m[4] = {0, 0, 0, 0};
  if constexpr (kOffset) channelOffsets(head, width, height, m);
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  for (int y = blockIdx.y; y < height; y += gridDim.y) {  // grids stop at 65535 rows
    const uint4 px = src.read4(x, y, width, height);
    const std::uint32_t packed[4] = {px.x, px.y, px.z, px.w};
    std::uint32_t* row = planes + static_cast<std::size_t>(y) * width;
#pragma unroll
    for (int c = 0; c < 4; ++c)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (x + i < width) row[c * plane + x + i] = ((packed[i] >> (8 * c)) & 0xffu) - m[c];
  }
}

// ---------------------------------------------------------------------------------------
// Column pass: tiles of 32 rows x 128 columns, ids from a counter in row-major order.
// ---------------------------------------------------------------------------------------
template <SatFormat F>
using ColumnChain = VectorChain<32, 4, typename FormatTraits<F>::Agg, typename FormatTraits<F>::Carry>;

// Lane (warp, lane) of a chunk: its column's sums over the chunk's rows (rows of planes:
// each warp step reads 4 x 128 bytes).
struct Chunk {
  int bx, by, x, y0, y1;
  bool insideX;
  __device__ Chunk(unsigned id, int tilesX, int width, int height)
      : bx(static_cast<int>(id % tilesX)), by(static_cast<int>(id / tilesX)),
        x(bx * kChunkCols + static_cast<int>(threadIdx.x)), y0(by * kChunkRows),
        y1(min(y0 + kChunkRows, height)), insideX(x < width) {}
  // The slot of this warp's 32 columns in chunk row p (the chain's and the carries' index).
  __device__ long long slotOf(int p, int tilesX) const {
    return (static_cast<long long>(p) * tilesX + bx) * kWarps + static_cast<int>(threadIdx.x) / 32;
  }
};

template <SatFormat F>
__device__ __forceinline__ void chunkSums(const std::uint32_t* planes, int width, int height,
                                          const Chunk& k, typename FormatTraits<F>::Agg (&agg)[4]) {
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  std::uint32_t sum[4] = {0, 0, 0, 0};
  if (k.insideX) {
    for (int y = k.y0; y < k.y1; ++y) {
      const std::size_t i = static_cast<std::size_t>(y) * width + k.x;
#pragma unroll
      for (int c = 0; c < 4; ++c) sum[c] += planes[c * plane + i];
    }
  }
#pragma unroll
  for (int c = 0; c < 4; ++c) agg[c] = static_cast<typename FormatTraits<F>::Agg>(sum[c]);
}

// The chunk again (from L2), from the sums above it, writing the entries.
template <SatFormat F>
__device__ __forceinline__ void walkChunk(const std::uint32_t* planes, int width, int height,
                                          const Chunk& k, const typename FormatTraits<F>::Carry (&carry)[4],
                                          typename FormatTraits<F>::Entry* table,
                                          const SatScratchHead* head) {
  using Traits = FormatTraits<F>;
  if constexpr (Traits::kOffset) {
    if (k.bx == 0 && k.by == 0 && threadIdx.x == 0) {
      std::uint32_t m[4];
      channelOffsets(head, width, height, m);
      writeOffsetTrailer(table, width, height, m);
    }
  }
  if (!k.insideX) return;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  std::uint32_t local[4] = {0, 0, 0, 0};
  for (int y = k.y0; y < k.y1; ++y) {
    const std::size_t i = static_cast<std::size_t>(y) * width + k.x;
#pragma unroll
    for (int c = 0; c < 4; ++c) local[c] += planes[c * plane + i];
    table[i] = Traits::entry(carry, local);
  }
}

// ---------------------------------------------------------------------------------------
// Column pass by look-back: tiles of 32 rows x 128 columns, ids from a counter in
// row-major order (every predecessor of a chunk has a smaller id).
// ---------------------------------------------------------------------------------------
template <SatFormat F>
using ColumnChain = VectorChain<32, 4, typename FormatTraits<F>::Agg, typename FormatTraits<F>::Carry>;

template <SatFormat F>
__global__ void __launch_bounds__(kThreads)
    columnPassKernel(const std::uint32_t* planes, int width, int height, int tilesX,
                     typename FormatTraits<F>::Entry* table,
                     SatScratchHead* head, ColumnChain<F> chain) {
  using Carry = typename FormatTraits<F>::Carry;
  __shared__ unsigned int tileId;
  if (threadIdx.x == 0) tileId = atomicAdd(&head->ticket, 1u);
  __syncthreads();
  const Chunk k(tileId, tilesX, width, height);
  typename FormatTraits<F>::Agg agg[4];
  chunkSums<F>(planes, width, height, k, agg);
  const auto slotOf = [&](int p) { return k.slotOf(p, tilesX); };
  Carry carry[4] = {0, 0, 0, 0};
  if (k.by > 0) {
    chain.publishAggregate(slotOf(k.by), agg);
    chain.exclusivePrefix(k.by, slotOf, carry);
  }
  Carry incl[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) incl[c] = carry[c] + static_cast<Carry>(agg[c]);
  chain.publishPrefix(slotOf(k.by), incl);
  walkChunk<F>(planes, width, height, k, carry, table, head);
}

// ---------------------------------------------------------------------------------------
// Column pass by the hierarchy: the chunks' sums (into the chain's aggregates), each
// column's exclusive sums down the chunks (into its prefixes), then the walks.
// ---------------------------------------------------------------------------------------
template <SatFormat F>
__global__ void __launch_bounds__(kThreads)
    chunkSumsKernel(const std::uint32_t* planes, int width, int height, int tilesX, ColumnChain<F> chain) {
  const Chunk k(blockIdx.x, tilesX, width, height);
  typename FormatTraits<F>::Agg agg[4];
  chunkSums<F>(planes, width, height, k, agg);
  typename FormatTraits<F>::Agg* out = chain.aggOf(k.slotOf(k.by, tilesX), static_cast<int>(threadIdx.x) % 32);
#pragma unroll
  for (int c = 0; c < 4; ++c) out[c] = agg[c];
}

template <SatFormat F>
__global__ void __launch_bounds__(kThreads)
    chunkCarriesKernel(int width, int tilesX, int tilesY, ColumnChain<F> chain) {
  using Carry = typename FormatTraits<F>::Carry;
  const Chunk k(blockIdx.x, tilesX, width, 0);  // the chunk row 0 of column block bx
  if (!k.insideX) return;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  Carry run[4] = {0, 0, 0, 0};
  for (int by = 0; by < tilesY; ++by) {
    const long long slot = k.slotOf(by, tilesX);
    const typename FormatTraits<F>::Agg* agg = chain.aggOf(slot, lane);
    Carry* pre = chain.preOf(slot, lane);
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      pre[c] = run[c];
      run[c] += static_cast<Carry>(agg[c]);
    }
  }
}

template <SatFormat F>
__global__ void __launch_bounds__(kThreads)
    chunkWalkKernel(const std::uint32_t* planes, int width, int height, int tilesX,
                    typename FormatTraits<F>::Entry* table, const SatScratchHead* head, ColumnChain<F> chain) {
  const Chunk k(blockIdx.x, tilesX, width, height);
  typename FormatTraits<F>::Carry carry[4];
  const typename FormatTraits<F>::Carry* pre = chain.preOf(k.slotOf(k.by, tilesX), static_cast<int>(threadIdx.x) % 32);
#pragma unroll
  for (int c = 0; c < 4; ++c) carry[c] = pre[c];
  walkChunk<F>(planes, width, height, k, carry, table, head);
}

// Scratch: [head][flags] (zeroed per launch) [planes][scan scratch][aggregates][prefixes].
struct Layout {
  std::size_t flags, zeroed, planes, scan, scanBytes, agg, pre, total;
  int tilesX, tilesY;
  Layout(const SatArgs& args, const ScanVariant& variant) {
    tilesX = (args.width + kChunkCols - 1) / kChunkCols;
    tilesY = (args.height + kChunkRows - 1) / kChunkRows;
    const std::size_t slots = std::size_t(tilesX) * tilesY * kWarps;
    const std::size_t carryBytes = detail::carryBytes(args.format);
    flags = alignUp(sizeof(SatScratchHead));
    zeroed = flags + alignUp(slots * 4);
    planes = zeroed;
    scan = planes + alignUp(std::size_t(args.width) * args.height * 4 * 4);
    scanBytes = alignUp(variant.scratchBytes(rowScanOf(nullptr, args)));
    agg = scan + scanBytes;
    pre = agg + alignUp(slots * 32 * 4 * 4);
    total = pre + alignUp(slots * 32 * 4 * carryBytes);
  }
  static ScanArgs rowScanOf(std::uint32_t* planes, const SatArgs& args) {
    ScanArgs s;
    s.in = planes;
    s.out = planes;
    s.length = static_cast<std::size_t>(args.width);
    s.rows = 4 * static_cast<std::size_t>(args.height);
    s.type = ScanType::U32;
    s.op = ScanOp::Inclusive;
    return s;
  }
};

template <SatFormat F, class Source>
cudaError_t launchFormat(const SatArgs& args, Source src, void* scratch, std::size_t bytes,
                         cudaStream_t stream) {
  const ScanVariant& variant = scanOf(args);
  const Layout l(args, variant);
  if (bytes < l.total || !scratch || !args.table) return cudaErrorInvalidValue;
  auto* b = static_cast<unsigned char*>(scratch);
  auto* head = reinterpret_cast<SatScratchHead*>(b);
  auto* planes = reinterpret_cast<std::uint32_t*>(b + l.planes);
  SATDOF_TRY(cudaMemsetAsync(scratch, 0, l.zeroed, stream));
  if constexpr (FormatTraits<F>::kOffset) {
    channelSumsKernel<<<min(args.height, 1024), 256, 0, stream>>>(src, args.width, args.height, head);
    SATDOF_TRY_LAUNCH();
  }
  const dim3 unpackGrid((args.width + 1023) / 1024, min(args.height, 65535));
  unpackPlanesKernel<FormatTraits<F>::kOffset>
      <<<unpackGrid, 256, 0, stream>>>(src, args.width, args.height, planes, head);
  SATDOF_TRY_LAUNCH();
  SATDOF_TRY(variant.launch(Layout::rowScanOf(planes, args), b + l.scan, l.scanBytes, stream));
  const ColumnChain<F> chain{reinterpret_cast<std::uint32_t*>(b + l.flags),
                             reinterpret_cast<typename FormatTraits<F>::Agg*>(b + l.agg),
                             reinterpret_cast<typename FormatTraits<F>::Carry*>(b + l.pre)};
  auto* table = static_cast<typename FormatTraits<F>::Entry*>(args.table);
  const unsigned chunks = unsigned(l.tilesX) * unsigned(l.tilesY);
  if (variant.acrossBlocks == "look-back") {
    columnPassKernel<F><<<chunks, kThreads, 0, stream>>>(planes, args.width, args.height, l.tilesX, table,
                                                         head, chain);
    SATDOF_TRY_LAUNCH();
    return cudaSuccess;
  }
  chunkSumsKernel<F><<<chunks, kThreads, 0, stream>>>(planes, args.width, args.height, l.tilesX, chain);
  SATDOF_TRY_LAUNCH();
  chunkCarriesKernel<F><<<unsigned(l.tilesX), kThreads, 0, stream>>>(args.width, l.tilesX, l.tilesY, chain);
  SATDOF_TRY_LAUNCH();
  chunkWalkKernel<F><<<chunks, kThreads, 0, stream>>>(planes, args.width, args.height, l.tilesX, table, head,
                                                      chain);
  SATDOF_TRY_LAUNCH();
  return cudaSuccess;
}

}  // namespace

std::size_t rowsColumnsScratchBytes(const SatArgs& args) {
  if (args.width <= 0 || args.height <= 0) return 0;
  return Layout(args, scanOf(args)).total;
}

cudaError_t rowsColumnsLaunch(const SatArgs& args, void* scratch, std::size_t scratchBytes,
                              cudaStream_t stream) {
  return withSourceAndFormat(args, [&](auto src, auto format) {
    return launchFormat<decltype(format)::value>(args, src, scratch, scratchBytes, stream);
  });
}

}  // namespace satdof::detail

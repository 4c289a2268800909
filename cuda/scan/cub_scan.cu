// scan/cub_scan.cu — `cub`: the library baseline, cub::DeviceScan (CCCL).
//
// The bench reports every variant as a ratio to this one. CUB implements the same
// single-pass decoupled look-back as `decoupled-lookback`, with per-architecture tuning.
//
//   rows == 1                 DeviceScan::InclusiveSum / ExclusiveSum on the pointers.
//   rows > 1                  one scan-by-key over the whole batch: the key of logical
//                             element i is its row, i / length, produced on the fly by a
//                             transform iterator (no key array in memory). Exclusive
//                             by-key scans restart from 0 at every row, as we need.
//   rows > 1, pitch != length the values are read and written through permutation
//                             iterators mapping logical i to (i / length) * pitch +
//                             i % length, so padding between rows is never touched and
//                             the batch is still a single call (rather than one call per
//                             row, which costs a launch pair per row: 8640 for 4K).
// The logical index is 32-bit (CUB's fastest offsets); batches of more than 2^32 - 1
// elements are split into row chunks, and a single row that long uses 64-bit offsets.
//
// Scratch is CUB's temporary storage, sized by the usual two-phase query: scratchBytes()
// runs the same dispatch with a null buffer. (The query asks the runtime about the
// current device; where that fails it reports 0 bytes and launch() returns the error.)
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "detail/scan_args.cuh"
#include "satdof/cuda_check.h"
#include "scan/variants.h"

namespace satdof::detail {
namespace {

using Index = std::uint32_t;

struct RowOfIndex {
  Index length;
  __host__ __device__ Index operator()(Index i) const { return i / length; }
};

struct PitchedOffset {
  Index length;
  std::size_t pitch;
  __host__ __device__ std::size_t operator()(Index i) const {
    const Index row = i / length;
    return static_cast<std::size_t>(row) * pitch + (i - row * length);
  }
};

// One CUB call. temp == nullptr: only sets bytes (the query phase).
template <class InIt, class OutIt, class NumItems>
cudaError_t cubScan(void* temp, std::size_t& bytes, InIt in, OutIt out, NumItems n,
                    bool exclusive, cudaStream_t stream) {
  return exclusive ? cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream)
                   : cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream);
}

template <class KeyIt, class InIt, class OutIt>
cudaError_t cubScanByKey(void* temp, std::size_t& bytes, KeyIt keys, InIt in, OutIt out, Index n,
                         bool exclusive, cudaStream_t stream) {
  return exclusive
             ? cub::DeviceScan::ExclusiveSumByKey(temp, bytes, keys, in, out, n, ::cuda::std::equal_to<>{}, stream)
             : cub::DeviceScan::InclusiveSumByKey(temp, bytes, keys, in, out, n, ::cuda::std::equal_to<>{}, stream);
}

// Runs (temp != nullptr) or sizes (temp == nullptr: `bytes` receives the largest
// requirement of all the calls) the scan described by args.
template <class T>
cudaError_t runCub(const ScanArgs& args, void* temp, std::size_t& bytes, cudaStream_t stream) {
  const bool query = temp == nullptr;
  const bool exclusive = args.op == ScanOp::Exclusive;
  const auto* in = static_cast<const T*>(args.in);
  auto* out = static_cast<T*>(args.out);
  const std::size_t pitch = args.rowPitch();
  constexpr std::size_t kMaxIndex = std::numeric_limits<Index>::max();

  // ---- rows too long for 32-bit indices: one 64-bit call per row --------------------
  if (args.length > kMaxIndex) {
    const std::size_t available = bytes;
    for (std::size_t r = 0; r < args.rows; ++r) {
      std::size_t need = available;
      SATDOF_TRY(cubScan(temp, need, in + r * pitch, out + r * pitch,
                         static_cast<unsigned long long>(args.length), exclusive, stream));
      if (query) {
        bytes = need;  // every row needs the same
        return cudaSuccess;
      }
    }
    return cudaSuccess;
  }

  // ---- a single row ------------------------------------------------------------------
  if (args.rows == 1) return cubScan(temp, bytes, in, out, static_cast<Index>(args.length),
                                     exclusive, stream);

  // ---- a batch: scan-by-key over chunks of whole rows --------------------------------
  const Index length = static_cast<Index>(args.length);
  const std::size_t rowsPerChunk = std::min<std::size_t>(args.rows, kMaxIndex / args.length);
  const auto keys = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0),
                                                    RowOfIndex{length});
  const auto offsets = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0),
                                                       PitchedOffset{length, pitch});
  const std::size_t available = bytes;
  for (std::size_t r0 = 0; r0 < args.rows; r0 += rowsPerChunk) {
    const std::size_t rows = std::min(rowsPerChunk, args.rows - r0);
    const Index n = static_cast<Index>(rows * args.length);
    const T* chunkIn = in + r0 * pitch;
    T* chunkOut = out + r0 * pitch;
    std::size_t need = available;
    if (pitch == args.length) {
      SATDOF_TRY(cubScanByKey(temp, need, keys, chunkIn, chunkOut, n, exclusive, stream));
    } else {
      SATDOF_TRY(cubScanByKey(temp, need, keys,
                              thrust::make_permutation_iterator(chunkIn, offsets),
                              thrust::make_permutation_iterator(chunkOut, offsets), n,
                              exclusive, stream));
    }
    if (query) {
      bytes = need;  // the first chunk is the largest
      return cudaSuccess;
    }
  }
  return cudaSuccess;
}

}  // namespace

// The query phase for the whole batch: the largest temporary storage any call needs.
cudaError_t cubQuery(const ScanArgs& args, std::size_t& bytes) {
  bytes = 0;
  if (isEmptyScan(args)) return cudaSuccess;
  return dispatchScanType(args.type, [&](auto tag) {
    return runCub<decltype(tag)>(args, nullptr, bytes, nullptr);
  });
}

std::size_t cubScratchBytes(const ScanArgs& args) {
  std::size_t bytes = 0;
  return cubQuery(args, bytes) == cudaSuccess ? bytes : 0;
}

cudaError_t cubLaunch(const ScanArgs& args, void* scratch, std::size_t scratchBytes,
                      cudaStream_t stream) {
  SATDOF_TRY(validateScanArgs(args, scratch, scratchBytes, 0));
  if (isEmptyScan(args)) return cudaSuccess;
  std::size_t required = 0;
  SATDOF_TRY(cubQuery(args, required));
  // A null buffer would turn the calls below into queries: refuse it explicitly.
  if (scratch == nullptr || scratchBytes < required) return cudaErrorInvalidValue;
  return dispatchScanType(args.type, [&](auto tag) {
    std::size_t bytes = scratchBytes;
    return runCub<decltype(tag)>(args, scratch, bytes, stream);
  });
}

}  // namespace satdof::detail

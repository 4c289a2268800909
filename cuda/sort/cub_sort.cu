// sort/cub_sort.cu — `cub`: the library baseline, cub::DeviceRadixSort (CCCL; on sm_90
// the onesweep sort: 8-bit digits, one upfront histogram pass, then one fused
// rank-and-scatter pass per digit with a decoupled look-back over the digit counts).
//
//   out of place   SortPairs / SortKeys with separate input and output: CUB keeps its
//                  alternate buffers in its temporary storage, keysIn is never written
//   in place       the DoubleBuffer form over (out, alternate buffers from our scratch),
//                  and a copy back when the result ends up in the alternate buffer
// Scratch: out of place, CUB's temporary storage; in place, [alternate keys | alternate
// values | CUB's temporary storage].
#include <cub/device/device_radix_sort.cuh>

#include <cstdint>

#include "sort/variants.h"

namespace satdof::detail {
namespace {

bool inPlace(const SortArgs& args) {
  return args.keysIn == args.keysOut ||
         (args.hasValues() && args.valuesIn == args.valuesOut);
}

// temp == nullptr: the query. alt: the alternate buffers (in place only).
cudaError_t runCub(const SortArgs& args, void* temp, std::size_t& bytes, std::uint32_t* altKeys,
                   std::uint32_t* altValues, cudaStream_t stream) {
  const int n = static_cast<int>(args.n);
  if (!inPlace(args)) {
    if (args.hasValues())
      return cub::DeviceRadixSort::SortPairs(temp, bytes, args.keysIn, args.keysOut,
                                             args.valuesIn, args.valuesOut, n, args.beginBit,
                                             args.endBit, stream);
    return cub::DeviceRadixSort::SortKeys(temp, bytes, args.keysIn, args.keysOut, n,
                                          args.beginBit, args.endBit, stream);
  }
  const bool query = temp == nullptr;
  const std::size_t count = args.n * sizeof(std::uint32_t);
  // The DoubleBuffer form sorts what is in its current buffer: bring the input there.
  if (!query && args.keysIn != args.keysOut)
    SATDOF_TRY(cudaMemcpyAsync(args.keysOut, args.keysIn, count, cudaMemcpyDeviceToDevice, stream));
  if (!query && args.hasValues() && args.valuesIn != args.valuesOut)
    SATDOF_TRY(cudaMemcpyAsync(args.valuesOut, args.valuesIn, count, cudaMemcpyDeviceToDevice,
                               stream));
  cub::DoubleBuffer<std::uint32_t> keys(args.keysOut, altKeys);
  cub::DoubleBuffer<std::uint32_t> values(args.valuesOut, altValues);
  if (args.hasValues())
    SATDOF_TRY(cub::DeviceRadixSort::SortPairs(temp, bytes, keys, values, n, args.beginBit,
                                               args.endBit, stream));
  else
    SATDOF_TRY(cub::DeviceRadixSort::SortKeys(temp, bytes, keys, n, args.beginBit, args.endBit,
                                              stream));
  if (query) return cudaSuccess;
  if (keys.Current() != args.keysOut)
    SATDOF_TRY(cudaMemcpyAsync(args.keysOut, keys.Current(), count, cudaMemcpyDeviceToDevice,
                               stream));
  if (args.hasValues() && values.Current() != args.valuesOut)
    SATDOF_TRY(cudaMemcpyAsync(args.valuesOut, values.Current(), count,
                               cudaMemcpyDeviceToDevice, stream));
  return cudaSuccess;
}

std::size_t ownBytes(const SortArgs& args) { return inPlace(args) ? pingPongBytes(args) : 0; }

}  // namespace

std::size_t cubSortScratchBytes(const SortArgs& args) {
  if (args.n == 0) return 0;
  std::size_t bytes = 0;
  if (runCub(args, nullptr, bytes, nullptr, nullptr, nullptr) != cudaSuccess) return 0;
  return ownBytes(args) + bytes;
}

cudaError_t cubSortLaunch(const SortArgs& args, void* scratch, std::size_t scratchBytes,
                          cudaStream_t stream) {
  SATDOF_TRY(validateSortArgs(args, scratch, scratchBytes, 0));
  if (args.n == 0) return cudaSuccess;
  std::size_t cubBytes = 0;
  SATDOF_TRY(runCub(args, nullptr, cubBytes, nullptr, nullptr, stream));
  const std::size_t own = ownBytes(args);
  // A null buffer would turn the call into a query: refuse it explicitly.
  if (scratch == nullptr || scratchBytes < own + cubBytes) return cudaErrorInvalidValue;
  auto* base = static_cast<std::byte*>(scratch);
  auto* altKeys = reinterpret_cast<std::uint32_t*>(base);
  auto* altValues = args.hasValues()
                        ? reinterpret_cast<std::uint32_t*>(base + alignUp(args.n * sizeof(std::uint32_t)))
                        : nullptr;
  std::size_t bytes = scratchBytes - own;
  return runCub(args, base + own, bytes, altKeys, altValues, stream);
}

}  // namespace satdof::detail

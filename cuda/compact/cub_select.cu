// compact/cub_select.cu — `cub`: the library baseline, cub::DeviceSelect::If (CCCL), which
// is itself a single-pass select with decoupled look-back, tuned per architecture.
//
//   values only     DeviceSelect::If(in -> out) with the predicate
//   indices only    DeviceSelect::If over a counting iterator, the predicate reading in[i]
//   both            one DeviceSelect::If over a zip of (value, index) into a zip of
//                   (out, indices)
// The count goes straight to args.count. Scratch is CUB's temporary storage, sized by the
// usual null-buffer query.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include <cstdint>

#include "compact/variants.h"

namespace satdof::detail {
namespace {

struct OnValue {
  Predicate pred;
  __host__ __device__ bool operator()(std::uint32_t v) const { return pred(v); }
};

struct OnIndex {
  const std::uint32_t* in;
  Predicate pred;
  __host__ __device__ bool operator()(std::uint32_t i) const { return pred(in[i]); }
};

struct OnPair {
  Predicate pred;
  template <class Tuple>
  __host__ __device__ bool operator()(const Tuple& t) const {
    return pred(thrust::get<0>(t));
  }
};

// temp == nullptr: the query (bytes receives the requirement).
cudaError_t runCub(const CompactArgs& args, void* temp, std::size_t& bytes, cudaStream_t stream) {
  const auto n = static_cast<::cuda::std::int64_t>(args.n);
  const thrust::counting_iterator<std::uint32_t> index(0);
  if (args.indices == nullptr) {
    if (args.out == nullptr)  // only the count: values go nowhere
      return cub::DeviceSelect::If(temp, bytes, args.in, thrust::make_discard_iterator(),
                                   args.count, n, OnValue{args.predicate}, stream);
    return cub::DeviceSelect::If(temp, bytes, args.in, args.out, args.count, n,
                                 OnValue{args.predicate}, stream);
  }
  if (args.out == nullptr)
    return cub::DeviceSelect::If(temp, bytes, index, args.indices, args.count, n,
                                 OnIndex{args.in, args.predicate}, stream);
  return cub::DeviceSelect::If(
      temp, bytes, thrust::make_zip_iterator(thrust::make_tuple(args.in, index)),
      thrust::make_zip_iterator(thrust::make_tuple(args.out, args.indices)), args.count, n,
      OnPair{args.predicate}, stream);
}

}  // namespace

std::size_t cubSelectScratchBytes(const CompactArgs& args) {
  if (args.n == 0) return 0;
  std::size_t bytes = 0;
  return runCub(args, nullptr, bytes, nullptr) == cudaSuccess ? bytes : 0;
}

cudaError_t cubSelectLaunch(const CompactArgs& args, void* scratch, std::size_t scratchBytes,
                            cudaStream_t stream) {
  SATDOF_TRY(validateCompactArgs(args, scratch, scratchBytes, 0));
  if (args.n == 0) return writeEmptyCount(args, stream);
  std::size_t required = 0;
  SATDOF_TRY(runCub(args, nullptr, required, stream));
  // A null buffer would turn the call into a query: refuse it explicitly.
  if (scratch == nullptr || scratchBytes < required) return cudaErrorInvalidValue;
  std::size_t bytes = scratchBytes;
  return runCub(args, scratch, bytes, stream);
}

}  // namespace satdof::detail

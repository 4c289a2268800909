// detail/scan_args.cuh — host-side checks and type dispatch shared by every variant's launch().
//
// launch() receives type-erased ScanArgs; validateScanArgs() enforces the public contract
// once (null pointers, pitch shorter than the row, scratch too small), and
// dispatchScanType() turns the runtime element type into a template argument.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "satdof/cuda_check.h"
#include "satdof/scan.h"

namespace satdof::detail {

// True when the call has nothing to do (length 0 or rows 0): a successful no-op.
inline bool isEmptyScan(const ScanArgs& args) { return args.length == 0 || args.rows == 0; }

inline cudaError_t validateScanArgs(const ScanArgs& args, const void* scratch,
                                    std::size_t scratchBytes, std::size_t requiredBytes) {
  if (isEmptyScan(args)) return cudaSuccess;
  if (args.in == nullptr || args.out == nullptr) return cudaErrorInvalidValue;
  if (args.pitch != 0 && args.pitch < args.length) return cudaErrorInvalidValue;
  if (args.type != ScanType::U32 && args.type != ScanType::F32) return cudaErrorInvalidValue;
  if (args.op != ScanOp::Inclusive && args.op != ScanOp::Exclusive) return cudaErrorInvalidValue;
  if (requiredBytes > 0 && (scratch == nullptr || scratchBytes < requiredBytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

// Calls fn(tag) with a value of the element type: fn(std::uint32_t{}) or fn(float{}).
template <class Fn>
cudaError_t dispatchScanType(ScanType type, Fn&& fn) {
  switch (type) {
    case ScanType::U32:
      return fn(std::uint32_t{});
    case ScanType::F32:
      return fn(float{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace satdof::detail

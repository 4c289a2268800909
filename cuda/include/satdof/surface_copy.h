// satdof/surface_copy.h — an RGBA8 surface (a mapped GL texture) copied into a linear image.
//
// A kernel rather than cudaMemcpy2DFromArrayAsync: the same bytes at about the same speed,
// and compute-sanitizer's initcheck sees the destination written (it does not count a copy
// out of a graphics-interop array as initialising memory, so every kernel reading the copy
// was reported as reading uninitialised memory).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace satdof {

// Enqueues the copy of `width` x `height` pixels at (0, 0) of `surface` into `dst` (rows
// `pitchBytes` apart, a multiple of 4, at least width x 4) on `stream`; returns the launch's
// error (cudaErrorInvalidValue for an empty image, a missing surface or destination, or a
// pitch too small).
cudaError_t launchSurfaceToLinear(cudaSurfaceObject_t surface, void* dst, std::size_t pitchBytes,
                                  int width, int height, cudaStream_t stream);

}  // namespace satdof

// engine/interop/cuda_gl.h — RAII owners for CUDA-OpenGL interop and the CUDA objects the
// CUDA stages need per frame (session.h builds the frame's interop on these).
//
//   GraphicsResource  one cudaGraphicsGLRegister* registration; unregisters on destruction
//                     (so it must die before the GL object it names).
//   MapScope          maps every resource of a frame in one call, unmaps on destruction.
//   Stream, Event, SurfaceObject: move-only owners of the matching CUDA handles.
#pragma once

#include <glad/gl.h>
// After GLAD, so cuda_gl_interop.h does not pull in a second GL header.
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include <initializer_list>
#include <utility>
#include <vector>

#include "satdof/cuda_check.h"  // CudaError, SATDOF_CUDA_CHECK

namespace satdof::interop {

// Generic move-only owner of a CUDA handle, built on swap.
template <class T, cudaError_t (*Destroy)(T)>
class CudaHandle {
 public:
  CudaHandle() = default;
  explicit CudaHandle(T h) : h_(h) {}
  ~CudaHandle() { reset(); }
  CudaHandle(const CudaHandle&) = delete;
  CudaHandle& operator=(const CudaHandle&) = delete;
  CudaHandle(CudaHandle&& o) noexcept { swap(o); }
  CudaHandle& operator=(CudaHandle&& o) noexcept {
    CudaHandle(std::move(o)).swap(*this);
    return *this;
  }
  void swap(CudaHandle& o) noexcept { std::swap(h_, o.h_); }
  void reset() noexcept {
    if (h_) Destroy(h_);  // errors here cannot be acted on; the context may be going away
    h_ = T{};
  }
  T get() const noexcept { return h_; }
  explicit operator bool() const noexcept { return h_ != T{}; }

 private:
  T h_{};
};

using GraphicsResource = CudaHandle<cudaGraphicsResource_t, cudaGraphicsUnregisterResource>;
using Stream = CudaHandle<cudaStream_t, cudaStreamDestroy>;
using Event = CudaHandle<cudaEvent_t, cudaEventDestroy>;
using SurfaceObject = CudaHandle<cudaSurfaceObject_t, cudaDestroySurfaceObject>;

GraphicsResource registerImage(GLuint texture, unsigned flags);
GraphicsResource registerBuffer(GLuint buffer, unsigned flags);
// A non-blocking stream; `preferred`: of the device's greatest priority, so that its
// blocks are scheduled before those of default streams running beside it.
Stream createStream(bool preferred = false);
Event createEvent(unsigned flags = cudaEventDefault);
// A surface object over level 0 of a mapped array (registered with SurfaceLoadStore).
SurfaceObject createSurface(cudaArray_t array);

class MapScope {
 public:
  MapScope(std::vector<cudaGraphicsResource_t> resources, cudaStream_t stream);
  ~MapScope();
  MapScope(const MapScope&) = delete;
  MapScope& operator=(const MapScope&) = delete;

  cudaArray_t array(std::size_t index) const;  // level 0 of an image resource
  void* pointer(std::size_t index, std::size_t* bytes = nullptr) const;
  // Unmaps now, throwing on failure (the destructor unmaps silently if this was skipped).
  void unmap();

 private:
  std::vector<cudaGraphicsResource_t> resources_;
  cudaStream_t stream_;
  bool mapped_ = false;
};

}  // namespace satdof::interop

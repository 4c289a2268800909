// engine/interop/cuda_gl.cpp — see cuda_gl.h.
#include "engine/interop/cuda_gl.h"

namespace satdof::interop {

GraphicsResource registerImage(GLuint texture, unsigned flags) {
  cudaGraphicsResource_t r = nullptr;
  SATDOF_CUDA_CHECK(cudaGraphicsGLRegisterImage(&r, texture, GL_TEXTURE_2D, flags));
  return GraphicsResource(r);
}

GraphicsResource registerBuffer(GLuint buffer, unsigned flags) {
  cudaGraphicsResource_t r = nullptr;
  SATDOF_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r, buffer, flags));
  return GraphicsResource(r);
}

Stream createStream(bool preferred) {
  int least = 0, greatest = 0;
  if (preferred) SATDOF_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaStream_t s = nullptr;
  SATDOF_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, preferred ? greatest : least));
  return Stream(s);
}

Event createEvent(unsigned flags) {
  cudaEvent_t e = nullptr;
  SATDOF_CUDA_CHECK(cudaEventCreateWithFlags(&e, flags));
  return Event(e);
}

SurfaceObject createSurface(cudaArray_t array) {
  cudaResourceDesc desc{};
  desc.resType = cudaResourceTypeArray;
  desc.res.array.array = array;
  cudaSurfaceObject_t s = 0;
  SATDOF_CUDA_CHECK(cudaCreateSurfaceObject(&s, &desc));
  return SurfaceObject(s);
}

MapScope::MapScope(std::vector<cudaGraphicsResource_t> resources, cudaStream_t stream)
    : resources_(std::move(resources)), stream_(stream) {
  SATDOF_CUDA_CHECK(cudaGraphicsMapResources(int(resources_.size()), resources_.data(), stream_));
  mapped_ = true;
}

MapScope::~MapScope() {
  if (mapped_) cudaGraphicsUnmapResources(int(resources_.size()), resources_.data(), stream_);
}

void MapScope::unmap() {
  if (!mapped_) return;
  mapped_ = false;
  SATDOF_CUDA_CHECK(cudaGraphicsUnmapResources(int(resources_.size()), resources_.data(), stream_));
}

cudaArray_t MapScope::array(std::size_t index) const {
  cudaArray_t a = nullptr;
  SATDOF_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&a, resources_.at(index), 0, 0));
  return a;
}

void* MapScope::pointer(std::size_t index, std::size_t* bytes) const {
  void* p = nullptr;
  std::size_t size = 0;
  SATDOF_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&p, &size, resources_.at(index)));
  if (bytes) *bytes = size;
  return p;
}

}  // namespace satdof::interop

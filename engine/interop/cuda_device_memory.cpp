// engine/interop/cuda_device_memory.cpp — GL buffers of CUDA memory (device_memory_buffer.h),
// the CUDA part's (cuda_part::registerDeviceMemoryBuffers).
//
// The CUDA driver's virtual memory calls (cuMemCreate, cuMemExportToShareableHandle) are
// reached through the runtime's cudaGetDriverEntryPointByVersion, so the binary does not
// link libcuda and still starts on a machine without the driver.
#include "engine/interop/device_memory_buffer.h"

#include <cuda.h>  // the driver API's types; its entry points come from the runtime
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "engine/parts/cuda_part.h"
#include "satdof/cuda_check.h"

namespace satdof::interop {
namespace {

// The driver entry points this file uses, looked up once per call of a public function.
struct Driver {
  decltype(&::cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&::cuMemCreate) create = nullptr;
  decltype(&::cuMemExportToShareableHandle) exportHandle = nullptr;
  decltype(&::cuMemRelease) release = nullptr;
  decltype(&::cuGetErrorName) errorName = nullptr;

  // Why the entry points are missing, or nothing.
  std::optional<std::string> load() {
    for (auto why : {find("cuMemGetAllocationGranularity", granularity), find("cuMemCreate", create),
                     find("cuMemExportToShareableHandle", exportHandle), find("cuMemRelease", release),
                     find("cuGetErrorName", errorName)})
      if (why) return why;
    return std::nullopt;
  }

  void check(CUresult r, const char* what) const {
    if (r == CUDA_SUCCESS) return;
    const char* name = "unknown error";
    if (errorName) errorName(r, &name);
    throw std::runtime_error(std::string(what) + " failed: " + name);
  }

 private:
  template <class F>
  static std::optional<std::string> find(const char* symbol, F& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || p == nullptr) {
      cudaGetLastError();  // not sticky; do not leave it for the next check
      return std::string("the CUDA driver has no ") + symbol;
    }
    fn = reinterpret_cast<F>(p);
    return std::nullopt;
  }
};

CUmemAllocationProp exportableDeviceMemory(int device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}

// Whether the current CUDA device is the GPU the GL context draws on (their UUIDs).
std::optional<std::string> sameGpu(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device");
  }
  GLint count = 0;
  glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &count);
  for (GLint i = 0; i < count; ++i) {
    GLubyte uuid[GL_UUID_SIZE_EXT] = {};
    glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, GLuint(i), uuid);
    if (std::memcmp(uuid, prop.uuid.bytes, sizeof uuid) == 0) return std::nullopt;
  }
  return std::string("the GL context draws on another GPU than CUDA device ") + std::to_string(device);
}

DeviceMemoryBuffer importBuffer(const Driver& driver, int device, GLsizeiptr bytes) {
  const CUmemAllocationProp prop = exportableDeviceMemory(device);
  std::size_t granularity = 0;
  driver.check(driver.granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
               "cuMemGetAllocationGranularity");
  const std::size_t size = (std::size_t(bytes) + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle = 0;
  driver.check(driver.create(&handle, size, &prop, 0), "cuMemCreate");
  int fd = -1;
  const CUresult exported = driver.exportHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  // The file descriptor (and then GL's import) holds the memory from here on.
  driver.release(handle);
  driver.check(exported, "cuMemExportToShareableHandle");

  DeviceMemoryBuffer b;
  GLuint name = 0;
  glCreateMemoryObjectsEXT(1, &name);
  b.memory = gl::MemoryObject(name);
  for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i) {  // older errors are not the import's
  }
  glImportMemoryFdEXT(name, GLuint64(size), GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);  // GL owns fd on success
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    close(fd);
    throw std::runtime_error("glImportMemoryFdEXT failed (GL error " + std::to_string(e) + ")");
  }
  glCreateBuffers(1, &name);
  b.buffer = gl::Buffer(name);
  glNamedBufferStorageMemEXT(name, bytes, b.memory.get(), 0);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR)
    throw std::runtime_error("glNamedBufferStorageMemEXT failed (GL error " + std::to_string(e) + ")");
  return b;
}

std::optional<std::string> whyNoCudaMemoryBuffers() {
  if (!GLAD_GL_EXT_memory_object || !GLAD_GL_EXT_memory_object_fd)
    return std::string("the GL has no GL_EXT_memory_object_fd");
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device");
  }
  if (auto why = sameGpu(device)) return why;
  Driver driver;
  if (auto why = driver.load()) return why;
  try {  // a small one end to end: the device or the GL may refuse the export or import
    importBuffer(driver, device, 1);
  } catch (const std::runtime_error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

DeviceMemoryBuffer createCudaMemoryBuffer(GLsizeiptr bytes) {
  int device = 0;
  SATDOF_CUDA_CHECK(cudaGetDevice(&device));
  Driver driver;
  if (auto why = driver.load()) throw std::runtime_error(*why);
  return importBuffer(driver, device, bytes);
}

}  // namespace
}  // namespace satdof::interop

namespace satdof {

void cuda_part::registerDeviceMemoryBuffers() {
  interop::registerDeviceMemoryBuffers({interop::whyNoCudaMemoryBuffers, interop::createCudaMemoryBuffer});
}

}  // namespace satdof

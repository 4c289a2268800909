// engine/interop/device_memory_buffer_unavailable.cpp — device_memory_buffer.h in a build
// without CUDA: every buffer is GL's own.
#include <stdexcept>

#include "engine/interop/device_memory_buffer.h"

namespace satdof::interop {

std::optional<std::string> whyNoDeviceMemoryBuffers() { return std::string("this build has no CUDA"); }

DeviceMemoryBuffer createDeviceMemoryBuffer(GLsizeiptr) {
  throw std::runtime_error("GL buffers of CUDA memory: this build has no CUDA");
}

}  // namespace satdof::interop

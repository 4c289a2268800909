// engine/interop/device_memory_buffer.cpp — see device_memory_buffer.h: the engine's side,
// which hands the calls to the optional part that registered (or says there is none).
#include "engine/interop/device_memory_buffer.h"

#include <stdexcept>

#include "engine/parts/optional_parts.h"

namespace satdof::interop {
namespace {

// The registered part's calls (null: none registered, this build has no CUDA).
DeviceMemoryBuffers& registered() {
  static DeviceMemoryBuffers part{};
  return part;
}

}  // namespace

void registerDeviceMemoryBuffers(DeviceMemoryBuffers part) { registered() = part; }

std::optional<std::string> whyNoDeviceMemoryBuffers() {
  ensureOptionalParts();
  if (!registered().whyNot) return std::string("this build has no CUDA");
  return registered().whyNot();
}

DeviceMemoryBuffer createDeviceMemoryBuffer(GLsizeiptr bytes) {
  ensureOptionalParts();
  if (!registered().create) throw std::runtime_error("GL buffers of CUDA memory: this build has no CUDA");
  return registered().create(bytes);
}

}  // namespace satdof::interop

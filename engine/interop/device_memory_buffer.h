// engine/interop/device_memory_buffer.h — GL buffers whose memory CUDA allocates.
//
// A buffer that GL allocates is mapped with GL's page size; CUDA's own allocations of
// this size use 2 MiB pages. CUDA kernels writing several 133 MB SATs a frame into GL's
// buffers run ~45 % slower than into cudaMalloc'ed memory (H200, docs/PERFORMANCE.md,
// "The SAT's kernels run slower in layered frames"). So where CUDA and GL share the GPU,
// the frame's SAT tables are made of CUDA memory (cuMemCreate, exportable as a POSIX file
// descriptor) that GL imports (GL_EXT_memory_object_fd) as the buffer's storage; the
// rest of the frame (registration, mapping, the GL passes) sees an ordinary GL buffer.
//
// The engine asks here; the CUDA part (cuda_device_memory.cpp) makes them, registered as
// an optional part (engine/parts/optional_parts.h). Without it: "this build has no CUDA".
#pragma once

#include <optional>
#include <string>

#include "engine/gl/handles.h"

namespace satdof::interop {

struct DeviceMemoryBuffer {
  gl::MemoryObject memory;  // declared first: destroyed after the buffer that uses it
  gl::Buffer buffer;
};

// Why buffers cannot be made of CUDA memory here (no CUDA in this build, no device, the
// GL lacks GL_EXT_memory_object_fd, the driver refuses the export), or nothing.
std::optional<std::string> whyNoDeviceMemoryBuffers();

// A GL buffer of `bytes` backed by CUDA device memory; throws std::runtime_error where
// whyNoDeviceMemoryBuffers() says why not.
DeviceMemoryBuffer createDeviceMemoryBuffer(GLsizeiptr bytes);

// What the optional part supplies for the two calls above. Only from registerOptionalParts().
struct DeviceMemoryBuffers {
  std::optional<std::string> (*whyNot)();
  DeviceMemoryBuffer (*create)(GLsizeiptr bytes);
};
void registerDeviceMemoryBuffers(DeviceMemoryBuffers part);

}  // namespace satdof::interop

// shaders/compute/copy.comp — the race's copy ceiling on GL: one 16-byte word read and
// written per invocation, the widest access the SAT passes make, over one bound range of
// the buffers (the caller walks ranges no larger than the GL's storage-block limit). A
// buffer-to-buffer copy (glCopyNamedBufferSubData) is not a bandwidth ceiling on every
// driver: 175 GB/s on the H200's, where a compute shader reads and writes at DRAM speed.
#version 450 core

layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer From { uvec4 from[]; };
layout(std430, binding = 1) writeonly buffer To { uvec4 to[]; };

layout(location = 0) uniform uint uWords;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < uWords; i += stride) to[i] = from[i];
}

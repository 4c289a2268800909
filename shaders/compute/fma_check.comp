#version 430
// shaders/compute/fma_check.comp — for tests/test_gl_compute.cpp: fmaRounded() of
// fma_exact.glsl (the test aliases "compute/fma.glsl" to it) on triples (a, b, c) from
// a buffer, so the emulation is compared with std::fma on any GL, NVIDIA's included.
#include "compute/fma.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Triples { vec4 triples[]; };  // a, b, c, unused
layout(std430, binding = 1) writeonly buffer Results { float results[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= uint(triples.length())) return;
  const vec4 t = triples[i];
  results[i] = fmaRounded(vec4(t.x), vec4(t.y), vec4(t.z)).x;
}

// engine/parts/optional_parts.h — the parts of the engine that a build may lack (today one:
// the CUDA part, the target satdof_engine_cuda in engine/CMakeLists.txt, built only with a
// CUDA toolkit). The engine lists what such a part offers in every build (the `cuda`
// backend and DoF, greyed out with "this build has no CUDA"), and the part, where the build
// has it, fills those entries and hooks in:
//   registerComputeBackend   engine/backends/compute_backend.h
//   registerDofImplementation  engine/dof/dof_implementation.h
//   registerLayeredCudaPath  engine/dof/layered_cuda_path.h
//   registerDeviceMemoryBuffers  engine/interop/device_memory_buffer.h
// No static initialiser does it (a static library drops objects nothing refers to): every
// lookup of those registries and hooks first calls ensureOptionalParts(), which calls
// registerOptionalParts() once. Exactly one file defines that, picked by CMake: the CUDA
// part's (register_cuda.cpp) or, without one, register_none.cpp.
#pragma once

namespace satdof {

// Fills this build's optional parts into the registries and hooks above; only through
// ensureOptionalParts(). It must not look anything up in them (that would call it again).
void registerOptionalParts();

// registerOptionalParts(), once, by the first caller (the others wait for it).
void ensureOptionalParts();

}  // namespace satdof

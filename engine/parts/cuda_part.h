// engine/parts/cuda_part.h — what each file of the CUDA part (satdof_engine_cuda) registers,
// called by register_cuda.cpp's registerOptionalParts().
#pragma once

namespace satdof::cuda_part {

void registerBackend();              // the `cuda` compute backend, backends/cuda_backend.cpp
void registerDof();                  // the `cuda` DoF, dof/cuda_dof.cpp
void registerLayeredPath();          // the layered DoF's CUDA path, dof/layered_dof_cuda.cpp
void registerDeviceMemoryBuffers();  // GL buffers of CUDA memory, interop/cuda_device_memory.cpp

}  // namespace satdof::cuda_part

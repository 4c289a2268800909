// engine/parts/register_cuda.cpp — registerOptionalParts() of a build with the CUDA part
// (satdof_engine_cuda): every file of it registers what it offers.
#include "engine/parts/cuda_part.h"
#include "engine/parts/optional_parts.h"

namespace satdof {

void registerOptionalParts() {
  cuda_part::registerBackend();
  cuda_part::registerDof();
  cuda_part::registerLayeredPath();
  cuda_part::registerDeviceMemoryBuffers();
}

}  // namespace satdof

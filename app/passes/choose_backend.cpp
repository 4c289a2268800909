// app/passes/choose_backend.cpp — picks the SAT backend and says why, in one line.
#include "passes/sat_backend.h"

namespace satdof {

BackendChoice chooseSatBackend(BackendRequest request, const Context& context,
                               const std::string& scanVariant) {
  if (request == BackendRequest::Cpu)
    return {createCpuSatBackend(), "CPU backend: requested with --backend cpu"};

  std::string whyNot;
  if (auto cuda = createCudaSatBackend(scanVariant, whyNot))
    return {std::move(cuda), "CUDA backend: GL (" + context.renderer + ") and CUDA share the GPU"};

  if (request == BackendRequest::Cuda)
    throw BackendUnavailable("--backend cuda is not possible here: " + whyNot);
  return {createCpuSatBackend(), "CPU backend: " + whyNot};
}

#ifndef SATDOF_HAVE_CUDA
std::unique_ptr<SatBackend> createCudaSatBackend(const std::string&, std::string& whyNot) {
  whyNot = "this build has no CUDA support (no CUDA toolkit at configure time)";
  return nullptr;
}
#endif

}  // namespace satdof

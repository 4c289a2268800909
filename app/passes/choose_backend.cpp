// app/passes/choose_backend.cpp — picks the compute backend and says why, in one line.
#include "passes/compute_backend.h"

namespace satdof {

BackendChoice chooseComputeBackend(BackendRequest request, const Context& context,
                                   const std::string& scanVariant) {
  if (request == BackendRequest::Cpu)
    return {createCpuComputeBackend(), "CPU backend: requested with --backend cpu"};

  std::string whyNot;
  if (auto cuda = createCudaComputeBackend(scanVariant, whyNot))
    return {std::move(cuda), "CUDA backend: GL (" + context.renderer + ") and CUDA share the GPU"};

  if (request == BackendRequest::Cuda)
    throw BackendUnavailable("--backend cuda is not possible here: " + whyNot);
  return {createCpuComputeBackend(), "CPU backend: " + whyNot};
}

#ifndef SATDOF_HAVE_CUDA
std::unique_ptr<ComputeBackend> createCudaComputeBackend(const std::string&, std::string& whyNot) {
  whyNot = "this build has no CUDA support (no CUDA toolkit at configure time)";
  return nullptr;
}
#endif

}  // namespace satdof

// engine/backends/cuda_unavailable.cpp — the cuda backend's registry entry in a build without
// a CUDA toolkit: it offers nothing and says why it cannot run (short: the panel shows
// "CPU backend: " and it in one line).
#include "engine/backends/compute_backend.h"

namespace satdof {

std::vector<BackendOption> cudaBackendOptions() { return {}; }
std::vector<FilterImplementation> cudaFilterImplementations() { return {}; }

std::string cudaWhyNotOnThisMachine() { return "this build has no CUDA"; }  // no toolkit at configure time

std::unique_ptr<ComputeBackend> createCudaBackend(const Context&, const BackendSelections&,
                                                  std::string& reason) {
  reason = cudaWhyNotOnThisMachine();
  return nullptr;
}

}  // namespace satdof

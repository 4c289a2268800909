// engine/dof/cuda_dof_unavailable.cpp — the `cuda` DoF entry in a build without a CUDA
// toolkit: listed (so the panel shows it, greyed out), never created.
#include <stdexcept>

#include "engine/dof/dof_implementation.h"

namespace satdof {

namespace {
const char* const kWhy = "this build has no CUDA toolkit (configure with one to get the CUDA DoF)";
}

std::optional<std::string> cudaDofWhyNot(const ComputeBackend&) { return kWhy; }

std::unique_ptr<DofImplementation> createCudaDof(const std::filesystem::path&, ComputeBackend&) {
  throw std::runtime_error(kWhy);
}

}  // namespace satdof

// cuda/cuda_diagnosis.cpp — see satdof/cuda_diagnosis.h.
#include "satdof/cuda_diagnosis.h"

#include <cuda_runtime_api.h>

namespace satdof {
namespace {

std::string version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

std::string cudaUnavailableReason() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);    // 0 when libcuda cannot be loaded
  cudaRuntimeGetVersion(&runtime);  // this build's
  cudaGetLastError();
  if (e == cudaSuccess && devices > 0) return {};
  if (driver == 0) return "no NVIDIA GPU or driver found";  // libcuda missing, or no driver loaded
  if (e == cudaSuccess || e == cudaErrorNoDevice) return "NVIDIA driver finds no GPU";
  if (e == cudaErrorInsufficientDriver)  // the driver's CUDA version < the build's
    return "driver too old (" + version(driver) + " < " + version(runtime) + ")";
  return std::string("CUDA cannot start: ") + cudaGetErrorString(e);
}

std::string glNotOnCudaGpuReason(std::string_view renderer) {
  // "llvmpipe (LLVM 15.0.6, 256 bits)": the name without its details.
  const std::string_view name = renderer.substr(0, renderer.find(" ("));
  return "GL is on " + std::string(name.empty() ? "another GPU" : name) + ", not NVIDIA";
}

}  // namespace satdof

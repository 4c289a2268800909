// satdof/cuda_diagnosis.h — why CUDA cannot run here, in one short line that tells the
// cases apart: no NVIDIA driver at all (libcuda missing: no NVIDIA GPU, or its driver not
// installed), a driver that finds no GPU, a driver too old for this build (both versions),
// a GL context on another GPU (no CUDA-GL interop), or another start-up error. The app's
// panel and stdout and the GPU tests' skip lines use these same words, short enough that
// "CPU backend: " and the line fit the panel's one line at 1280x720 (43 characters):
//   no NVIDIA GPU or driver found      (libcuda missing, or no driver loaded)
//   NVIDIA driver finds no GPU
//   driver too old (12.4 < 13.0)       (the CUDA version the driver runs < the build's)
//   GL is on llvmpipe, not NVIDIA      (interop needs the GL context on the NVIDIA GPU)
#pragma once

#include <string>
#include <string_view>

namespace satdof {

// Empty when a CUDA device is usable; else the one line. Clears CUDA's sticky error.
std::string cudaUnavailableReason();

// The line for a GL context whose renderer (GL_RENDERER) is not on the NVIDIA GPU.
std::string glNotOnCudaGpuReason(std::string_view renderer);

}  // namespace satdof

// app/passes/sat_backend.h — who computes the summed-area table of the frame.
//
// The SAT pass owns the GL objects (the scene's colour texture is its input, an SSBO of
// one uvec4 per pixel its output); a backend fills that SSBO from that texture:
//   * CudaSatBackend: CUDA-GL interop, multi-block scans on the GPU, no host round trip;
//   * CpuSatBackend:  read back, reference SAT on the CPU, upload (the fallback).
// Both produce the same bytes, so the DoF pass cannot tell them apart.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glad/gl.h>

#include "context/context.h"

namespace satdof {

class StageHistory;

class SatBackend {
 public:
  virtual ~SatBackend() = default;
  virtual std::string_view name() const = 0;
  // Called after every (re)allocation of the GL objects: re-register what needs it.
  virtual void attach(GLuint colourTexture, GLuint satBuffer, Extent extent) = 0;
  // Called before the GL objects are deleted: unregister them.
  virtual void detach() = 0;
  // Fills the SAT buffer from the colour texture (both as attached).
  virtual void compute() = 0;
  // Adds finished frames' stage times (map/unmap, SAT) to `history`; never blocks unless
  // `wait` is set.
  virtual void collectTimes(StageHistory& history, bool wait) = 0;

  // Scan variants this backend can switch between (empty for the CPU backend).
  virtual std::vector<std::string> scanVariants() const { return {}; }
  virtual std::string scanVariant() const { return {}; }
  // Applies from the next compute(); false if the name is unknown.
  virtual bool setScanVariant(const std::string&) { return false; }
};

enum class BackendRequest { Auto, Cuda, Cpu };

struct BackendChoice {
  std::unique_ptr<SatBackend> backend;
  std::string reason;  // one line: which backend and why, shown in the log and the UI
};

// The requested backend, or with Auto the best one that works with this GL context.
// Throws BackendUnavailable when CUDA was requested explicitly but cannot run.
BackendChoice chooseSatBackend(BackendRequest request, const Context& context,
                               const std::string& scanVariant);

struct BackendUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::unique_ptr<SatBackend> createCpuSatBackend();
// Empty result with `whyNot` filled when CUDA cannot serve this GL context.
std::unique_ptr<SatBackend> createCudaSatBackend(const std::string& scanVariant, std::string& whyNot);

}  // namespace satdof

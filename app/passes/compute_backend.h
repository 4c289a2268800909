// app/passes/compute_backend.h — who runs the compute part of the frame: the optional
// 2D convolution of the scene colour and the summed-area table of the result.
//
// The compute pass owns the GL objects (ComputeTargets); a backend fills them:
//   * CUDA: CUDA-GL interop, the convolution and scan registries on the GPU, everything
//     mapped in one call per frame, no host round trip;
//   * CPU:  read back, the reference library, upload (the fallback).
// Both write the same bytes, so the passes after them cannot tell them apart.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glad/gl.h>

#include "context/context.h"
#include "passes/filter_settings.h"

namespace satdof {

class StageHistory;

struct ComputeTargets {
  GLuint sceneColour = 0;  // RGBA8 input (read)
  GLuint filtered = 0;     // RGBA8: implementation A's output, the SAT's input when filtering
  GLuint compare = 0;      // RGBA8: implementation B's output (comparison only)
  GLuint sat = 0;          // SSBO, one uvec4 per pixel (satdof/sat.h layout)
  Extent extent;
};

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  virtual std::string_view name() const = 0;
  // After every (re)allocation of the targets: register what needs it.
  virtual void attach(const ComputeTargets& targets) = 0;
  // Before the targets are deleted: unregister them.
  virtual void detach() = 0;
  // Filters (when `filter` is set) into targets.filtered — and with settings.compare into
  // targets.compare — then builds the SAT of the filtered image, or of the scene colour.
  // `filter` has been validated and is supported by the chosen implementations.
  virtual void compute(const FilterSettings& settings, const Filter* filter) = 0;
  // Hands finished frames' stage times to `history`; never blocks unless `wait`.
  virtual void collectTimes(StageHistory& history, bool wait) = 0;

  virtual std::vector<FilterImplementation> filterImplementations() const = 0;
  // Scan variants this backend can switch between (empty for the CPU backend).
  virtual std::vector<std::string> scanVariants() const { return {}; }
  virtual std::string scanVariant() const { return {}; }
  // Applies from the next compute(); false if the name is unknown.
  virtual bool setScanVariant(const std::string&) { return false; }
};

enum class BackendRequest { Auto, Cuda, Cpu };

struct BackendChoice {
  std::unique_ptr<ComputeBackend> backend;
  std::string reason;  // one line: which backend and why, shown in the log and the UI
};

struct BackendUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The requested backend, or with Auto the best one that works with this GL context.
// Throws BackendUnavailable when CUDA was requested explicitly but cannot run.
BackendChoice chooseComputeBackend(BackendRequest request, const Context& context,
                                   const std::string& scanVariant);

std::unique_ptr<ComputeBackend> createCpuComputeBackend();
// Empty result with `whyNot` filled when CUDA cannot serve this GL context.
std::unique_ptr<ComputeBackend> createCudaComputeBackend(const std::string& scanVariant,
                                                         std::string& whyNot);

}  // namespace satdof

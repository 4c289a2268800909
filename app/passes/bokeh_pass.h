// app/passes/bokeh_pass.h — bokeh highlights over the DoF image: on the cuda backend the
// library's pass (satdof/bokeh.h: compaction and radix sort in the frame) writes the sprite
// list and a draw-indirect command into GL buffers; GL draws every sprite as a disc or
// hexagon the size of its circle of confusion, added to the DoF output. The counts are
// read back three frames late (a ring), so nothing waits.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "frame/frame_targets.h"
#include "gl/handles.h"
#include "profiling/profiler.h"
#include "satdof/reference/bokeh.h"

namespace satdof {

class ComputeBackend;

struct BokehSettings {
  bool enabled = true;
  reference::BokehSettings select;  // threshold, min radius, cap
  int shape = 0;                    // 0 disc, 1 hexagon
  float intensity = 8.0f;
};

struct BokehCounts {
  std::uint32_t found = 0, drawn = 0;  // highlights, and sprites after the cap
};

class BokehPass {
 public:
  BokehPass(const std::filesystem::path& shaderDir, ComputeBackend& backend);
  ~BokehPass();
  // Empty when this backend can run the pass; else why not (one line).
  static std::optional<std::string> whyNot(const ComputeBackend& backend);
  void attach(const Targets& targets);
  void reloadShaders(const std::filesystem::path& shaderDir);
  // After the DoF: the highlights of `source` (the image the SAT blurred).
  void run(const BokehSettings& settings, const reference::CocRamp& ramp, GLuint source, Profiler& profiler);
  std::optional<BokehCounts> counts() const { return counts_; }

 private:
  struct Cuda;  // the CUDA half (bokeh_pass.cpp), absent without a toolkit
  std::unique_ptr<Cuda> cuda_;
  Targets targets_;
  gl::Program program_;
  gl::VertexArray empty_;
  std::array<gl::Buffer, kBokehSlots> countRing_;  // copies of each frame's command
  std::array<bool, kBokehSlots> pending_{};
  int slot_ = 0;
  std::optional<BokehCounts> counts_;
};

}  // namespace satdof

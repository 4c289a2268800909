// engine/passes/bokeh_pass.h — bokeh highlights over the DoF image, on every backend. The
// compute backend builds the sprite list and a draw-indirect command in the frame's GL
// buffers (ComputeRequest::bokeh: CUDA compaction and radix sort inside the frame's one
// mapping; GLSL compute shaders; or the CPU reference, uploaded); this pass draws every
// sprite as the aperture's shape (round, or a polygon of its blades inscribed in the circle
// of confusion) the size of its circle of confusion, from that command (no
// host round trip on the GPU backends). The sprites add up in a half-float image of the
// pass's own, which is then added to the DoF output once: a sprite spreads its highlight
// pixel over its whole circle, often well under one grey level a pixel, which an 8-bit
// target would round away sprite by sprite (a lamp of forty highlight pixels at a blur
// radius of 30 vanished). The counts are read back three frames late (a ring), so nothing
// waits.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>

#include "engine/backends/compute_backend.h"
#include "engine/frame/frame_targets.h"
#include "engine/gl/handles.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/bokeh.h"

namespace satdof {

constexpr int kMinBlades = 3, kMaxBlades = 12;

struct BokehSettings {
  bool enabled = true;
  reference::BokehSettings select;  // threshold, min radius, cap
  int blades = 0;                   // the aperture's blades: 0 round, else kMinBlades..kMaxBlades
  float intensity = 8.0f;
};

struct BokehCounts {
  std::uint32_t found = 0, drawn = 0;  // highlights, and sprites after the cap
};

class BokehPass {
 public:
  explicit BokehPass(const std::filesystem::path& shaderDir);
  void attach(const Targets& targets);
  void reloadShaders(const std::filesystem::path& shaderDir);
  // Before the compute backend runs: what it is to build this frame (the cap clamped to
  // the sprite buffer, this frame's command slot). Collects the counts of three frames ago.
  BokehRequest request(const BokehSettings& settings, const reference::CocRamp& ramp);
  // After the DoF: draws the sprites of the last request onto the DoF output.
  void draw(const BokehSettings& settings, Profiler& profiler);
  std::optional<BokehCounts> counts() const { return counts_; }
  // The last request drawn (verify reads its list back).
  std::optional<BokehRequest> lastRequest() const { return last_; }

 private:
  Targets targets_;
  gl::Program program_;     // the sprites, into sum_
  gl::Program addProgram_;  // sum_ added onto the DoF output
  gl::Texture sum_;         // RGBA16F, the frame's size
  gl::Framebuffer sumFramebuffer_;
  Extent sumExtent_;
  gl::VertexArray empty_;
  std::array<gl::Buffer, kBokehSlots> countRing_;  // copies of each frame's command
  std::array<bool, kBokehSlots> pending_{};
  int slot_ = 0;
  std::optional<BokehCounts> counts_;
  std::optional<BokehRequest> requested_, last_;
};

}  // namespace satdof

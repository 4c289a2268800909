// engine/passes/depth_probe.h — reads the linear depth (the R32F target) at a few pixels
// without stalling: each frame's reads go into a pixel-pack buffer and are collected a
// frame later, when the GPU has long written them (as the profiler and the view pass do).
// Used for the depth under the cursor and for focusing (focus_controller.h).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "engine/basic_types.h"
#include "engine/basic_types.h"
#include "engine/gl/handles.h"

namespace satdof {

class DepthProbe {
 public:
  static constexpr int kMaxPixels = 4;
  struct Reading {
    Pixel pixel;
    float depth = 0;
  };

  DepthProbe();
  // Queues reads of `depthTexture` (of size `extent`) at up to kMaxPixels pixels (origin
  // top-left; pixels outside the image are skipped). Collects the previous frame's.
  void request(GLuint depthTexture, Extent extent, std::span<const Pixel> pixels);
  // The readings that arrived since the last call, oldest first.
  std::vector<Reading> take();

 private:
  struct Slot {
    gl::Buffer buffer;
    std::vector<Pixel> pixels;
  };
  void collect(Slot& slot);
  std::array<Slot, 2> slots_;
  int current_ = 0;
  std::vector<Reading> ready_;
};

}  // namespace satdof

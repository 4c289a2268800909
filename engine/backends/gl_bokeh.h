// engine/backends/gl_bokeh.h — the gl-compute backend's bokeh sprite list
// (satdof/reference/bokeh.h, the same bytes), in GLSL compute shaders:
//   select   bokeh_flags.comp: each segment of kSegment pixels of a row, one work group,
//            marks its highlights and counts them; bokeh_offsets.comp: one work group
//            scans the counts (each segment's offset; the count before the cap);
//            bokeh_compact.comp: each highlight to its place in pixel order, below the
//            cap, as (depth key, pixel index): a stream compaction;
//   sort     bokeh_rank.comp: each kept highlight's rank, the highlights that come before
//            it (back to front, ties in pixel order), counted by comparing every pair;
//   sprites  bokeh_emit.comp: each highlight as the sprite at its rank, and the
//            draw-indirect command in the request's slot, read by the shared GL draw
//            (engine/passes/bokeh_pass.h).
// Sections "bokeh select", "bokeh sort", "bokeh sprites" on GL timestamps.
#pragma once

#include <filesystem>
#include <string_view>

#include "engine/backends/compute_backend.h"
#include "engine/gl/handles.h"

namespace satdof {

class GlBokeh {
 public:
  static constexpr std::string_view kMethod =
      "GLSL compute: segment counts, their scan and a stream compaction in pixel order; a rank "
      "sort (every pair compared)";

  // Pixels of a row a segment: the select and compaction passes' work group takes four
  // pixels an invocation.
  static constexpr int kSegment = 1024;

  explicit GlBokeh(const std::filesystem::path& shaderDir);
  void attach(const Targets& targets);
  void detach();
  // The list of `colour` (the image the SAT read) and the targets' depth.
  void run(GLuint colour, const BokehRequest& request, Profiler& profiler);

 private:
  Targets targets_;
  gl::Program select_, offsets_, compact_, rank_, emit_;
  gl::Buffer flags_, segments_, counts_;  // bokeh_common.glsl's buffers
  gl::Buffer keys_, pixels_, ranks_;  // the kept highlights in pixel order, and their ranks
};

}  // namespace satdof

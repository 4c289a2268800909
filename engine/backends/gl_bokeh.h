// engine/backends/gl_bokeh.h — the gl-compute backend's bokeh sprite list
// (satdof/reference/bokeh.h, the same bytes), in GLSL compute shaders built on the
// backend's own multi-block scan: every scan below is the backend's SAT passes run over
// a texture of one-hot flags, read as a row-major exclusive scan (bokeh_common.glsl).
//   select   bokeh_flags.comp: four pixels per RGBA8 texel, 1 per highlight; its SAT;
//            bokeh_compact.comp: each highlight to its place in pixel order, below the
//            cap, as (depth key, pixel index); the count before the cap;
//   sort     16 passes of a stable 2-bit split (bokeh_digits.comp one-hot digits, their
//            SAT, bokeh_split.comp scatter), lowest digit first: back to front, ties in
//            pixel order;
//   sprites  bokeh_emit.comp: the sprites and the draw-indirect command in the request's
//            slot, read by the shared GL draw (engine/passes/bokeh_pass.h).
// Sections "bokeh select", "bokeh sort", "bokeh sprites" on GL timestamps.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>

#include "engine/backends/compute_backend.h"
#include "engine/gl/handles.h"

namespace satdof {

class GlBokeh {
 public:
  static constexpr std::string_view kMethod =
      "GLSL compute: flags, the backend's scan (its SAT passes over them), stable compaction, a "
      "rank sort (every pair compared)";

  // The uint32 SAT of an RGBA8 texture of `extent` into `table` (the backend's passes).
  using SatOfTexture = std::function<void(GLuint texture, Extent extent, GLuint table)>;

  explicit GlBokeh(const std::filesystem::path& shaderDir);
  // The extent whose SAT run() asks for, beside the frame's (the backend sizes its scan's
  // scratch for it).
  static Extent flagExtent(Extent frame) { return {(frame.width + 3) / 4, frame.height}; }

  void attach(const Targets& targets);
  void detach();
  // The list of `colour` (the image the SAT read) and the targets' depth.
  void run(GLuint colour, const BokehRequest& request, const SatOfTexture& sat, Profiler& profiler);

 private:
  Targets targets_;
  gl::Program flags_, compact_, rank_, emit_;
  gl::Texture flagTexture_;
  gl::Buffer flagSat_, counts_;
  gl::Buffer keys_, pixels_, ranks_;  // the kept highlights in pixel order, and their ranks
};

}  // namespace satdof

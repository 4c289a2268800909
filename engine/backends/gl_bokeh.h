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
      "stable 2-bit split sort on the same scan";
  // The sort's digit texture is this wide (and kMaxBokehSprites / this tall).
  static constexpr int kSortWidth = 256;

  // The uint32 SAT of an RGBA8 texture of `extent` into `table` (the backend's passes).
  using SatOfTexture = std::function<void(GLuint texture, Extent extent, GLuint table)>;

  explicit GlBokeh(const std::filesystem::path& shaderDir);
  // The extents whose SATs run() asks for, beside the frame's (the backend sizes its
  // scan's scratch for them).
  static Extent flagExtent(Extent frame) { return {(frame.width + 3) / 4, frame.height}; }
  static Extent sortExtent() { return {kSortWidth, kMaxBokehSprites / kSortWidth}; }

  void attach(const Targets& targets);
  void detach();
  // The list of `colour` (the image the SAT read) and the targets' depth.
  void run(GLuint colour, const BokehRequest& request, const SatOfTexture& sat, Profiler& profiler);

 private:
  Targets targets_;
  gl::Program flags_, compact_, digits_, split_, emit_;
  gl::Texture flagTexture_, digitTexture_;
  gl::Buffer flagSat_, digitSat_, counts_;
  gl::Buffer keys_[2], values_[2];  // ping-pong between sort passes
};

}  // namespace satdof

// app/frame/frame_targets.h — the one owner of the GPU images and buffers that the
// stages of a frame hand to each other:
//
//   scene colour  RGBA8  scene pass -> filter / SAT
//   depth         R32F   scene pass -> DoF (linear view distance)
//   filtered      RGBA8  filter -> SAT and the filtered view (compare: a backend's second
//                        filter, FilterSettings::compare; the app compares whole
//                        configurations instead, compare_pipeline.h)
//   sat           SSBO   SAT -> DoF, in the chosen format (satdof/sat_format.h sizes it)
//   dof output    RGBA8  DoF -> view / present
//   near / far field  RGBA8 + their uint32 SATs: only for a DoF that asks for layers
//                 (the layered DoF: split pass -> backend's SATs -> composite)
//
// Allocated on resize (or when the SAT format changes); the stages and compute backends
// only ever see the handles (Targets). A backend registers what it needs after each
// (re)allocation and unregisters before the next (App::reallocate orders that).
#pragma once

#include "context/context.h"
#include "gl/handles.h"
#include "satdof/sat_format.h"

namespace satdof {

// The handles, named; what a stage or backend is given.
struct Targets {
  GLuint sceneColour = 0;
  GLuint depth = 0;
  GLuint filtered = 0;  // implementation A's output, the SAT's input when filtering
  GLuint compare = 0;   // a second implementation's output (FilterSettings::compare)
  GLuint sat = 0;
  GLuint dofOutput = 0;
  GLuint dofFramebuffer = 0;  // dofOutput as colour attachment 0 (present, read back)
  // The layered DoF's fields (0 unless allocated with layers): premultiplied colour and
  // weight, and the SAT of each in the uint32 format.
  GLuint nearField = 0, farField = 0, nearSat = 0, farSat = 0;
  GLuint nearTileRadius = 0;  // R32I, one texel per 16x16 tile: the dilated near radius
  // Bokeh highlights: the sprite list (satdof/reference/bokeh.h's BokehSprite, room for
  // kMaxBokehSprites) and a ring of kBokehSlots draw-indirect commands (satdof/bokeh.h).
  GLuint bokehSprites = 0, bokehCommands = 0;
  Extent extent;
  SatFormat satFormat = SatFormat::Uint32;
};

inline constexpr int kMaxBokehSprites = 65536;
inline constexpr int kBokehSlots = 4;
inline constexpr int kBokehCommandBytes = 32;  // BokehCommand, padded

class FrameTargets {
 public:
  // Throws (one line, before allocating) if a frame of this size cannot be served by this
  // GL context in this format: the DoF shaders read the whole table as one storage block.
  static void checkExtent(Extent extent, SatFormat format);
  // (Re)allocates everything for `extent` and `format` (and the fields, with layers).
  void allocate(Extent extent, SatFormat format, bool layers = false);
  const Targets& targets() const { return targets_; }

 private:
  gl::Texture sceneColour_, depth_, filtered_, compare_, dofOutput_;
  gl::Buffer sat_;
  gl::Texture nearField_, farField_;
  gl::Buffer nearSat_, farSat_;
  gl::Texture nearTileRadius_;
  gl::Buffer bokehSprites_, bokehCommands_;
  gl::Framebuffer dofFramebuffer_;
  Targets targets_;
};

}  // namespace satdof

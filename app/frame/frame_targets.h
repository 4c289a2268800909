// app/frame/frame_targets.h — the one owner of the GPU images and buffers that the stages
// of a frame hand to each other, declared in one table (kFrameTargets below): each
// target's name, storage, size, which stage writes it, which read it, and how CUDA maps
// it. The allocation (FrameTargets::allocate) and the CUDA interop session's
// registrations (interop/session.h) are derived from that table; the stages and compute
// backends only ever see the handles (Targets).
//
// Allocated on resize (or when the SAT format changes). A backend registers what it needs
// after each (re)allocation and unregisters before the next (Pipeline::reallocate orders
// that).
#pragma once

#include <array>
#include <cstddef>

#include "basic_types.h"
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
inline constexpr int kBokehSpriteBytes = 32;   // BokehSprite
inline constexpr int kNearTileSize = 16;       // the layered DoF's tiles

// Every target, in kFrameTargets' order (CUDA code names them: interop::Target).
enum class TargetId {
  SceneColour, Depth, Filtered, Compare, Sat, DofOutput,
  NearField, FarField, NearSat, FarSat, NearTileRadius,
  BokehSprites, BokehCommands,
  Count
};

// How a target's storage is sized.
enum class TargetSize {
  Frame,           // an image of the frame's size
  NearTiles,       // an image of one texel per kNearTileSize^2 tile
  SatTable,        // a buffer holding the table in the frame's SAT format
  Uint32SatTable,  // a buffer holding a table in the uint32 format
  BokehSprites,    // kMaxBokehSprites sprites
  BokehCommands,   // kBokehSlots draw-indirect commands
};

// How CUDA registers a target (cudaGraphicsRegisterFlags*).
enum class CudaAccess {
  Surface,       // an image read and written through surfaces (SurfaceLoadStore)
  WriteDiscard,  // a buffer CUDA rewrites whole
  ReadWrite,     // a buffer CUDA reads and writes in part
};

struct TargetSpec {
  TargetId id;
  const char* name;
  GLenum format;  // an image's internal format; 0: a buffer (dynamic storage: the CPU
                  // backend uploads with glNamedBufferSubData)
  TargetSize size;
  bool layersOnly;  // allocated only for a DoF that asks for the near/far fields
  const char* writer;
  const char* readers;
  CudaAccess cuda;
  GLuint Targets::*handle;
};

// The frame's targets, the one place that says what exists.
inline constexpr std::array<TargetSpec, std::size_t(TargetId::Count)> kFrameTargets{{
    {TargetId::SceneColour, "scene colour", GL_RGBA8, TargetSize::Frame, false, "scene pass (B: copied from A)",
     "filter, SAT, bokeh, views", CudaAccess::Surface, &Targets::sceneColour},
    {TargetId::Depth, "depth", GL_R32F, TargetSize::Frame, false, "scene pass (linear view distance)",
     "DoF, bokeh, depth probe, views", CudaAccess::Surface, &Targets::depth},
    {TargetId::Filtered, "filtered", GL_RGBA8, TargetSize::Frame, false, "filter (implementation A)",
     "SAT, DoF (layered split), filtered view", CudaAccess::Surface, &Targets::filtered},
    {TargetId::Compare, "compare", GL_RGBA8, TargetSize::Frame, false, "a backend's second filter",
     "(FilterSettings::compare)", CudaAccess::Surface, &Targets::compare},
    {TargetId::Sat, "sat", 0, TargetSize::SatTable, false, "SAT", "DoF, SAT view, verify", CudaAccess::WriteDiscard,
     &Targets::sat},
    {TargetId::DofOutput, "dof output", GL_RGBA8, TargetSize::Frame, false, "DoF, then the bokeh sprites",
     "views, present, read back", CudaAccess::Surface, &Targets::dofOutput},
    {TargetId::NearField, "near field", GL_RGBA8, TargetSize::Frame, true, "layered DoF split",
     "the backend's field SATs", CudaAccess::Surface, &Targets::nearField},
    {TargetId::FarField, "far field", GL_RGBA8, TargetSize::Frame, true, "layered DoF split",
     "the backend's field SATs", CudaAccess::Surface, &Targets::farField},
    {TargetId::NearSat, "near sat", 0, TargetSize::Uint32SatTable, true, "the backend's field SATs",
     "layered DoF composite", CudaAccess::WriteDiscard, &Targets::nearSat},
    {TargetId::FarSat, "far sat", 0, TargetSize::Uint32SatTable, true, "the backend's field SATs",
     "layered DoF composite", CudaAccess::WriteDiscard, &Targets::farSat},
    {TargetId::NearTileRadius, "near tile radius", GL_R32I, TargetSize::NearTiles, true, "layered DoF split",
     "layered DoF composite", CudaAccess::Surface, &Targets::nearTileRadius},
    {TargetId::BokehSprites, "bokeh sprites", 0, TargetSize::BokehSprites, false,
     "backend (compaction + sort)", "bokeh draw", CudaAccess::WriteDiscard, &Targets::bokehSprites},
    {TargetId::BokehCommands, "bokeh commands", 0, TargetSize::BokehCommands, false, "backend",
     "bokeh draw (indirect)", CudaAccess::ReadWrite, &Targets::bokehCommands},
}};

class FrameTargets {
 public:
  // Throws (one line, before allocating) if a frame of this size cannot be served by this
  // GL context in this format: the DoF shaders read the whole table as one storage block.
  static void checkExtent(Extent extent, SatFormat format);
  // (Re)allocates everything for `extent` and `format` (and the fields, with layers).
  void allocate(Extent extent, SatFormat format, bool layers = false);
  const Targets& targets() const { return targets_; }

 private:
  std::array<gl::Texture, std::size_t(TargetId::Count)> images_;
  std::array<gl::Buffer, std::size_t(TargetId::Count)> buffers_;
  gl::Framebuffer dofFramebuffer_;
  Targets targets_;
};

}  // namespace satdof

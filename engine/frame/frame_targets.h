// engine/frame/frame_targets.h — the one owner of the GPU images and buffers that the stages
// of a frame hand to each other, declared in one table (kFrameTargets below): each
// target's name, storage, size, which stage writes it, which read it, and how CUDA maps
// it. The allocation (FrameTargets::allocate) and the CUDA interop session's
// registrations (engine/interop/session.h) are derived from that table; the stages and compute
// backends only ever see the handles (Targets).
//
// Allocated on resize (or when the SAT format changes). A backend registers what it needs
// after each (re)allocation and unregisters before the next (Pipeline::reallocate orders
// that).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "engine/basic_types.h"
#include "engine/gl/handles.h"
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
  GLuint nearRadius = 0;      // R16I: each pixel's own near radius (0 unless blurred near)
  GLuint nearReach = 0;       // R16I: the largest near radius whose box reaches each pixel
  // See-through only: the first layer's pixels behind the focal plane (colour, 255) and
  // their uint32 SAT.
  GLuint farSide = 0, farSideSat = 0;
  // Linear light only (see-through-linear): the image in dithered linear bytes
  // (reference::splitLayers) and its SAT, the composite's textbook box: uint32 (the buffer's
  // size), or where the DoF asks for it uint21x3 (half the bytes; no weight, which is 255
  // everywhere; exact for boxes of radius <= kUint21x3MaxRadius).
  GLuint linearColour = 0, linearColourSat = 0;
  SatFormat linearColourSatFormat = SatFormat::Uint32;
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
  NearField, FarField, NearSat, FarSat, NearTileRadius, NearRadius, NearReach, FarSide, FarSideSat,
  LinearColour, LinearColourSat,
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

// Which of the DoF's own targets a frame holds: none, the layered DoF's fields, those and
// the see-through DoF's far side, or all those and the image in linear light
// (DofEntry::fields).
enum class DofFields { None, Layers, SeeThrough, SeeThroughLinear };

struct TargetSpec {
  TargetId id;
  const char* name;
  GLenum format;  // an image's internal format; 0: a buffer (dynamic storage, where GL
                  // allocates it: the host bokeh list is written with glNamedBufferSubData;
                  // the tables, which may be imported, only by copies: gl::BufferUploader)
  TargetSize size;
  DofFields from;  // allocated for a DoF whose fields are this or more (None: always)
  const char* writer;
  const char* readers;
  CudaAccess cuda;
  GLuint Targets::*handle;
};

// The frame's targets, the one place that says what exists.
inline constexpr std::array<TargetSpec, std::size_t(TargetId::Count)> kFrameTargets{{
    {TargetId::SceneColour, "scene colour", GL_RGBA8, TargetSize::Frame, DofFields::None, "scene pass (B: copied from A)",
     "filter, SAT, bokeh, views", CudaAccess::Surface, &Targets::sceneColour},
    {TargetId::Depth, "depth", GL_R32F, TargetSize::Frame, DofFields::None, "scene pass (linear view distance)",
     "DoF, bokeh, depth probe, views", CudaAccess::Surface, &Targets::depth},
    {TargetId::Filtered, "filtered", GL_RGBA8, TargetSize::Frame, DofFields::None, "filter (implementation A)",
     "SAT, DoF (layered split), filtered view", CudaAccess::Surface, &Targets::filtered},
    {TargetId::Compare, "compare", GL_RGBA8, TargetSize::Frame, DofFields::None, "a backend's second filter",
     "(FilterSettings::compare)", CudaAccess::Surface, &Targets::compare},
    {TargetId::Sat, "sat", 0, TargetSize::SatTable, DofFields::None, "SAT", "DoF, SAT view, verify", CudaAccess::WriteDiscard,
     &Targets::sat},
    {TargetId::DofOutput, "dof output", GL_RGBA8, TargetSize::Frame, DofFields::None, "DoF, then the bokeh sprites",
     "views, present, read back", CudaAccess::Surface, &Targets::dofOutput},
    {TargetId::NearField, "near field", GL_RGBA8, TargetSize::Frame, DofFields::Layers, "layered DoF split",
     "the backend's field SATs", CudaAccess::Surface, &Targets::nearField},
    {TargetId::FarField, "far field", GL_RGBA8, TargetSize::Frame, DofFields::Layers, "layered DoF split",
     "the backend's field SATs", CudaAccess::Surface, &Targets::farField},
    {TargetId::NearSat, "near sat", 0, TargetSize::Uint32SatTable, DofFields::Layers, "the backend's field SATs",
     "layered DoF composite", CudaAccess::WriteDiscard, &Targets::nearSat},
    {TargetId::FarSat, "far sat", 0, TargetSize::Uint32SatTable, DofFields::Layers, "the backend's field SATs",
     "layered DoF composite", CudaAccess::WriteDiscard, &Targets::farSat},
    {TargetId::NearTileRadius, "near tile radius", GL_R32I, TargetSize::NearTiles, DofFields::Layers, "layered DoF split",
     "layered DoF composite", CudaAccess::Surface, &Targets::nearTileRadius},
    {TargetId::NearRadius, "near radius", GL_R16I, TargetSize::Frame, DofFields::Layers, "layered DoF split",
     "layered DoF reach passes", CudaAccess::Surface, &Targets::nearRadius},
    {TargetId::NearReach, "near reach", GL_R16I, TargetSize::Frame, DofFields::Layers,
     "layered DoF reach passes (CUDA: before the field SATs)", "layered DoF composite", CudaAccess::Surface,
     &Targets::nearReach},
    {TargetId::FarSide, "far side", GL_RGBA8, TargetSize::Frame, DofFields::SeeThrough, "see-through DoF split",
     "the backend's field SATs", CudaAccess::Surface, &Targets::farSide},
    {TargetId::FarSideSat, "far side sat", 0, TargetSize::Uint32SatTable, DofFields::SeeThrough,
     "the backend's field SATs", "see-through DoF composite", CudaAccess::WriteDiscard, &Targets::farSideSat},
    {TargetId::LinearColour, "linear colour", GL_RGBA8, TargetSize::Frame, DofFields::SeeThroughLinear,
     "see-through DoF split (linear light)", "the backend's field SATs", CudaAccess::Surface, &Targets::linearColour},
    {TargetId::LinearColourSat, "linear colour sat", 0, TargetSize::Uint32SatTable, DofFields::SeeThroughLinear,
     "the backend's field SATs", "see-through DoF composite (linear light)", CudaAccess::WriteDiscard,
     &Targets::linearColourSat},
    {TargetId::BokehSprites, "bokeh sprites", 0, TargetSize::BokehSprites, DofFields::None,
     "backend (compaction + sort)", "bokeh draw", CudaAccess::WriteDiscard, &Targets::bokehSprites},
    {TargetId::BokehCommands, "bokeh commands", 0, TargetSize::BokehCommands, DofFields::None, "backend",
     "bokeh draw (indirect)", CudaAccess::ReadWrite, &Targets::bokehCommands},
}};

// A field image of the DoF's and the SAT built from it (uint32 but for the linear image's,
// Targets::linearColourSatFormat): near and far with layers, the far side where `t` holds
// it (see-through), the linear image where it holds that.
struct FieldTable {
  TargetId field, table;
  GLuint fieldImage, tableBuffer;
  SatFormat format = SatFormat::Uint32;
};
struct FieldTables {  // at most four, on the stack (asked for every frame)
  static constexpr std::size_t kMax = 4;
  std::array<FieldTable, kMax> items;
  std::size_t count = 0;
  const FieldTable* begin() const { return items.data(); }
  const FieldTable* end() const { return items.data() + count; }
};
inline FieldTables fieldTables(const Targets& t) {
  FieldTables list{{{{TargetId::NearField, TargetId::NearSat, t.nearField, t.nearSat},
                     {TargetId::FarField, TargetId::FarSat, t.farField, t.farSat}}},
                   2};
  if (t.farSide) list.items[list.count++] = {TargetId::FarSide, TargetId::FarSideSat, t.farSide, t.farSideSat};
  if (t.linearColour)
    list.items[list.count++] = {TargetId::LinearColour, TargetId::LinearColourSat, t.linearColour, t.linearColourSat,
                                t.linearColourSatFormat};
  return list;
}

// Where the frame's SAT tables live: CUDA memory that GL imports (2 MiB pages: CUDA
// writes it faster, engine/interop/device_memory_buffer.h) or GL's own buffers. `description`
// says which, and why not CUDA's.
struct TableMemory {
  bool cuda = false;
  std::string description = "GL memory";
};

// --sat-memory: "auto" (CUDA's where it can be had), "cuda" (or a one-line
// std::runtime_error saying why not), "gl". Needs the GL context current.
TableMemory chooseTableMemory(std::string_view asked);

class FrameTargets {
 public:
  // Throws (one line, before allocating) if a frame of this size cannot be served by this
  // GL context in this format: the DoF shaders read the whole table as one storage block.
  static void checkExtent(Extent extent, SatFormat format);
  // (Re)allocates everything for `extent` and `format`, and the DoF's `fields`.
  void allocate(Extent extent, SatFormat format, DofFields fields = DofFields::None);
  const Targets& targets() const { return targets_; }
  // Where the next allocate puts the SAT tables (GL's buffers until told otherwise).
  void setTableMemory(TableMemory memory) { tableMemory_ = std::move(memory); }
  const TableMemory& tableMemory() const { return tableMemory_; }

 private:
  std::array<gl::Texture, std::size_t(TargetId::Count)> images_;
  std::array<gl::MemoryObject, std::size_t(TargetId::Count)> memories_;  // before buffers_: outlives them
  std::array<gl::Buffer, std::size_t(TargetId::Count)> buffers_;
  TableMemory tableMemory_;
  gl::Framebuffer dofFramebuffer_;
  Targets targets_;
};

}  // namespace satdof

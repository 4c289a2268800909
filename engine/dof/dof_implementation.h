// engine/dof/dof_implementation.h — the depth-of-field stage as a registry: each entry blurs
// every pixel of the scene colour's SAT with a box whose size comes from the pixel's
// depth, and writes the frame's DoF output (engine/frame/frame_targets.h).
//
// Entries (engine/dof/registry.cpp), chosen by name with --dof and in the panel:
//   fragment  a full-screen triangle; the fragment shader does four SAT reads per pixel
//   compute   the same arithmetic as a GL compute shader (every GL 4.3+ GPU)
//   cuda      the same arithmetic as a CUDA kernel on the CUDA backend's interop session
//             (the CUDA part registers it; a build without one lists it, unable to run)
// The three give byte-identical images (tested): the choice is only speed.
//   layered   near and far fields with their own SATs, composited near over far: no
//             colour halos around sharp objects, blurred near objects spread over what is
//             behind them (satdof/reference/layered_dof.h)
//   see-through  layered, with the scene's second layer (ScenePass, depth peeling): a
//             blurred near object's edge shows what lies behind it, as a lens does
//
// An entry may need a particular compute backend (a CUDA kernel needs the CUDA backend's
// interop): `whyNot` says so, and the panel greys it out with that reason.
#pragma once

#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/frame/frame_targets.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/dof.h"

namespace satdof {

class ComputeBackend;

// What the user set: values only, kept by the renderer between frames.
struct DofSettings {
  reference::DofParams params;
  bool showCoc = false;  // draw the circle-of-confusion radius instead of the image
};

// The scene's second layer (ScenePass::secondLayer): what the see-through DoF shows
// behind near objects (0: none this frame, as for a photo: it runs as layered).
struct SecondLayerImages {
  GLuint colour = 0, depth = 0;
  // Its depth where nothing lies behind the first layer (ScenePass::kSkyDepth; infinity:
  // a surface everywhere).
  float emptyDepth = std::numeric_limits<float>::infinity();
};

// What one frame hands the DoF besides its targets: GL images of that frame.
struct DofInputs {
  GLuint source = 0;  // the image the SAT was built from (filtered or scene colour); the
                      // layered DoF splits it (0: the scene colour)
  SecondLayerImages behind;
};

class DofImplementation {
 public:
  virtual ~DofImplementation() = default;
  // After every (re)allocation of the targets (a resize, a new SAT format).
  virtual void attach(const Targets& targets) = 0;
  // Recompiles its shaders for the targets' SAT format; on failure throws and keeps the
  // current program.
  virtual void reloadShaders(const std::filesystem::path& shaderDir) = 0;
  // Work that reads only the scene (its colour, depth and second layer), run before the
  // compute backend's stage on frames whose DoF blurs the scene colour itself (no filter),
  // so that what it writes can join the backend's one GL-CUDA hand-over. run() follows in
  // the same frame; it must also work without this call.
  virtual void beforeBackend(const DofSettings& /*settings*/, const DofInputs& /*inputs*/,
                             Profiler& /*profiler*/) {}
  // Reads targets.depth and targets.sat, writes targets.dofOutput.
  virtual void run(const DofSettings& settings, const DofInputs& inputs, Profiler& profiler) = 0;
};

struct DofEntry {
  std::string_view name;               // --dof NAME, the panel
  std::string_view description = {};   // one line for --help and the panel
  DofFields fields = DofFields::None;  // the targets of its own it needs (FrameTargets::allocate)
  // Why it cannot run with this backend (nullopt: it can).
  std::optional<std::string> (*whyNot)(const ComputeBackend& backend);

  // The backend outlives the implementation (App recreates it when the backend changes).
  std::unique_ptr<DofImplementation> (*create)(const std::filesystem::path& shaderDir, ComputeBackend& backend);
  // The one backend it runs on, checked on the command line before any GL work (empty: any).
  std::string_view onlyBackend = {};
};

std::span<const DofEntry> dofImplementations();
const DofEntry* findDofImplementation(std::string_view name);
const DofEntry& defaultDofImplementation();

// The entries' own functions.
std::unique_ptr<DofImplementation> createFragmentDof(const std::filesystem::path& shaderDir, ComputeBackend& backend);
std::unique_ptr<DofImplementation> createGlslComputeDof(const std::filesystem::path& shaderDir, ComputeBackend& backend);
std::unique_ptr<DofImplementation> createLayeredDof(const std::filesystem::path& shaderDir, ComputeBackend& backend);
std::unique_ptr<DofImplementation> createSeeThroughDof(const std::filesystem::path& shaderDir, ComputeBackend& backend);
std::unique_ptr<DofImplementation> createSeeThroughLinearDof(const std::filesystem::path& shaderDir,
                                                             ComputeBackend& backend);
// The storage buffer linear_light.glsl reads (reference::linearLightTables), layered_dof.cpp.
gl::Buffer createLinearLightTables();

// An optional part's entry (engine/parts/optional_parts.h; the CUDA part's cuda_dof.cpp): it
// replaces the entry listed under its name, whose description it keeps, or is appended.
// From registerOptionalParts(), or, for a new name, from a static initialiser of an
// executable's own file (tests/add_one_more), before the list's first use.
void registerDofImplementation(DofEntry part);

}  // namespace satdof

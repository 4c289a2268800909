// engine/dof/registry.cpp — the depth-of-field implementations (see dof_implementation.h).
#include <stdexcept>
#include <utility>
#include <vector>

#include "satdof/registry.h"
#include "engine/dof/dof_implementation.h"
#include "engine/parts/optional_parts.h"

namespace satdof {
namespace {

std::optional<std::string> anyBackend(const ComputeBackend&) { return std::nullopt; }

// The `cuda` entry as a build without the CUDA part lists it (its part fills it in:
// cuda_part::registerDof): shown (the panel greys it out), never created.
const char* const kNoCuda = "this build has no CUDA toolkit (configure with one to get the CUDA DoF)";
std::optional<std::string> noCuda(const ComputeBackend&) { return kNoCuda; }
std::unique_ptr<DofImplementation> createNoCuda(const std::filesystem::path&, ComputeBackend&) {
  throw std::runtime_error(kNoCuda);
}

// Every build's list; registerDofImplementation fills in the entries of the optional parts
// (engine/parts/optional_parts.h).
std::vector<DofEntry>& listed() {
  static std::vector<DofEntry> list{
      DofEntry{"fragment", "full-screen fragment shader: four SAT reads per pixel", DofFields::None, anyBackend,
               createFragmentDof},
      DofEntry{"compute", "GL compute shader, the same arithmetic: no raster units involved", DofFields::None,
               anyBackend, createGlslComputeDof},
      DofEntry{"cuda", "CUDA kernel on the interop session, the same arithmetic (cuda backend)", DofFields::None,
               noCuda, createNoCuda, "cuda"},
      DofEntry{"layered", "near and far fields, each with its own SAT: no halos, soft near edges",
               DofFields::Layers, anyBackend, createLayeredDof},
      DofEntry{"see-through", "layered, plus the scene's second layer: blurred near edges show what is behind",
               DofFields::SeeThrough, anyBackend, createSeeThroughDof},
      DofEntry{"see-through-linear", "see-through, blurred in linear light as a lens does (not in encoded bytes)",
               DofFields::SeeThroughLinear, anyBackend, createSeeThroughLinearDof},
  };
  return list;
}

// This build's entries, its optional parts registered.
const std::vector<DofEntry>& entries() {
  ensureOptionalParts();
  return listed();
}

}  // namespace

void registerDofImplementation(DofEntry part) {
  fillIn(listed(), std::move(part),
         [](const DofEntry& entry, DofEntry& filled) { filled.description = entry.description; });
}

std::span<const DofEntry> dofImplementations() { return entries(); }

const DofEntry* findDofImplementation(std::string_view name) { return findByName<DofEntry>(entries(), name); }

// The compute shader: the same bytes as the fragment pass, 26x faster on an H200 (few
// raster units) and as fast elsewhere, on every backend (docs/PERFORMANCE.md).
const DofEntry& defaultDofImplementation() { return *findDofImplementation("compute"); }

}  // namespace satdof

// engine/dof/registry.cpp — the depth-of-field implementations (see dof_implementation.h).
#include <array>

#include "satdof/registry.h"
#include "engine/dof/dof_implementation.h"

namespace satdof {
namespace {

std::optional<std::string> anyBackend(const ComputeBackend&) { return std::nullopt; }

const std::array kEntries{
    DofEntry{"fragment", "full-screen fragment shader: four SAT reads per pixel", DofFields::None, anyBackend,
             createFragmentDof},
    DofEntry{"compute", "GL compute shader, the same arithmetic: no raster units involved", DofFields::None, anyBackend,
             createGlslComputeDof},
    DofEntry{"cuda", "CUDA kernel on the interop session, the same arithmetic (cuda backend)", DofFields::None,
             cudaDofWhyNot, createCudaDof, "cuda"},
    DofEntry{"layered", "near and far fields, each with its own SAT: no halos, soft near edges",
             DofFields::Layers, anyBackend, createLayeredDof},
    DofEntry{"see-through", "layered, plus the scene's second layer: blurred near edges show what is behind",
             DofFields::SeeThrough, anyBackend, createSeeThroughDof},
    DofEntry{"see-through-linear", "see-through, blurred in linear light as a lens does (not in encoded bytes)",
             DofFields::SeeThroughLinear, anyBackend, createSeeThroughLinearDof},
};

}  // namespace

std::span<const DofEntry> dofImplementations() { return kEntries; }

const DofEntry* findDofImplementation(std::string_view name) { return findByName<DofEntry>(kEntries, name); }

// The compute shader: the same bytes as the fragment pass, 26x faster on an H200 (few
// raster units) and as fast elsewhere, on every backend (docs/PERFORMANCE.md).
const DofEntry& defaultDofImplementation() { return *findDofImplementation("compute"); }

}  // namespace satdof

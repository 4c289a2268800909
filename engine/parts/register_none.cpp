// engine/parts/register_none.cpp — registerOptionalParts() of a build without optional parts
// (no CUDA toolkit): the registries keep their placeholders, which say why.
#include "engine/parts/optional_parts.h"

namespace satdof {

void registerOptionalParts() {}

}  // namespace satdof

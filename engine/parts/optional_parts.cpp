// engine/parts/optional_parts.cpp — see optional_parts.h.
#include "engine/parts/optional_parts.h"

namespace satdof {

void ensureOptionalParts() {
  static const bool registered = (registerOptionalParts(), true);
  (void)registered;
}

}  // namespace satdof

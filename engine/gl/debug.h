// engine/gl/debug.h — GL errors through the KHR_debug callback (core in GL 4.3).
#pragma once

namespace satdof::gl {
// Errors are always printed; with `verbose`, performance and portability notes too.
void installDebugCallback(bool verbose);
}  // namespace satdof::gl

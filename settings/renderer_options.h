// settings/renderer_options.h — the live options as a Renderer holds them now, and the
// command line that sets them: what the settings file, a screenshot's settings, R's reset
// and the soak's fresh renders read, each from the one table (live_options.h), so an option
// declared there reaches all of them.
#pragma once

#include <string>

#include "engine/renderer/renderer.h"
#include "settings/cli.h"

namespace satdof {

// `base` with every live option the renderer holds (the camera and focus, the filter, the
// view, B, the DoF, bokeh, the SAT format, the running backend and its choices) as it is
// now; what it does not hold (autofocus, the panel, the window's scale, msaa) as in `base`.
Options optionsOf(const Renderer& renderer, Options base);

// " --backend NAME --OPTION VALUE ...": the backend, each of its choices, and every live
// option that applies to `o` (older names and the window's own left out), each value one
// shell word, for a fresh satdof to render the same frame.
std::string commandLineOf(const Options& o);

}  // namespace satdof

// engine/backends/host_bokeh.h — the bokeh sprite list by the CPU reference
// (satdof/reference/bokeh.h), for the cpu backend, whose image is already on the host:
// the depth read back, the list computed, then uploaded into the sprite buffer and the
// request's command slot, where the shared GL draw (engine/passes/bokeh_pass.h) finds it as it
// finds the GPU backends'. Sections "bokeh read back", "bokeh select+sort" and
// "bokeh upload" on the host clock.
#pragma once

#include "engine/backends/compute_backend.h"

namespace satdof {

inline constexpr std::string_view kHostBokehMethod =
    "the CPU reference (depth read back, selection and stable sort on the host), uploaded";

// `colour` is the image the SAT read this frame (bottom-up rows, as GL keeps them);
// `depth` is the caller's, kept between frames (resized here when the extent changes).
void buildBokehOnHost(const Targets& targets, const reference::ImageRgba8& colour, reference::ImageR32F& depth,
                      const BokehRequest& request, Profiler& profiler);

}  // namespace satdof

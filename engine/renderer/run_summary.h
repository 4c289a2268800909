// engine/renderer/run_summary.h — what a run prints at its end: the per-section medians
// of configuration A (and B's beside them), the time lost between stages, the bokeh counts
// and why something asked for did not run.
#pragma once

#include "engine/renderer/renderer.h"

namespace satdof {

void printRunSummary(const Renderer& renderer);

}  // namespace satdof

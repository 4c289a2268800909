// qa/verify_renderer.h — the renderer's last frame read back (its scene, SAT source,
// depth, SAT, DoF output, second layer and bokeh list) and checked against the CPU
// reference (verify.h): what V and the panel's Verify button run.
#pragma once

#include <vector>

#include "engine/renderer/renderer.h"
#include "qa/verify.h"

namespace satdof {

// Finishes the GL work first; reads nothing but the frame's targets.
std::vector<VerifyLine> verifyRenderedFrame(Renderer& renderer);

}  // namespace satdof

// satdof/bokeh.h — bokeh highlights on the GPU (satdof/reference/bokeh.h defines them):
// the chapter's other two applications of scan in the frame. A score per pixel, stream
// compaction of the highlights (the default compaction variant: flags, look-back scan and
// scatter fused), the cap, a radix sort of the kept ones back to front (the default sort
// variant), then the sprite list and a GL draw-indirect command, written straight into GL
// buffers through interop: no host round trip, whatever the count.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "satdof/reference/bokeh.h"

namespace satdof {

struct CompactVariant;
struct SortVariant;

using reference::BokehCommand;  // the draw-indirect command and the count before the cap

struct BokehArgs {
  cudaSurfaceObject_t colour = 0;  // RGBA8: the image the highlights come from
  cudaSurfaceObject_t depth = 0;   // R32F
  int width = 0, height = 0;
  reference::CocRamp ramp;
  reference::BokehSettings settings;
  reference::BokehSprite* sprites = nullptr;  // room for settings.maxSprites
  BokehCommand* command = nullptr;
  const CompactVariant* compact = nullptr;  // nullptr: defaultCompactVariant()
  const SortVariant* sort = nullptr;        // nullptr: defaultSortVariant()
};

std::size_t bokehScratchBytes(const BokehArgs& args);
cudaError_t launchBokehHighlights(const BokehArgs& args, void* scratch, std::size_t scratchBytes, cudaStream_t stream);

}  // namespace satdof

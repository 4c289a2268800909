// satdof/dof.h — the SAT depth of field as a CUDA kernel: the reference's arithmetic
// (satdof/reference/dof.h, coc.h, aperture.h, box_mean.h) per pixel, four SAT reads per
// box of the aperture whatever the radius (one box, or kApertureBoxes for the disc),
// reading the depth and writing the output through surfaces (the GL textures a CUDA-GL
// interop session maps). Byte for byte the CPU reference and the GLSL passes.
#pragma once

#include <cuda_runtime_api.h>

#include "satdof/reference/coc.h"
#include "satdof/sat_format.h"

namespace satdof {

struct DofKernelArgs {
  cudaSurfaceObject_t depth = 0;   // R32F: linear view distance
  cudaSurfaceObject_t output = 0;  // RGBA8
  const void* table = nullptr;     // the SAT in `format`: entries, then the trailer
  SatFormat format = SatFormat::Uint32;
  int width = 0, height = 0;
  reference::CocRamp ramp;
  bool showCoc = false;  // the radius view (reference::cocShade) instead of the image
  reference::Aperture aperture = reference::Aperture::Box;  // reference::satApertureMean's shape
};

// Enqueues the pass on `stream`; returns the launch's error (cudaErrorInvalidValue for an
// empty image or a missing surface).
cudaError_t launchDepthOfField(const DofKernelArgs& args, cudaStream_t stream);

// The layered DoF's split (satdof/reference/layered_dof.h, splitLayers): each pixel's
// premultiplied colour and weight into the near or far field image, its own near radius
// (the reach passes' input), each 16x16 tile's largest near radius, dilated over the
// tiles within maxRadius. The same bytes as the
// reference and the GLSL passes.
struct LayerSplitArgs {
  cudaSurfaceObject_t depth = 0;       // R32F
  cudaSurfaceObject_t colour = 0;      // RGBA8: the image the SATs blur
  cudaSurfaceObject_t nearField = 0;   // RGBA8 out
  cudaSurfaceObject_t farField = 0;    // RGBA8 out
  cudaSurfaceObject_t tileRadius = 0;  // R32I out, ceil(width / 16) x ceil(height / 16)
  cudaSurfaceObject_t nearRadius = 0;  // R16I out: reference::nearRadiusOf
  int width = 0, height = 0;
  reference::CocRamp ramp;
};

// Scratch for the undilated tile maxima.
std::size_t layerSplitScratchBytes(int width, int height);
cudaError_t launchLayerSplit(const LayerSplitArgs& args, void* scratch, std::size_t scratchBytes, cudaStream_t stream);

// The layered DoF's reach (reference::nearReach, two reference::reachPass): how large the
// largest near blur is whose box reaches each pixel, from the split's near radii and
// dilated tile radii. The same values as the reference and dof_layers_reach.comp.
struct LayerReachArgs {
  cudaSurfaceObject_t nearRadius = 0;  // R16I in: reference::nearRadiusOf
  cudaSurfaceObject_t tileRadius = 0;  // R32I in: the split's dilated tile radii
  cudaSurfaceObject_t reach = 0;       // R16I out: R(p)
  int width = 0, height = 0;
};

// Scratch for the rows' pass (16 bits a pixel).
std::size_t layerReachScratchBytes(int width, int height);
cudaError_t launchLayerReach(const LayerReachArgs& args, void* scratch, std::size_t scratchBytes, cudaStream_t stream);

}  // namespace satdof

// engine/passes/lens_truth.h — the accumulation-buffer ground truth: the scene rendered by the
// scene pass from eyes spread over a thin lens's aperture (engine/scene/camera.h's aperture
// matrices: the focal plane stays put on screen), the renders averaged in linear light
// (satdof/reference/lens_truth.h, which also gives the aperture radius that makes the
// thin-lens model's circle of confusion). No image-space method is involved: what the
// sharp image hides behind a near object is rendered from the eyes that see it.
//
// The number of renders doubles (a nested sample sequence: the first N are part of the
// first 2N) until the mean of N renders is within `convergedDb` of the mean of 2N, over
// the pixels the blur reaches (the whole image would let a large sharp area hide the
// blurred one's ghosts); the truth is the mean of 2N. Each render is the scene pass's own frame (its MSAA resolve
// included), so in focus the truth is the very image the DoF methods are given.
#pragma once

#include <cstddef>

#include "engine/frame/frame_targets.h"
#include "engine/passes/scene_pass.h"
#include "satdof/reference/coc.h"
#include "satdof/reference/dof_metrics.h"
#include "satdof/reference/image.h"
#include "satdof/reference/lens_truth.h"
#include "engine/scene/scene.h"

namespace satdof {

struct LensTruthSettings {
  reference::ApertureShape shape = reference::ApertureShape::Disc;
  double convergedDb = 50.0;      // PSNR of N renders against 2N that ends the doubling
  std::size_t firstRenders = 32;  // the first N
  std::size_t maxRenders = 4096;  // no doubling past this, converged or not
};

struct LensTruth {
  reference::ImageRgba8 image;  // the mean of `renders` renders (GL's rows: bottom first)
  reference::ImageRgba8 encodedImage;  // the same renders averaged as encoded bytes
  std::size_t renders = 0;
  double convergenceDb = 0;  // PSNR of the mean of the first renders / 2 against `image`,
                             // over the blurred pixels
                             // (0: no doubling was allowed)
  double apertureRadius = 0;  // scene units
  double seconds = 0;
  bool converged(const LensTruthSettings& s) const { return convergenceDb >= s.convergedDb; }
};

// Renders through `pass`, which draws into `targets`' scene colour and depth (what they
// held is overwritten). `blurred`: the pixels convergence is measured over (the pinhole
// frame's pixels outside reference::sharpAndClear); null: all. Throws
// std::invalid_argument for a model no lens makes (linear).
LensTruth renderLensTruth(ScenePass& pass, const scene::Scene& scene, const Targets& targets,
                          const reference::DofParams& params, const LensTruthSettings& settings,
                          const reference::Mask* blurred = nullptr);

}  // namespace satdof

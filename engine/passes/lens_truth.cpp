// engine/passes/lens_truth.cpp — see lens_truth.h.
#include "engine/passes/lens_truth.h"

#include <chrono>
#include <stdexcept>

#include "engine/image/image_io.h"
#include "engine/profiling/profiler.h"
#include "satdof/reference/dof_ground_truth.h"

namespace satdof {

LensTruth renderLensTruth(ScenePass& pass, const scene::Scene& scene, const Targets& targets,
                          const reference::DofParams& params, const LensTruthSettings& settings,
                          const reference::Mask* blurred) {
  const auto start = std::chrono::steady_clock::now();
  const int w = targets.extent.width, h = targets.extent.height;
  const float aspect = float(w) / float(h);
  const scene::Camera& camera = scene.camera;
  const auto radius =
      reference::lensApertureRadius(params, w, camera.pixelsPerUnitAt(params.focalDistance, aspect, h));
  if (!radius) throw std::invalid_argument("the lens truth needs the thin-lens camera model: no lens makes the linear one");
  LensTruth truth;
  truth.apertureRadius = *radius;
  // A profiler of its own, its frame closed after each render: the renders' timestamps
  // neither pile up nor show in the app's sections.
  Profiler profiler;
  ProfileHistory history;
  reference::LinearLightMean mean;
  auto renderUpTo = [&](std::size_t n) {
    for (std::size_t i = mean.count(); i < n; ++i) {
      const reference::AperturePoint a = reference::aperturePoint(i, settings.shape);
      const glm::vec2 offset = float(*radius) * glm::vec2(a.x, a.y);
      pass.run(scene, camera.apertureView(offset), camera.apertureProjection(aspect, offset, params.focalDistance), profiler);
      mean.add(readTexture(targets.sceneColour, w, h));
      profiler.endFrame(history);
    }
  };
  renderUpTo(settings.firstRenders);
  truth.image = mean.mean();
  while (2 * mean.count() <= settings.maxRenders) {
    const reference::ImageRgba8 previous = std::move(truth.image);
    renderUpTo(2 * mean.count());
    truth.image = mean.mean();
    truth.convergenceDb = blurred ? reference::psnr(previous, truth.image, *blurred)
                                  : reference::psnr(previous, truth.image);
    if (truth.converged(settings)) break;
  }
  truth.encodedImage = mean.encodedMean();
  profiler.drain(history);
  truth.renders = mean.count();
  truth.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return truth;
}

}  // namespace satdof

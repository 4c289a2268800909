// app/quality.cpp — `satdof quality`: how close each DoF implementation comes to what a
// lens would make of the scene. For every scene of the registry (scene/scenes.h) at each
// of its focal distances: render the scene, read back its colour and depth, scatter them on
// the CPU into the ground truth (satdof/reference/dof_ground_truth.h), then run every DoF
// implementation this backend offers on the same frame and print its PSNR against the
// truth. The images (truth and each implementation) go to --out as PNGs.
#include <cstdio>
#include <filesystem>

#include "app.h"
#include "image_io.h"
#include "satdof/reference/dof_ground_truth.h"
#include "scene/scenes.h"

namespace satdof {

int App::runQuality() {
  const std::filesystem::path outDir = options_.outDir;
  std::filesystem::create_directories(outDir);
  std::printf("satdof quality: %dx%d, %s model, max blur %.1f px; PSNR (dB) of each DoF against the "
              "scattering ground truth\n",
              extent_.width, extent_.height, dof_.params.model == reference::CocModel::ThinLens ? "thin-lens" : "linear",
              dof_.params.maxRadius);
  std::printf("%-14s %7s  ", "scene", "focus");
  for (const DofEntry& e : dofImplementations()) std::printf("%10.*s", 10, std::string(e.name).c_str());
  std::printf("\n");
  const DofEntry* original = dofEntry_;
  // The ground truth scatters the DoF alone: no highlights drawn over the images compared.
  const bool bokehWas = bokeh_.enabled;
  bokeh_.enabled = false;
  for (const scene::SceneEntry& entry : scene::sceneEntries()) {
    scene_ = entry.make();
    const int samples = scenePass_->samples();  // --msaa holds for every scene
    scenePass_ = std::make_unique<ScenePass>(shaderDir_, scene_);
    scenePass_->setSamples(samples);
    scenePass_->attach(targets_.targets());
    for (const float focus : entry.focalDistances(scene_)) {
      dof_.params.focalDistance = focus;
      std::printf("%-14s %7.2f  ", std::string(entry.name).c_str(), focus);
      reference::ImageRgba8 truth;
      char stem[96];
      std::snprintf(stem, sizeof stem, "%s_focus%.1f", std::string(entry.name).c_str(), focus);
      for (const DofEntry& e : dofImplementations()) {
        if (e.whyNot(computePass_->backend())) {
          std::printf("%10s", "-");
          continue;
        }
        if (&e != dofEntry_) setDof(e);
        renderFrame();
        const Targets& t = targets_.targets();
        if (truth.width == 0) {  // the same scene and SAT source for every implementation
          const auto [colour, depth] = readBackColourAndDepth();
          truth = reference::scatterDepthOfField(colour, depth, dof_.params);
          writePng(outDir / (std::string(stem) + "_truth.png"), truth);
        }
        const auto image = readTexture(t.dofOutput, extent_.width, extent_.height);
        writePng(outDir / (std::string(stem) + "_" + std::string(e.name) + ".png"), image);
        std::printf("%10.2f", reference::psnr(image, truth));
        std::fflush(stdout);
      }
      std::printf("\n");
    }
  }
  profiler_->drain(history_);
  if (dofEntry_ != original) setDof(*original);
  bokeh_.enabled = bokehWas;
  std::printf("satdof quality: images in %s\n", outDir.c_str());
  return kExitOk;
}

}  // namespace satdof

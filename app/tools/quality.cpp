// app/tools/quality.cpp — `satdof quality`: how close each DoF implementation comes to what a
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
#include "tools/tools.h"

namespace satdof {

int runQuality(App& app) {
  const std::filesystem::path outDir = app.options().outDir;
  DofSettings& dof = app.settings().dof;
  BokehSettings& bokeh = app.settings().bokeh;
  Pipeline& pipeline = app.pipeline();
  const Extent extent = app.extent();
  std::filesystem::create_directories(outDir);
  std::printf("satdof quality: %dx%d, %s model, max blur %.1f px; PSNR (dB) of each DoF against the "
              "scattering ground truth\n",
              extent.width, extent.height, dof.params.model == reference::CocModel::ThinLens ? "thin-lens" : "linear",
              dof.params.maxRadius);
  std::printf("%-14s %7s  ", "scene", "focus");
  for (const DofEntry& e : dofImplementations()) std::printf("%10.*s", 10, std::string(e.name).c_str());
  std::printf("\n");
  const DofEntry* original = &pipeline.dofEntry();
  // The ground truth scatters the DoF alone: no highlights drawn over the images compared.
  const bool bokehWas = bokeh.enabled;
  bokeh.enabled = false;
  for (const scene::SceneEntry& entry : scene::sceneEntries()) {
    app.setScene(entry.make());  // --msaa holds for every scene
    for (const float focus : entry.focalDistances(app.scene().scene)) {
      dof.params.focalDistance = focus;
      std::printf("%-14s %7.2f  ", std::string(entry.name).c_str(), focus);
      reference::ImageRgba8 truth;
      char stem[96];
      std::snprintf(stem, sizeof stem, "%s_focus%.1f", std::string(entry.name).c_str(), focus);
      for (const DofEntry& e : dofImplementations()) {
        if (e.whyNot(pipeline.backend())) {
          std::printf("%10s", "-");
          continue;
        }
        if (&e != &pipeline.dofEntry()) app.setDof(e);
        app.renderFrame();
        const Targets& t = pipeline.targets();
        if (truth.width == 0) {  // the same scene and SAT source for every implementation
          const auto [colour, depth] = app.readBackColourAndDepth();
          truth = reference::scatterDepthOfField(colour, depth, dof.params);
          writePng(outDir / (std::string(stem) + "_truth.png"), truth);
        }
        const auto image = readTexture(t.dofOutput, extent.width, extent.height);
        writePng(outDir / (std::string(stem) + "_" + std::string(e.name) + ".png"), image);
        std::printf("%10.2f", reference::psnr(image, truth));
        std::fflush(stdout);
      }
      std::printf("\n");
    }
  }
  pipeline.drain();
  if (&pipeline.dofEntry() != original) app.setDof(*original);
  bokeh.enabled = bokehWas;
  std::printf("satdof quality: images in %s\n", outDir.c_str());
  return kExitOk;
}

}  // namespace satdof

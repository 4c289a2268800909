// qa/quality.cpp — `satdof quality`: how close each DoF implementation comes to what a
// lens would make of the scene. For every scene of the registry (engine/scene/scenes.h) at each
// of its focal distances: render the scene, and make two truths of it:
//   lens     the scene rendered from eyes over a thin lens's aperture and averaged in
//            linear light (engine/passes/lens_truth.h): no image-space assumption at all;
//   scatter  the frame's colour and depth scattered on the CPU
//            (satdof/reference/dof_ground_truth.h): the best an image-space method can do
//            with one colour and one depth per pixel.
// Then run every DoF implementation this backend offers on the same frame and score it
// against each truth: the PSNR of the image, the PSNR within 13 px of the silhouettes, and
// the share of sharp pixels no blur reaches that it leaves byte for byte as the scene drew
// them (satdof/reference/dof_metrics.h). The scattering truth is scored against the lens
// too (implementation "scatter"). The lens needs the thin-lens model; quality runs in it,
// with the max blur raised to the frame's largest circle of confusion unless --max-blur
// is given (a lens does not clamp). Each implementation runs with each aperture
// (satdof/reference/aperture.h: box and disc; --aperture: that one alone), the scattering
// truth with the same shape; the lens truth is round unless the box alone is scored (then
// square: the box's shape) or --lens-aperture says. The images (truths and
// implementations, "_disc" for the disc) go to --out as PNGs; --csv FILE writes the
// scores as rows; --scene NAME runs that scene alone.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/renderer/renderer.h"
#include "engine/files/interrupt.h"
#include "engine/files/safe_write.h"
#include "engine/image/image_io.h"
#include "engine/passes/lens_truth.h"
#include "satdof/reference/dof_ground_truth.h"
#include "satdof/reference/dof_metrics.h"
#include "engine/scene/scenes.h"
#include "qa/tools.h"

namespace satdof {
namespace {

namespace ref = reference;

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return "inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

// What every implementation of one scene at one focus is held against.
struct Truths {
  ref::ImageRgba8 sharp;  // the DoF's input
  ref::ImageR32F depth;
  ref::Mask band, clear;
  ref::ImageRgba8 scatter[2];  // by aperture (box, disc): the scattering truth of that shape
  std::optional<LensTruth> lens;
  ref::ImageRgba8 textbook[2];  // by aperture: the textbook pass's image (kTextbook), once it ran
};

// The implementation the others are held beside: the textbook box blur.
constexpr std::string_view kTextbook = "fragment";

struct Row {
  std::string scene, focus;
};

class Report {
 public:
  // `lensShape`: the lens truth's aperture (disc or square), a column of every row.
  Report(std::ostream* csv, std::string lensShape) : csv_(csv), lensShape_(std::move(lensShape)) {
    if (csv_)
      *csv_ << "scene,focus,implementation,psnr_db,psnr_band_db,infocus_identical_pct,truth,aperture,lens_aperture\n";
  }
  static void header() {
    std::printf("%-14s %6s  %-18s %-8s %9s %9s %9s %9s %9s %9s %9s %9s\n", "scene", "focus", "dof", "aperture",
                "lens", "lens-band", "lens-enc", "scatter", "scat-band", "in-focus", "changed", "ceiling");
  }
  // `image` (made with `aperture`) against the truths; the lens only where there is one,
  // the scatter of the same aperture unless the image is that scatter truth itself.
  void add(const Row& row, const std::string& name, ref::Aperture aperture, const ref::ImageRgba8& image,
           const Truths& t, bool againstScatter) {
    const double identical = ref::identicalPercent(image, t.sharp, t.clear);
    std::string cells[7] = {"-", "-", "-", "-", "-", "-", "-"};
    const Scored s{row, name, apertureName(aperture), image, t, identical};
    if (t.lens) {
      score(s, t.lens->image, "lens", cells[0], cells[1]);
      cells[2] = number(ref::psnr(image, t.lens->encodedImage));
    }
    if (againstScatter) score(s, t.scatter[int(aperture)], "scatter", cells[3], cells[4]);
    // Beside the textbook: the share of pixels this implementation changes, and the lens
    // PSNR it would reach were it exact there (the rest of the error is the textbook's).
    const ref::ImageRgba8& textbook = t.textbook[int(aperture)];
    if (againstScatter && !textbook.pixels.empty()) {
      const ref::Mask changed = ref::differingPixels(image, textbook);
      cells[5] = number(100.0 * double(changed.count()) / double(changed.inside.size())) + "%";
      if (t.lens) cells[6] = number(ref::psnrCeiling(textbook, t.lens->image, changed));
    }
    std::printf("%-14s %6s  %-18s %-8s %9s %9s %9s %9s %9s %8s%% %9s %9s\n", row.scene.c_str(), row.focus.c_str(),
                name.c_str(), s.aperture, cells[0].c_str(), cells[1].c_str(), cells[2].c_str(), cells[3].c_str(),
                cells[4].c_str(), number(identical).c_str(), cells[5].c_str(), cells[6].c_str());
    std::fflush(stdout);
  }

 private:
  struct Scored {
    const Row& row;
    const std::string& name;
    const char* aperture;
    const ref::ImageRgba8& image;
    const Truths& t;
    double identical;
  };
  void score(const Scored& s, const ref::ImageRgba8& truth, const char* truthName, std::string& whole,
             std::string& band) {
    whole = number(ref::psnr(s.image, truth));
    band = number(ref::psnr(s.image, truth, s.t.band));
    if (csv_)
      *csv_ << s.row.scene << ',' << s.row.focus << ',' << s.name << ',' << whole << ',' << band << ','
            << number(s.identical) << ',' << truthName << ',' << s.aperture << ',' << lensShape_ << '\n';
  }
  std::ostream* csv_;
  std::string lensShape_;
};

// The images' names: the box's as they always were, the disc's with "_disc".
std::string suffix(ref::Aperture a) { return a == ref::Aperture::Disc ? "_disc" : ""; }

// The largest blur radius the model gives any pixel of `depth`, unclamped.
double largestCoc(const ref::ImageR32F& depth, const ref::DofParams& params) {
  const ref::CocRamp ramp = ref::cocRamp(params, depth.width);
  double largest = 0;
  for (const float d : depth.pixels) largest = std::max(largest, ref::unclampedCocRadius(d, ramp));
  return largest;
}

// Percentage of pixels whose rounded radius the max blur cuts: where the model is no lens.
double clampedPercent(const ref::ImageR32F& depth, const ref::DofParams& params) {
  const ref::CocRamp ramp = ref::cocRamp(params, depth.width);
  std::size_t clamped = 0;
  for (const float d : depth.pixels)
    clamped += std::floor(ref::unclampedCocRadius(d, ramp) + 0.5) > double(ramp.maxRadius) ? 1 : 0;
  return depth.pixels.empty() ? 0.0 : 100.0 * double(clamped) / double(depth.pixels.size());
}

}  // namespace

int runQuality(Renderer& renderer, const Options& options) {
  const std::filesystem::path outDir = options.outDir;
  DofSettings& dof = renderer.settings().dof;
  BokehSettings& bokeh = renderer.settings().bokeh;
  Pipeline& pipeline = renderer.pipeline();
  const Extent extent = renderer.extent();
  // The rows gather here and the file is written whole at the end (engine/files/safe_write.h;
  // the command line checked that it can be). --out is made with its first image.
  std::ostringstream csv;
  const ref::DofParams userParams = dof.params;
  const bool maxBlurGiven = options.given.count("max-blur") > 0;
  // A lens makes the thin-lens model's blur, not the linear one's: quality runs thin-lens
  // unless the command line asks for linear, which then has the scattering truth alone.
  const bool lensTruth = !(options.given.count("camera") && dof.params.model == ref::CocModel::Linear);
  dof.params.model = lensTruth ? ref::CocModel::ThinLens : dof.params.model;
  LensTruthSettings lensSettings;
  lensSettings.maxRenders = std::size_t(options.qualityMaxRenders);
  lensSettings.firstRenders = std::min(lensSettings.firstRenders, lensSettings.maxRenders / 2);
  // The DoF's apertures: --aperture's alone, else both. The lens truth's: --lens-aperture,
  // else the shape scored (square for the box alone, the round lens otherwise).
  const std::vector<ref::Aperture> apertures =
      options.given.count("aperture") ? std::vector<ref::Aperture>{options.dof.params.aperture}
                                      : std::vector<ref::Aperture>{ref::Aperture::Box, ref::Aperture::Disc};
  const std::string lensShape = !options.qualityLensAperture.empty() ? options.qualityLensAperture
                                : apertures == std::vector<ref::Aperture>{ref::Aperture::Box} ? "square"
                                                                                             : "disc";
  lensSettings.shape = lensShape == "square" ? ref::ApertureShape::Square : ref::ApertureShape::Disc;
  std::printf("satdof quality: %dx%d, %s model (f %.0f mm, f/%.1f, sensor %.0f mm), max blur %s\n", extent.width,
              extent.height, ref::cocModelName(dof.params.model), dof.params.focalLengthMm, dof.params.fNumber,
              dof.params.sensorWidthMm,
              maxBlurGiven ? (number(dof.params.maxRadius) + " px").c_str() : "the frame's largest blur");
  if (lensTruth)
    std::printf("  lens truth: %s aperture, renders doubled until N against 2N is over %.0f dB (at most %zu)\n",
                lensShape.c_str(), lensSettings.convergedDb, lensSettings.maxRenders);
  else
    std::printf("  no lens truth: a lens cannot make the linear model's blur (use --camera thin-lens)\n");
  std::printf("  PSNR (dB) against each truth, over the image and within %d px of silhouettes; lens-enc: against "
              "the lens's renders averaged as encoded bytes, as image-space methods average (no gamma error); "
              "in-focus: %% of sharp pixels no blur reaches left as drawn; changed: %% of pixels whose bytes differ "
              "from the textbook pass's (%s); ceiling: the lens PSNR it would score were it exact in those\n",
              ref::kSilhouetteBandRadius, std::string(kTextbook).c_str());
  std::printf("  each implementation with the aperture%s", apertures.size() > 1 ? "s" : "");
  for (const ref::Aperture a : apertures) std::printf(" %s", apertureName(a));
  std::printf(" (the scattering truth of the same shape)\n");
  Report report(options.qualityCsv.empty() ? nullptr : &csv, lensShape);
  const DofEntry* original = &pipeline.dofEntry();
  // The truths blur the scene alone: no highlights drawn over the images compared.
  const bool bokehWas = bokeh.enabled;
  bokeh.enabled = false;
  for (const scene::SceneEntry& entry : scene::sceneEntries()) {
    if (files::interrupted()) break;  // SIGINT, SIGTERM: between frames, every file whole
    if (options.given.count("scene") && entry.name != options.scene) continue;  // --scene: that one alone
    renderer.setScene(entry.make());  // --msaa holds for every scene
    for (const float focus : entry.focalDistances(renderer.scene().scene)) {
      if (files::interrupted()) break;
      dof.params.focalDistance = focus;
      const Row row{std::string(entry.name), number(focus)};
      char stem[96];
      std::snprintf(stem, sizeof stem, "%s_focus%.1f", row.scene.c_str(), focus);
      renderer.renderFrame();
      if (lensTruth && !maxBlurGiven) {
        const auto depth = readDepthTexture(pipeline.targets().depth, extent.width, extent.height);
        // (within --max-blur's own range, 256 px)
        dof.params.maxRadius = std::min(256.0f, float(std::ceil(largestCoc(depth, dof.params))));
        renderer.renderFrame();  // the max blur as the SAT format allows it
      }
      Truths t;
      std::tie(t.sharp, t.depth) = renderer.readBackColourAndDepth();
      for (const ref::Aperture a : apertures) {
        ref::DofParams shaped = dof.params;
        shaped.aperture = a;
        t.scatter[int(a)] = ref::scatterDepthOfField(t.sharp, t.depth, shaped);
        writePng(outDir / (std::string(stem) + "_scatter" + suffix(a) + ".png"), t.scatter[int(a)]);
      }
      t.band = ref::silhouetteBand(t.depth, dof.params);
      t.clear = ref::sharpAndClear(t.depth, dof.params);
      std::printf("%s focus %s: max blur %.0f px (%.2f%% of pixels clamped), silhouette band %.1f%%, sharp and "
                  "clear %.1f%% of pixels\n",
                  row.scene.c_str(), row.focus.c_str(), dof.params.maxRadius, clampedPercent(t.depth, dof.params),
                  100.0 * double(t.band.count()) / double(t.depth.pixels.size()),
                  100.0 * double(t.clear.count()) / double(t.depth.pixels.size()));
      if (lensTruth) {
        const ref::Mask blurred = ref::complement(t.clear);
        t.lens = renderLensTruth(renderer.scenePass(), renderer.scene().scene, pipeline.targets(), dof.params, lensSettings,
                                 blurred.count() ? &blurred : nullptr);
        writePng(outDir / (std::string(stem) + "_lens.png"), t.lens->image);
        std::printf("  lens truth: %zu renders, aperture radius %.4g, PSNR(%zu vs %zu renders) over the blurred "
                    "pixels %.2f dB%s, %.1f s\n",
                    t.lens->renders, t.lens->apertureRadius, t.lens->renders / 2, t.lens->renders,
                    t.lens->convergenceDb, t.lens->converged(lensSettings) ? "" : " (NOT converged)",
                    t.lens->seconds);
        std::fflush(stdout);
      }
      Report::header();
      if (t.lens)
        for (const ref::Aperture a : apertures) report.add(row, "scatter", a, t.scatter[int(a)], t, false);
      for (const DofEntry& e : dofImplementations()) {
        if (files::interrupted()) break;
        if (e.whyNot(pipeline.backend())) continue;
        if (&e != &pipeline.dofEntry()) renderer.setDof(e);
        for (const ref::Aperture a : apertures) {
          dof.params.aperture = a;
          renderer.renderFrame();
          const auto image = readTexture(pipeline.targets().dofOutput, extent.width, extent.height);
          writePng(outDir / (std::string(stem) + "_" + std::string(e.name) + suffix(a) + ".png"), image);
          if (e.name == kTextbook) t.textbook[int(a)] = image;
          report.add(row, std::string(e.name), a, image, t, true);
        }
      }
    }
  }
  pipeline.drain();
  if (&pipeline.dofEntry() != original) renderer.setDof(*original);
  bokeh.enabled = bokehWas;
  dof.params = userParams;
  if (files::interrupted()) {  // the rows so far are not the report asked for
    std::printf("satdof quality: stopped before the end: images so far in %s%s\n", outDir.c_str(),
                options.qualityCsv.empty() ? "" : "; --csv not written");
    return kExitOk;  // (main exits with the signal's code)
  }
  std::printf("satdof quality: images in %s\n", outDir.c_str());
  if (!options.qualityCsv.empty()) {
    const std::filesystem::path file = options.qualityCsv;
    if (file.has_parent_path()) files::createFolders(file.parent_path());  // (throws files::WriteError)
    files::writeFileAtomically(file, csv.str());
    std::printf("satdof quality: wrote %s\n", options.qualityCsv.c_str());
  }
  return kExitOk;
}

}  // namespace satdof

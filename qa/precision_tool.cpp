// qa/precision_tool.cpp — `satdof precision`: the frame's DoF image from each float
// SAT format against the exact one (precision.h), for the frame as rendered and for every
// pixel blurred by one small box; heatmaps under --out.
#include <cstdio>
#include <filesystem>

#include "engine/renderer/renderer.h"
#include "engine/files/interrupt.h"
#include "engine/image/image_io.h"
#include "qa/precision.h"
#include "satdof/reference/dof.h"
#include "qa/tools.h"

namespace satdof {
namespace {

// The report's table: the whole image, and the quarters at the table's origin and far corner.
void printReports(const reference::ImageRgba8& colour, const reference::ImageR32F& depth,
                  const reference::DofParams& params, const std::filesystem::path& outDir, const std::string& tag) {
  std::printf("  %-16s %9s %10s %10s %16s %16s\n", "format", "max err", "PSNR dB", "wrong px", "near origin",
              "far corner");
  const auto exact = reference::depthOfField(colour, depth, params, SatFormat::Uint32);  // once for all formats
  for (const SatFormatInfo& f : satFormats()) {
    if (files::interrupted()) return;  // SIGINT, SIGTERM: every heatmap so far whole
    if (f.exact) continue;
    const PrecisionReport r = comparePrecision(exact, reference::depthOfField(colour, depth, params, f.id), f.id);
    std::printf("  %-16s %9d %10.2f %9.4f%% %15.4f%% %15.4f%%\n", std::string(f.name).c_str(), r.maxError, r.psnr,
                100 * r.wrongPixels, 100 * r.wrongNearOrigin, 100 * r.wrongFarCorner);
    writePng(outDir / ("precision_" + tag + std::string(f.name) + ".png"), r.heatmap);
  }
}

}  // namespace

int runPrecision(Renderer& renderer, const Options& options) {
  const std::filesystem::path outDir = options.outDir;
  renderer.renderFrame();  // (--out is made with its first heatmap)
  const auto [colour, depth] = renderer.readBackColourAndDepth();
  const Extent extent = renderer.extent();
  std::printf("satdof precision: %dx%d, the DoF image from each float SAT format against the exact uint32 one\n",
              extent.width, extent.height);
  std::printf("the frame as rendered (each pixel its own %s):\n",
              reference::apertureName(renderer.settings().dof.params.aperture));
  printReports(colour, depth, renderer.settings().dof.params, outDir, "");
  if (files::interrupted()) return kExitOk;  // (main exits with the signal's code)
  // The same colour with every pixel at one small radius (2: 5x5 boxes), so that only the
  // table's position matters: the rounding error of the entries grows with x * y, and
  // a small box divides it by little.
  reference::DofParams uniform;
  uniform.model = reference::CocModel::Linear;
  uniform.focalDistance = 10.0f;
  uniform.focalRange = 10.0f;
  uniform.maxRadius = 10.0f;
  const reference::ImageR32F twoPixels(extent.width, extent.height, 12.0f);  // |12 - 10| / 10 * 10 = 2
  std::printf("the same colour, every pixel blurred by a 5x5 box:\n");
  printReports(colour, twoPixels, uniform, outDir, "5x5_");
  if (files::interrupted()) return kExitOk;
  std::printf("  (near origin / far corner: wrong pixels in the quarter of the image at the table's origin,\n"
              "   where its entries are small, and in the opposite quarter, where they are largest; GL rows\n"
              "   run bottom-up, so on screen and in the PNGs the origin is bottom-left, the far corner top-right)\n");
  std::printf("satdof precision: heatmaps in %s\n", outDir.c_str());
  return kExitOk;
}

}  // namespace satdof

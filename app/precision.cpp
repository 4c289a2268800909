// app/precision.cpp — see precision.h; and `satdof precision` (App::runPrecision).
#include "precision.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app.h"
#include "image_io.h"
#include "satdof/reference/dof.h"
#include "satdof/reference/dof_ground_truth.h"

namespace satdof {
namespace {

// 0 black; 1..max from blue through red to yellow, so a single grey level still shows.
void heat(std::uint8_t* px, int e, int max) {
  if (e == 0) {
    px[0] = px[1] = px[2] = 0;
  } else {
    const float t = max > 1 ? float(e - 1) / float(max - 1) : 1.0f;
    px[0] = std::uint8_t(std::min(255.0f, 80.0f + 350.0f * t));
    px[1] = std::uint8_t(std::clamp(510.0f * t - 255.0f, 0.0f, 255.0f));
    px[2] = std::uint8_t(std::max(0.0f, 255.0f - 400.0f * t));
  }
  px[3] = 255;
}

}  // namespace

PrecisionReport measurePrecision(const reference::ImageRgba8& colour, const reference::ImageR32F& depth,
                                 const reference::DofParams& params, SatFormat format) {
  return comparePrecision(reference::depthOfField(colour, depth, params, SatFormat::Uint32),
                          reference::depthOfField(colour, depth, params, format), format);
}

PrecisionReport comparePrecision(const reference::ImageRgba8& exact, const reference::ImageRgba8& approx,
                                 SatFormat format) {
  PrecisionReport r;
  r.format = format;
  r.psnr = reference::psnr(approx, exact);
  const int w = exact.width, h = exact.height;
  std::vector<int> error(std::size_t(w) * h, 0);
  std::size_t wrong = 0, wrongFar = 0, wrongNear = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int e = 0;
      for (int c = 0; c < 3; ++c) e = std::max(e, std::abs(int(approx.at(x, y)[c]) - int(exact.at(x, y)[c])));
      error[std::size_t(y) * w + x] = e;
      r.maxError = std::max(r.maxError, e);
      if (e == 0) continue;
      ++wrong;
      // In table coordinates: the origin's quarter and the far corner's quarter.
      if (x >= w / 2 && y >= h / 2) ++wrongFar;
      if (x < w / 2 && y < h / 2) ++wrongNear;
    }
  const double quarter = double(w / 2 + w % 2) * double(h / 2 + h % 2);
  r.wrongPixels = double(wrong) / double(std::max<std::size_t>(1, error.size()));
  r.wrongFarCorner = double(wrongFar) / quarter;
  r.wrongNearOrigin = double(wrongNear) / std::max(1.0, double(w / 2) * double(h / 2));
  r.heatmap = reference::ImageRgba8(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) heat(r.heatmap.at(x, y), error[std::size_t(y) * w + x], r.maxError);
  return r;
}

std::pair<reference::ImageRgba8, reference::ImageR32F> App::readBackColourAndDepth() {
  glFinish();
  const Targets& t = targets_.targets();
  auto colour = readTexture(computePass_->filteredImage(t), extent_.width, extent_.height);
  return {std::move(colour), readDepthTexture(t.depth, extent_.width, extent_.height)};
}

void App::updatePrecision(bool requested) {
  using namespace std::chrono;
  const SatFormat format = targets_.targets().satFormat;
  if (precisionJob_.valid() && precisionJob_.wait_for(seconds(0)) == std::future_status::ready) {
    const PrecisionReport r = precisionJob_.get();
    if (r.format == format && r.heatmap.width == extent_.width && r.heatmap.height == extent_.height)
      showPrecision(r);
  }
  if (satFormatInfo(format).exact || precisionJob_.valid()) return;
  const auto now = steady_clock::now();
  if (!requested && now - precisionStarted_ < seconds(2)) return;
  precisionStarted_ = now;
  auto [colour, depth] = readBackColourAndDepth();
  precisionJob_ = std::async(std::launch::async, [colour = std::move(colour), depth = std::move(depth),
                                                  params = dof_.params, format] {
    return measurePrecision(colour, depth, params, format);
  });
}

void App::showPrecision(const PrecisionReport& r) {
  const SatFormat format = r.format;
  char line[200];
  std::snprintf(line, sizeof line, "%s vs uint32: max error %d grey levels, PSNR %.1f dB, %.2f%% of pixels differ",
                std::string(satFormatInfo(format).name).c_str(), r.maxError, r.psnr, 100 * r.wrongPixels);
  precisionLine_ = line;
  precisionHeatmap_ = gl::createTexture2D(GL_RGBA8, extent_.width, extent_.height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(precisionHeatmap_.get(), 0, 0, 0, extent_.width, extent_.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      r.heatmap.pixels.data());
}

void App::setSatFormat(const std::string& name) {
  const SatFormatInfo* f = findSatFormat(name);
  if (!f || f->id == targets_.targets().satFormat) return;
  const SatFormat previous = targets_.targets().satFormat;
  try {
    reallocate(extent_, f->id);
    precisionLine_.clear();
    precisionHeatmap_ = {};
    maxBlurNote_.clear();
  } catch (const std::exception& e) {  // e.g. too large for GL, or a SAT algorithm that lacks it
    std::fprintf(stderr, "satdof: --sat-format %s: %s\n", f->name.data(), e.what());
    shaderError_ = std::string("SAT format ") + std::string(f->name) + ": " + e.what();
    reallocate(extent_, previous);
  }
}

void App::limitMaxBlurToSatFormat() {
  const SatFormatInfo& format = satFormatInfo(targets_.targets().satFormat);
  const auto why = whyNotMaxBlur(format, dof_.params.maxRadius);
  if (!why) return;
  maxBlurNote_ = "max blur lowered to " + std::to_string(format.maxBoxRadius) + " px: " + *why;
  std::printf("satdof: %s\n", maxBlurNote_.c_str());
  dof_.params.maxRadius = float(format.maxBoxRadius);
}

namespace {

// The report's table: the whole image, and the quarters at the table's origin and far corner.
void printReports(const reference::ImageRgba8& colour, const reference::ImageR32F& depth,
                  const reference::DofParams& params, const std::filesystem::path& outDir, const std::string& tag) {
  std::printf("  %-16s %9s %10s %10s %16s %16s\n", "format", "max err", "PSNR dB", "wrong px", "near origin",
              "far corner");
  const auto exact = reference::depthOfField(colour, depth, params, SatFormat::Uint32);  // once for all formats
  for (const SatFormatInfo& f : satFormats()) {
    if (f.exact) continue;
    const PrecisionReport r = comparePrecision(exact, reference::depthOfField(colour, depth, params, f.id), f.id);
    std::printf("  %-16s %9d %10.2f %9.4f%% %15.4f%% %15.4f%%\n", std::string(f.name).c_str(), r.maxError, r.psnr,
                100 * r.wrongPixels, 100 * r.wrongNearOrigin, 100 * r.wrongFarCorner);
    writePng(outDir / ("precision_" + tag + std::string(f.name) + ".png"), r.heatmap);
  }
}

}  // namespace

int App::runPrecision() {
  const std::filesystem::path outDir = options_.outDir;
  std::filesystem::create_directories(outDir);
  renderFrame();
  const auto [colour, depth] = readBackColourAndDepth();
  std::printf("satdof precision: %dx%d, the DoF image from each float SAT format against the exact uint32 one\n",
              extent_.width, extent_.height);
  std::printf("the frame as rendered (each pixel its own box):\n");
  printReports(colour, depth, dof_.params, outDir, "");
  // The same colour with every pixel at one small radius (2: 5x5 boxes), so that only the
  // table's position matters: the rounding error of the entries grows with x * y, and
  // a small box divides it by little.
  reference::DofParams uniform;
  uniform.model = reference::CocModel::Linear;
  uniform.focalDistance = 10.0f;
  uniform.focalRange = 10.0f;
  uniform.maxRadius = 10.0f;
  const reference::ImageR32F twoPixels(extent_.width, extent_.height, 12.0f);  // |12 - 10| / 10 * 10 = 2
  std::printf("the same colour, every pixel blurred by a 5x5 box:\n");
  printReports(colour, twoPixels, uniform, outDir, "5x5_");
  std::printf("  (near origin / far corner: wrong pixels in the quarter of the image at the table's origin,\n"
              "   where its entries are small, and in the opposite quarter, where they are largest; GL rows\n"
              "   run bottom-up, so on screen and in the PNGs the origin is bottom-left, the far corner top-right)\n");
  std::printf("satdof precision: heatmaps in %s\n", outDir.c_str());
  return kExitOk;
}

}  // namespace satdof

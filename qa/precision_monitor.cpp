// qa/precision_monitor.cpp — see precision_monitor.h.
#include "qa/precision_monitor.h"

#include <glad/gl.h>

#include <cstdio>

namespace satdof {

void PrecisionMonitor::update(bool requested, SatFormat format, Extent extent, const reference::DofParams& params,
                              const ReadBack& readBack) {
  using namespace std::chrono;
  if (job_.valid() && job_.wait_for(seconds(0)) == std::future_status::ready) {
    const PrecisionReport r = job_.get();
    if (r.format == format && r.heatmap.width == extent.width && r.heatmap.height == extent.height) show(r, extent);
  }
  if (satFormatInfo(format).exact || job_.valid()) return;
  const auto now = steady_clock::now();
  if (!requested && now - started_ < seconds(2)) return;
  started_ = now;
  auto [colour, depth] = readBack();
  job_ = std::async(std::launch::async, [colour = std::move(colour), depth = std::move(depth), params, format] {
    return measurePrecision(colour, depth, params, format);
  });
}

void PrecisionMonitor::clear() {
  line_.clear();
  heatmap_ = {};
}

void PrecisionMonitor::show(const PrecisionReport& r, Extent extent) {
  char line[200];
  std::snprintf(line, sizeof line, "%s vs uint32: max error %d grey levels, PSNR %.1f dB, %.2f%% of pixels differ",
                std::string(satFormatInfo(r.format).name).c_str(), r.maxError, r.psnr, 100 * r.wrongPixels);
  line_ = line;
  heatmap_ = gl::createTexture2D(GL_RGBA8, extent.width, extent.height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(heatmap_.get(), 0, 0, 0, extent.width, extent.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      r.heatmap.pixels.data());
}

}  // namespace satdof

// app/frame_files.cpp — see frame_files.h.
#include "app/frame_files.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "engine/files/safe_write.h"
#include "engine/image/image_io.h"
#include "settings/cli_checks.h"

namespace satdof {

void FrameFiles::label(const Renderer& renderer, reference::ImageRgba8& image) {
  // The window's labels, at its scale on a 1080p screen for a 1080p image (1x up to 810 rows).
  const int scale = std::max(1, int(std::lround(double(image.height) / 540.0)));
  if (!imageText_ || imageText_->scale() != scale) imageText_ = std::make_unique<ImageText>(scale);
  const Comparison& comparison = renderer.comparison();
  const FrameSettings& settings = renderer.settings();
  const Pipeline* b = comparison.pipeline();
  const bool filtering = settings.filter.enabled;
  const CompareCaption caption =
      comparison.caption(renderer.pipeline().config(settings.filter.implementation), filtering,
                         b && filtering ? b->backendPass().filterProblem() : std::string());
  const auto max = renderer.viewPass().maxDifference();
  drawCompareCaption(image, *imageText_, caption, settings.view.mode == ViewMode::Split, settings.view.divider,
                     max ? describeDifference(*max, renderer.viewPass().gainUsed()) : std::string());
}

void FrameFiles::saveHeadless(Renderer& renderer, const std::filesystem::path& folder, int index, bool labels) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%04d.png", index);
  const auto path = folder / name;
  // Part of the frame's wall time (the PNG encoder is slow), so sections of their own
  // rather than time "lost between stages": the read-back (which waits for the GL work
  // before it) and the encoding.
  Profiler& profiler = renderer.pipeline().profiler();
  auto read = profiler.section(profiler.host(), "read frame");
  reference::ImageRgba8 image = renderer.readShown();
  read.end();
  if (comparesConfigurations(renderer.settings().view.mode) && labels) label(renderer, image);
  auto timed = profiler.section(profiler.host(), "save png");
  writePng(path, image);
  std::printf("satdof: wrote %s\n", path.c_str());
}

void FrameFiles::writeScreenshot(const std::string& requested, Extent framebuffer, const std::string& settingsText) {
  std::filesystem::path path = requested;
  if (path.empty()) {  // F12: a name from the time, in the current folder
    const std::time_t now = std::time(nullptr);
    char name[64];
    std::strftime(name, sizeof name, "satdof-%Y%m%d-%H%M%S.png", std::localtime(&now));
    path = name;
  }
  const std::filesystem::path sidecar = screenshotSidecar(path);
  try {
    writePng(path, readFramebuffer(0, framebuffer.width, framebuffer.height));
    files::writeFileAtomically(sidecar, settingsText);
  } catch (const files::WriteError& e) {
    // Asked for by --screenshot or the script (checked before the window opened): the run
    // fails. F12's goes on, the reason said.
    if (!requested.empty()) throw;
    std::fprintf(stderr, "satdof: screenshot: %s\n", e.what());
    return;
  }
  std::printf("satdof: wrote %s (settings: %s)\n", path.c_str(), sidecar.c_str());
}

}  // namespace satdof

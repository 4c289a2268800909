// app/frame_files.h — the frames a run writes: headless PNGs (frame_NNNN.png, with the split
// and difference views' labels drawn in as the window shows them, in its font) and the
// window's screenshots with their settings beside them. Every file is written whole
// (engine/files/safe_write.h).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "app/image_text.h"
#include "engine/renderer/renderer.h"

namespace satdof {

class FrameFiles {
 public:
  // frame_NNNN.png in `folder`: what the view shows, labelled where it compares unless
  // `labels` is off. The read-back and the encoding are profiler sections of their own.
  void saveHeadless(Renderer& renderer, const std::filesystem::path& folder, int index, bool labels);
  // The window as PNG at `requested` (empty: a name from the time, F12's), `settingsText`
  // beside it. A requested one that cannot be written throws; F12's says why and goes on.
  static void writeScreenshot(const std::string& requested, Extent framebuffer, const std::string& settingsText);

 private:
  void label(const Renderer& renderer, reference::ImageRgba8& image);
  std::unique_ptr<ImageText> imageText_;  // the labels' font, made when first needed
};

}  // namespace satdof

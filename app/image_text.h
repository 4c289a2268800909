// app/image_text.h — text drawn into an image on the CPU, for the PNGs a headless run
// writes: the window's own font (Dear ImGui's default, ProggyClean at 13 px, rasterised by
// its font atlas alone, no context and no GL), scaled by whole pixels, in the window's
// label style (yellow on a dark box). drawCompareCaption lays the split and difference
// views' labels out as the window's overlay does (app/ui/overlay.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "engine/pipeline/comparison.h"
#include "satdof/reference/image.h"

struct ImFont;
struct ImFontAtlas;

namespace satdof {

class ImageText {
 public:
  explicit ImageText(int scale);  // pixels per font pixel, >= 1
  ~ImageText();
  ImageText(const ImageText&) = delete;
  ImageText& operator=(const ImageText&) = delete;

  int scale() const { return scale_; }
  int fontSize() const;                    // a line of text, in image pixels
  int width(std::string_view utf8) const;  // the text's advance, in image pixels
  // `utf8` on a dark box whose top-left corner is (x, y), in pixels from the image's
  // top-left (the box's right edge at x when alignRight); clipped to the image. Returns
  // the box's width.
  int tag(reference::ImageRgba8& image, int x, int y, std::string_view utf8, bool alignRight = false) const;

 private:
  int scale_;
  std::unique_ptr<ImFontAtlas> atlas_;
  ImFont* font_ = nullptr;
  const unsigned char* alpha_ = nullptr;  // the atlas, one byte a pixel
  int atlasWidth_ = 0, atlasHeight_ = 0;
};

// The split view's labels beside the divider (at `divider`, 0..1 of the width), or the
// difference view's `maxLine` and both labels; then the caption's notes, each on its own
// lines (broken at spaces where wider than the image).
void drawCompareCaption(reference::ImageRgba8& image, const ImageText& text, const CompareCaption& caption,
                        bool split, float divider, std::string_view maxLine);

}  // namespace satdof
